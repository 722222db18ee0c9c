// The greedy brain's Optio judgement: material, the melees joined, shape (see optio_eval.hpp).
#include "common/bot/optio_eval.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <utility>

#include "common/bot/best.hpp"

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
constexpr double kMeleeShare = 0.8;  // the melees now joined, as the table would score them
constexpr double kFreeLeader = 1.0;  // a subcommander whose orders no longer bind him

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

const dom::Unit* unit_at(const dom::State& s, dom::Square q) {
  return s.on_board(q) ? s.unit_at(q) : nullptr;
}

bool has_leader(const dom::State& s, int unit) {
  return std::any_of(s.leaders.begin(), s.leaders.end(),
                     [&](const dom::Leader& l) { return l.active() && l.unit == unit; });
}

// The brain's own reading of the shift of section 6 for unit u fighting opp in melee.
int melee_shift(const dom::State& s, const dom::Ruleset& r, const dom::Unit& u,
                const dom::Unit& opp) {
  const dom::Modifiers& m = r.modifiers;
  const dom::UnitStats& st = r.stats(u.type);
  const bool deep = u.bases == 4 && u.formation == dom::Formation::kLine;
  const dom::Terrain here = s.terrain_at(u.pos);
  int shift = has_leader(s, u.id) ? m.leader : 0;
  if (deep) shift += m.deep_line;
  if (here == dom::Terrain::kHill && s.terrain_at(opp.pos) != dom::Terrain::kHill) shift += m.hill;
  if (u.bases == 1) shift += m.thin_line;
  if (!deep && u.morale <= st.shaken) shift += m.shaken;
  if (u.disordered) shift += m.disordered;
  const bool agile_foot = st.drill == dom::Drill::kAgile && st.unit_class == dom::UnitClass::kFoot;
  if ((here == dom::Terrain::kWoods || here == dom::Terrain::kMarsh) && !agile_foot) {
    shift += m.rough;
  }
  if (u.formation == dom::Formation::kColumn) shift += m.column;
  const dom::Side4 where = dom::relative_side(u.pos, u.facing, opp.pos);
  if (where == dom::Side4::kFlank) shift += m.flank;
  if (where == dom::Side4::kRear) shift += m.rear;
  return shift;
}

// Intervals the enemy is expected to lose minus ours in the melees now joined.
double melee_balance(const dom::State& s, const dom::Ruleset& r, Side me) {
  double balance = 0.0;
  for (const dom::Unit& u : s.units) {
    if (u.side != me || !u.on_board()) continue;
    for (int f = 0; f < dom::kFacings; ++f) {
      const dom::Unit* e = unit_at(s, dom::ahead(u.pos, f));
      if (e == nullptr || e->side == me) continue;
      if (u.facing != f && dom::ahead(e->pos, e->facing) != u.pos) continue;
      const int mine = r.shifted_hits(r.stats(u.type).melee, melee_shift(s, r, u, *e));
      const int theirs = r.shifted_hits(r.stats(e->type).melee, melee_shift(s, r, *e, u));
      balance += mine == theirs ? 0.0 : mine - theirs;
    }
  }
  return balance;
}

// Squares to the nearest enemy unit, and whether it lies in u's front arc.
std::pair<int, bool> nearest_enemy(const dom::State& s, const dom::Unit& u) {
  int best = 1 << 20;
  bool ahead = false;
  for (const dom::Unit& e : s.units) {
    if (e.side == u.side || !e.on_board()) continue;
    const int d = dom::distance(u.pos, e.pos);
    if (d < best) {
      best = d;
      ahead = dom::in_arc(u.pos, u.facing, d, e.pos);
    }
  }
  return {best, ahead};
}

// Units of `me` a leader's chain reaches (section 3): from his unit through orthogonally
// adjacent units of his command.
int units_in_command(const dom::State& s, Side me) {
  std::vector<int> reached;
  for (const dom::Leader& l : s.leaders) {
    if (l.side != me || !l.active() || l.unit == 0) continue;
    const dom::Unit* start = s.unit(l.unit);
    if (start == nullptr || !start->on_board()) continue;
    std::vector<const dom::Unit*> todo{start};
    while (!todo.empty()) {
      const dom::Unit* u = todo.back();
      todo.pop_back();
      if (std::find(reached.begin(), reached.end(), u->id) != reached.end()) continue;
      reached.push_back(u->id);
      for (int f = 0; f < dom::kFacings; ++f) {
        const dom::Unit* n = unit_at(s, dom::ahead(u->pos, f));
        if (n != nullptr && n->side == me && n->command == l.command) todo.push_back(n);
      }
    }
  }
  return static_cast<int>(reached.size());
}

double shape(const dom::State& s, Side me) {
  double v = 0.0;
  bool enemy_seen = false;
  for (const dom::Unit& u : s.units) {
    if (u.side != me || !u.on_board()) continue;
    const auto [d, ahead] = nearest_enemy(s, u);
    if (d >= (1 << 20)) continue;
    enemy_seen = true;
    v -= kApproach * std::max(d - 1, 0);
    if (ahead) v += kFacing;
  }
  if (!enemy_seen) {
    // Deploying first: toward the enemy's edge, facing it.
    for (const dom::Unit& u : s.units) {
      if (u.side != me || !u.on_board()) continue;
      v -= kApproach * std::abs((me == Side::kA ? s.rows : 1) - u.pos.row);
      if (u.facing == (me == Side::kA ? 2 : 0)) v += kFacing;
    }
  }
  for (const dom::Leader& l : s.leaders) {
    if (l.side == me && !l.general && l.abandoned) v += kFreeLeader;
  }
  return v + kInCommand * units_in_command(s, me);
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
  const dom::Ruleset* r = dom::find_ruleset(s.version);
  if (r == nullptr) return v;
  return v + kMeleeShare * kInterval * melee_balance(s, *r, me) + shape(s, me);
}

dom::Command best_optio_command(const dom::State& s, Side me, std::vector<dom::Command> options,
                                Rng& rng) {
  return best_of(options, [&](const auto& c) { return trial(s, me, c, rng); });
}

}  // namespace castra::bot::detail
