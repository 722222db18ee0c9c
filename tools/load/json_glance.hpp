// JSON glance: reads the few fields a castra-load spectator needs from one castra.v1.json
// ServerEnvelope (docs/protocol.md, "Encodings") without parsing the rest: the request id,
// and of a push only a MatchUpdate's match_id, its snapshot's (or 1.0 status's) entry_count
// and ended, whether it carries a record, and a MatchEnded's match_id. Every other push comes
// back with no body; a reply (request id set) is parsed in full, as replies are small.
// It checks the frame's structure only as far as it walks it, not the fields it skips.
// Pure functions: no state, any thread.
#pragma once

#include <initializer_list>
#include <optional>
#include <string_view>

#include "proto/castra/v1/protocol.pb.h"

namespace castra::load {

// One pass over the JSON object `object`: found[k] gets the text of the member named keys[k]
// (left as it is when absent). Values are skipped, not checked; false when `object` is not an
// object as far as the pass can tell.
bool json_members(std::string_view object, std::initializer_list<std::string_view> keys,
                  std::optional<std::string_view>* found);

// Fills `out` from `frame` as above; false when the frame is not a JSON object or a field it
// reads does not hold its type.
bool glance_json(std::string_view frame, castra::v1::ServerEnvelope* out);

}  // namespace castra::load
