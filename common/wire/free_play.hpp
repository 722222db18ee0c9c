// FreePlay: a position played outside a match, for castra-sim run --from-state and rules
// designers who set up a position and try it. It starts from a saved state (what --state
// prints) and takes commands for either side with dice drawn from a seed or forced. It has
// no seats, no log and no record: with no scenario and no committed seed there is nothing a
// record could be verified against. Pure; one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::wire {

class FreePlay {
 public:
  virtual ~FreePlay() = default;

  // The events of one command, numbered on from those before (every event is shown: the
  // position has no secrets from the person trying it), or the rule that refuses it.
  virtual rules::Checked<std::vector<v1::ViewEvent>> submit(rules::Side side,
                                                            const v1::GameCommand& command) = 0;
  virtual v1::GameState state() const = 0;
  virtual match::Bytes32 state_hash() const = 0;
  virtual std::optional<rules::Outcome> outcome() const = 0;
};

struct FreePlaySetup {
  v1::GameState state;
  match::Bytes32 seed{};    // the dice are fair rolls keyed by it (docs/formats.md 2)
  std::vector<int> forced;  // faces given before any fair roll, clamped to each die
};

// Refused when the state names no rule set or an unknown rules version, does not decode, or
// breaks an invariant of its engine (check()): a hand-edited position is checked like a
// played one.
rules::Checked<std::unique_ptr<FreePlay>> free_play(FreePlaySetup setup);

}  // namespace castra::wire
