// The greedy brain's judgement of a STAND! position, and its choice among concrete commands:
// each is decided by the pure engine on the brain's own copy of the projection (with
// sampled dice, averaged), its events applied, and the position scored. Pure; one thread.
#pragma once

#include <vector>

#include "common/bot/rng.hpp"
#include "common/rules/stand/game.hpp"

namespace castra::bot::detail {

// How good `s` is for `me`: strength on the map, the blows each side can strike next (a
// hex's best attack on a neighbour, its rear bared or not), closing on the enemy, and
// hexes standing by friends. Higher is better; a won game is far above everything else.
double stand_score(const rules::stand::State& s, rules::Side me);

// The best of `options` (all accepted by decide, non-empty) for `me` in `s`.
rules::stand::Command best_stand_command(const rules::stand::State& s, rules::Side me,
                                         std::vector<rules::stand::Command> options, Rng& rng);

}  // namespace castra::bot::detail
