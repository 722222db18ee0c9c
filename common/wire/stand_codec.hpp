// Protobuf <-> domain values for the stand rule set. Pure conversions, any thread.
#pragma once

namespace castra::wire::stand {}  // namespace castra::wire::stand
