// The Optio half of the brain: the concrete commands of a legal list, orders cards (a
// random walk, or a road to the nearest enemy), and the choice among them.
#include <algorithm>
#include <cstdlib>
#include <optional>

#include "common/bot/optio_eval.hpp"
#include "common/bot/think.hpp"
#include "common/rules/optio/game.hpp"
#include "common/wire/optio_codec.hpp"

namespace castra::bot::detail {
namespace {

namespace dom = rules::optio;
namespace pb = v1::optio;
using rules::Side;

v1::GameCommand encode(const dom::Command& c) {
  v1::GameCommand out;
  *out.mutable_optio() = wire::optio::to_proto(c);
  return out;
}

// When the projection cannot be read back or gives another list than the one sent (which
// would be a bug), the brain still never sends anything the list does not hold.
std::optional<v1::GameCommand> blind(const pb::Legal& legal) {
  if (legal.end_phase()) return encode(dom::cmd::EndPhase{});
  if (legal.end_deployment()) return encode(dom::cmd::EndDeployment{});
  return std::nullopt;
}

int sign(int v) {
  return (v > 0) - (v < 0);
}

// A path of king steps from `from` toward `to`: straight on while the rows differ most, so
// that a line advancing square by square keeps to it.
std::vector<dom::Square> road(dom::Square from, dom::Square to, int max_squares) {
  std::vector<dom::Square> out{from};
  dom::Square at = from;
  while (static_cast<int>(out.size()) < max_squares && at != to) {
    const int dc = to.col - at.col;
    const int dr = to.row - at.row;
    const bool sideways = std::abs(dc) > std::abs(dr) || dr == 0;
    at = {at.col + (sideways || std::abs(dc) == std::abs(dr) ? sign(dc) : 0), at.row + sign(dr)};
    out.push_back(at);
  }
  return out;
}

// Toward the nearest enemy unit on the board, or the enemy's edge when there is none.
dom::Square objective(const dom::State& s, Side side, dom::Square from) {
  dom::Square best{from.col, side == Side::kA ? s.rows : 1};
  int best_d = 1 << 20;
  for (const dom::Unit& u : s.units) {
    if (u.side == side || !u.on_board()) continue;
    const int d = dom::distance(from, u.pos);
    if (d < best_d) {
      best_d = d;
      best = u.pos;
    }
  }
  return best;
}

dom::cmd::SubmitOrders greedy_orders(const dom::State& s, const dom::OrdersLegal& o, Side side) {
  dom::cmd::SubmitOrders c;
  for (const dom::OrdersPath& start : o.starts) {
    const dom::Square from = start.squares.front();
    c.paths.push_back({start.leader, road(from, objective(s, side, from), o.max_squares)});
  }
  return c;
}

// Any well-formed card: each path a random walk of king steps on the board.
dom::cmd::SubmitOrders random_orders(const dom::OrdersLegal& o, Rng& rng) {
  dom::cmd::SubmitOrders c;
  for (const dom::OrdersPath& start : o.starts) {
    dom::OrdersPath p{start.leader, {start.squares.front()}};
    const auto length = 1 + rng.below(static_cast<std::size_t>(o.max_squares));
    while (p.squares.size() < length) {
      const dom::Square at = p.squares.back();
      std::vector<dom::Square> next;
      for (int dc = -1; dc <= 1; ++dc) {
        for (int dr = -1; dr <= 1; ++dr) {
          const dom::Square q{at.col + dc, at.row + dr};
          if (q != at && q.col >= 1 && q.col <= o.cols && q.row >= 1 && q.row <= o.rows) {
            next.push_back(q);
          }
        }
      }
      p.squares.push_back(choose(rng, next));
    }
    c.paths.push_back(std::move(p));
  }
  return c;
}

void deployment_options(const dom::State& s, const dom::Legal& l, std::vector<dom::Command>& out) {
  // Each unit and leader is placed once; placing again is allowed but changes nothing worth
  // a command.
  for (const dom::UnitLegal& u : l.units) {
    if (s.unit(u.unit)->placed) continue;
    for (dom::Square at : u.placements) {
      for (int f : u.facings) {
        for (dom::Formation form : u.formations)
          out.push_back(dom::cmd::Deploy{u.unit, at, f, form});
      }
    }
  }
  for (const dom::LeaderLegal& x : l.leaders) {
    if (s.leader(x.leader)->unit != 0) continue;
    for (int unit : x.place_on)
      out.push_back(dom::cmd::PlaceLeader{x.leader, unit});
  }
  if (l.end_deployment) out.push_back(dom::cmd::EndDeployment{});
}

void move_options(const dom::Legal& l, std::vector<dom::Command>& out) {
  if (l.end_phase) out.push_back(dom::cmd::EndPhase{});
  for (const dom::UnitLegal& u : l.units) {
    for (const dom::AdvanceOption& a : u.advances)
      out.push_back(dom::cmd::Advance{u.unit, a.steps});
    for (int f : u.rotations)
      out.push_back(dom::cmd::Rotate{u.unit, f});
    if (u.change_formation) out.push_back(dom::cmd::ChangeFormation{u.unit});
    for (int t : u.shoot_targets)
      out.push_back(dom::cmd::Shoot{u.unit, t});
  }
  for (const dom::LeaderLegal& x : l.leaders) {
    for (int unit : x.move_to)
      out.push_back(dom::cmd::MoveLeader{x.leader, unit});
    if (x.abandon) out.push_back(dom::cmd::AbandonOrders{x.leader});
  }
}

}  // namespace

std::optional<v1::GameCommand> think_optio(const pb::State& view, const pb::Legal& legal, Side side,
                                           Turn& turn) {
  auto state = wire::optio::to_domain(view);
  if (!state) return blind(legal);
  const dom::Legal mine = dom::Game::legal(*state, side);
  pb::Legal expected = wire::optio::to_proto(mine);
  wire::optio::add_forecasts(dom::Game::forecasts(*state, mine), &expected);
  if (expected.SerializeAsString() != legal.SerializeAsString()) {
    return blind(legal);
  }
  if (mine.orders.submit) {
    if (turn.strength == Strength::kRandom) return encode(random_orders(mine.orders, turn.rng));
    return encode(greedy_orders(*state, mine.orders, side));
  }
  if (turn.wind_up && (mine.end_phase || mine.end_deployment)) return blind(legal);
  std::vector<dom::Command> options;
  deployment_options(*state, mine, options);
  move_options(mine, options);
  if (options.empty()) return std::nullopt;
  if (turn.strength == Strength::kRandom) return encode(choose(turn.rng, options));
  return encode(best_optio_command(*state, side, std::move(options), turn.rng));
}

}  // namespace castra::bot::detail
