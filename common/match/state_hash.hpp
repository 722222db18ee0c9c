// The state hash: SHA-256("castra/state/v1" || u32 len || rule set name || canonical bytes of
// the state). Same state, same hash, on any machine (docs/formats.md 4). Pure; any thread.
#pragma once

#include <string>

#include "common/match/crypto.hpp"
#include "common/rules/canonical.hpp"
#include "common/rules/rule_set.hpp"

namespace castra::match {

template <rules::RuleSet G>
Bytes32 state_hash(const typename G::State& state) {
  rules::ByteWriter w;
  for (char c : std::string_view("castra/state/v1"))
    w.u8(static_cast<std::uint8_t>(c));
  w.str(G::kName);
  G::encode(state, w);
  return sha256(w.bytes());
}

}  // namespace castra::match
