// Placeholder until the match core lands.
#pragma once
