#include "common/bot/optio_eval.hpp"

#include <algorithm>
#include <limits>

namespace castra::bot::detail {
namespace {

namespace dom = rules::optio;
using rules::Side;

constexpr double kWon = 1e6;         // a won game
constexpr double kOnBoard = 10.0;    // a unit still on the board
constexpr double kInterval = 6.0;    // one morale interval
constexpr double kMissileHit = 1.2;  // one hit toward the next lost interval
constexpr double kDisorder = 3.0;
constexpr double kApproach = 1.0;  // per square still to close
constexpr double kFacing = 1.5;    // the nearest enemy lies ahead
constexpr double kInCommand = 2.0;

double outcome_score(const rules::Outcome& o, Side me) {
  if (o.kind == rules::Outcome::Kind::kDraw) return 0.0;
  const bool won = (o.kind == rules::Outcome::Kind::kWinA) == (me == Side::kA);
  return won ? kWon : -kWon;
}

double unit_value(const dom::Unit& u) {
  if (!u.on_board()) return 0.0;
  return kOnBoard + kInterval * u.morale - kMissileHit * u.missile_hits -
         (u.disordered ? kDisorder : 0.0);
}

double trial(const dom::State& s, Side me, const dom::Command& c, Rng& rng) {
  SampledDice dice(rng);
  auto events = dom::Game::decide(s, me, c, dice);
  if (!events) return -std::numeric_limits<double>::infinity();
  dom::State next = s;
  for (const auto& e : *events)
    dom::Game::apply(next, e);
  return optio_score(next, me);
}

}  // namespace

double optio_score(const dom::State& s, Side me) {
  double v = s.outcome ? outcome_score(*s.outcome, me) : 0.0;
  for (const dom::Unit& u : s.units) {
    v += (u.side == me ? 1.0 : -1.0) * unit_value(u);
  }
  return v;
}

dom::Command best_optio_command(const dom::State& s, Side me, std::vector<dom::Command> options,
                                Rng& rng) {
  std::size_t best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < options.size(); ++i) {
    const double v = trial(s, me, options[i], rng);
    if (v > best_score) {
      best_score = v;
      best = i;
    }
  }
  return options[best];
}

}  // namespace castra::bot::detail
