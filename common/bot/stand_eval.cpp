// The greedy brain's STAND! judgement: strength, the blows to come, shape (see stand_eval.hpp).
#include "common/bot/stand_eval.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <variant>

#include "common/bot/best.hpp"

namespace castra::bot::detail {
namespace {

namespace rs = rules::stand;
using rules::Side;

constexpr double kPerStrength = 10.0;  // one strength point on the map
constexpr double kWon = 1e6;           // a won game
constexpr double kApproach = 0.25;     // per strength point and hex still to close
constexpr double kTogether = 0.6;      // per pair of neighbouring friendly hexes
constexpr double kStrikeShare = 1.0;   // our blows still to come this turn
constexpr double kThreatShare = 0.7;   // the enemy's blows of his next turn
constexpr int kSamples = 3;            // dice samples for a command that rolls

struct Body {
  rs::Hex hex;
  const rs::Tile* tile;
};

// T of `attacker` striking the hex `defender` from the neighbouring hex `from`, in tenths.
rs::Tenths blow(const rs::Ruleset& r, const rs::Tile& attacker, rs::Hex from,
                const rs::Tile& defender, rs::Hex at) {
  const auto side = rs::direction_to(at, from);
  const bool rear = side && rs::is_rear_hexside(defender.facing, *side);
  const int posture = rs::index(defender.posture);
  const int cover = r.is_cover(defender.terrain) ? 1 : 0;
  rs::Tenths total = 0;
  for (rs::Troop t : rs::kAllTroops) {
    const auto i = static_cast<std::size_t>(rs::index(t));
    total += attacker.figures[t] *
             (r.chance[i][static_cast<std::size_t>(posture)][static_cast<std::size_t>(cover)] +
              (rear ? r.rear_bonus[i] : 0));
  }
  return total;
}

// The strength a blow of `total` tenths is expected to take from `defender`.
double expected_loss(const rs::Ruleset& r, rs::Tenths total, const rs::Figures& defender) {
  const double casualties = std::min(total / 10.0, static_cast<double>(defender.total()));
  for (rs::Troop t : r.casualty_order) {
    if (defender[t] > 0) return casualties * r.strength[static_cast<std::size_t>(rs::index(t))];
  }
  return 0.0;
}

// The sum over `strikers` of each one's best expected blow on a neighbouring `targets` hex.
double best_blows(const rs::Ruleset& r, const std::vector<Body>& strikers,
                  const std::vector<Body>& targets, bool skip_attacked) {
  double sum = 0.0;
  for (const Body& a : strikers) {
    if (skip_attacked && a.tile->attacked) continue;
    double best = 0.0;
    for (const Body& d : targets) {
      if (!rs::adjacent(a.hex, d.hex)) continue;
      best = std::max(best,
                      expected_loss(r, blow(r, *a.tile, a.hex, *d.tile, d.hex), d.tile->figures));
    }
    sum += best;
  }
  return sum;
}

double outcome_score(const rules::Outcome& o, Side me) {
  if (o.kind == rules::Outcome::Kind::kDraw) return 0.0;
  const bool won = (o.kind == rules::Outcome::Kind::kWinA) == (me == Side::kA);
  return won ? kWon : -kWon;
}

// Hexes still to close: to the nearest enemy hex, or to the enemy's edge before he deploys.
int gap(const rs::State& s, Side me, rs::Hex h, const std::vector<Body>& enemy) {
  if (enemy.empty()) return std::abs((me == Side::kA ? s.height - 1 : 0) - h.row);
  int best = std::numeric_limits<int>::max();
  for (const Body& e : enemy)
    best = std::min(best, rs::distance(h, e.hex));
  return best - 1;
}

double trial(const rs::State& s, Side me, const rs::Command& c, Rng& rng) {
  const bool rolls = std::holds_alternative<rs::cmd::Attack>(c);
  const int samples = rolls ? kSamples : 1;
  double sum = 0.0;
  for (int k = 0; k < samples; ++k) {
    SampledDice dice(rng);
    auto events = rs::Game::decide(s, me, c, dice);
    if (!events) return -std::numeric_limits<double>::infinity();
    rs::State next = s;
    for (const auto& e : *events)
      rs::Game::apply(next, e);
    sum += stand_score(next, me);
  }
  return sum / samples;
}

// Deployments face the enemy's edge (the list's concrete commands face anywhere).
void face_the_enemy(std::vector<rs::Command>& options, Side me) {
  for (auto& c : options) {
    if (auto* d = std::get_if<rs::cmd::Deploy>(&c)) d->facing = me == Side::kA ? 5 : 1;
  }
}

}  // namespace

double stand_score(const rs::State& s, Side me) {
  const rs::Ruleset& r = rs::rules_of(s);
  std::vector<Body> mine, enemy;
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    const rs::Tile& t = s.tiles[i];
    if (!t.occupied()) continue;
    (t.side == me ? mine : enemy).push_back({s.hex_of(i), &t});
  }
  double strength = 0.0;
  for (const Body& b : mine)
    strength += r.strength_of(b.tile->figures);
  for (const Body& b : enemy)
    strength -= r.strength_of(b.tile->figures);
  double shape = 0.0;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    shape -= kApproach * r.strength_of(mine[i].tile->figures) * gap(s, me, mine[i].hex, enemy);
    for (std::size_t j = i + 1; j < mine.size(); ++j) {
      if (rs::adjacent(mine[i].hex, mine[j].hex)) shape += kTogether;
    }
  }
  const bool our_turn =
      s.active == me && (s.phase == rs::Phase::kMove || s.phase == rs::Phase::kFight);
  const double strike = our_turn ? best_blows(r, mine, enemy, true) : 0.0;
  const double threat = best_blows(r, enemy, mine, false);
  const double won = s.outcome ? outcome_score(*s.outcome, me) : 0.0;
  return won + kPerStrength * (strength + kStrikeShare * strike - kThreatShare * threat) + shape;
}

rs::Command best_stand_command(const rs::State& s, Side me, std::vector<rs::Command> options,
                               Rng& rng) {
  face_the_enemy(options, me);
  return best_of(options, [&](const auto& c) { return trial(s, me, c, rng); });
}

}  // namespace castra::bot::detail
