// Protobuf <-> domain values for the optio rule set. Pure conversions, any thread.
#pragma once

namespace castra::wire::optio {}  // namespace castra::wire::optio
