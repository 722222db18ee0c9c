// A scenario's own deployment (rulings, "Scenario deployment"): deployment zones listed hex
// by hex, and a fixed deployment that places every body of troops. Checked and laid onto a
// new state; engine-internal, only Game::initial_state (setup.cpp) calls these. Pure
// functions; any thread.
#pragma once

#include <optional>

#include "common/rules/stand/ruleset.hpp"
#include "common/rules/stand/state.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::stand {

// The scenario's zones into s.zones, row by row: both sides or neither, every hex on the
// map and listed once, no hex in both zones. `s` has its map.
std::optional<RuleError> set_zones(State& s, const Scenario& sc);

// Every placement of a fixed deployment onto s's map, each checked as the end hex of a move
// is (terrain, enemy, sharing, capacity), at most one body of troops a hex; each army's
// figures are the sum of its placements (an army naming none takes the sum). Sets who moves
// first; nothing is left to deploy.
std::optional<RuleError> place_fixed(State& s, const Ruleset& rs, const Scenario& sc);

}  // namespace castra::rules::stand
