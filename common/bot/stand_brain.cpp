// The STAND! half of the brain: random picks any concrete command of the list; greedy tries
// each on its own copy of the projection (stand_eval.hpp) and keeps the best.
#include <optional>

#include "common/bot/stand_eval.hpp"
#include "common/bot/think.hpp"
#include "common/rules/stand/game.hpp"
#include "common/wire/stand_codec.hpp"

namespace castra::bot::detail {
namespace {

namespace rs = rules::stand;
namespace pb = v1::stand;

v1::GameCommand encode(const rs::Command& c) {
  v1::GameCommand out;
  *out.mutable_stand() = wire::stand::to_proto(c);
  return out;
}

// When the projection cannot be read back or gives another list than the one sent (which
// would be a bug), the brain still never sends anything the list does not hold.
std::optional<v1::GameCommand> blind(const pb::Legal& legal) {
  if (!legal.end_phase()) return std::nullopt;
  return encode(rs::cmd::EndPhase{});
}

}  // namespace

std::optional<v1::GameCommand> think_stand(const pb::State& view, const pb::Legal& legal,
                                           rules::Side side, Turn& turn) {
  auto state = wire::stand::to_domain(view);
  if (!state) return blind(legal);
  const rs::Legal mine = rs::Game::legal(*state, side);
  pb::Legal expected = wire::stand::to_proto(mine);
  wire::stand::add_forecasts(rs::Game::forecasts(*state, mine), &expected);
  if (expected.SerializeAsString() != legal.SerializeAsString()) {
    return blind(legal);
  }
  if (turn.wind_up && mine.end_phase) return encode(rs::cmd::EndPhase{});
  std::vector<rs::Command> options = rs::commands(mine);
  if (options.empty()) return std::nullopt;
  if (turn.strength == Strength::kRandom) return encode(choose(turn.rng, options));
  return encode(best_stand_command(*state, side, options, turn.rng));
}

}  // namespace castra::bot::detail
