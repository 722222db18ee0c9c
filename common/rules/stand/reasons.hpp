// Ancient STAND!'s explanation for the client: why one of a side's hexes cannot act now.
// STAND! hides nothing, but the server still asks on the side's own projection, as for
// Optio. Pure; any thread.
#pragma once

#include "common/rules/reasons.hpp"
#include "common/rules/stand/hex.hpp"
#include "common/rules/stand/state.hpp"

namespace castra::rules::stand {

// For each kind of action of the current phase (deployment: face; move phase: move, face,
// posture; fight phase: attack; before or after the battle: act) that Game::legal(s, side)
// offers the hex nothing of, the rule that stops it. A hex without troops of the side gets
// one refusal saying so.
Reasons reasons(const State& s, Side side, Hex hex);

}  // namespace castra::rules::stand
