// The greedy brain's judgement of an Optio position, and its choice among concrete
// commands: each is decided by the pure engine on the brain's own copy of the projection
// (sampled dice for the leaders' rolls), its events applied, and the position scored.
// Pure; one thread.
#pragma once

#include <vector>

#include "common/bot/rng.hpp"
#include "common/rules/optio/game.hpp"

namespace castra::bot::detail {

// How good `s` is for `me`: units and morale on the board, the melees now joined and how
// they would go, closing on the enemy facing him, units kept in command. Higher is better;
// a won game is far above everything else.
double optio_score(const rules::optio::State& s, rules::Side me);

// The best of `options` (non-empty) for `me` in `s`; ending the phase wins ties.
rules::optio::Command best_optio_command(const rules::optio::State& s, rules::Side me,
                                         std::vector<rules::optio::Command> options, Rng& rng);

}  // namespace castra::bot::detail
