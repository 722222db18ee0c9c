// Optio's decide(): a validated command becomes its events. Charges, shooting, routs, the
// melee phase, leader dice, army break and the end of turn are worked out here, each event
// applied to a scratch state as it is produced so that later steps see its result.
#include <algorithm>
#include <cassert>
#include <map>

#include "common/rules/optio/game.hpp"
#include "common/rules/optio/internal.hpp"

namespace castra::rules::optio {
namespace {

using detail::rules_of;

class Builder {
 public:
  explicit Builder(const State& s) : s_(s), rs_(rules_of(s)) {}
  void emit(Event e) {
    Game::apply(s_, e);
    out_.push_back(std::move(e));
  }
  const State& s() const { return s_; }
  const Ruleset& rs() const { return rs_; }
  std::vector<Event> take() { return std::move(out_); }
  bool over() const { return s_.phase == Phase::kOver; }

 private:
  State s_;
  const Ruleset& rs_;
  std::vector<Event> out_;
};

// The leader's new unit after his own unit routs: the nearest unit he may stand with, by
// king's-move distance from `from`, ties by smallest row then column; 0 if there is none.
int relocation_for(const State& s, const Leader& l, Square from, const std::vector<int>& leaving) {
  const Unit* best = nullptr;
  for (const Unit& u : s.units) {
    if (!u.on_board() || !detail::may_stand_with(s, l, u)) continue;
    if (std::find(leaving.begin(), leaving.end(), u.id) != leaving.end()) continue;
    if (best == nullptr) {
      best = &u;
      continue;
    }
    const int d = distance(from, u.pos);
    const int bd = distance(from, best->pos);
    if (d < bd || (d == bd && reading_before(u.pos, best->pos))) best = &u;
  }
  return best == nullptr ? 0 : best->id;
}

// Routs every unit in `ids` together: leaders carried off first, then the units leave, then
// each enemy unit next to a routing unit regains one interval per routing unit.
void rout(Builder& b, const std::vector<int>& ids) {
  if (ids.empty()) return;
  const State before = b.s();
  for (int id : ids) {
    const Unit& u = *b.s().unit(id);
    ev::Routed r{.unit = id, .side = u.side, .at = u.pos, .from_morale = u.morale, .leaders = {}};
    for (int lid : detail::leaders_with(b.s(), id)) {
      r.leaders.push_back({lid, relocation_for(b.s(), *b.s().leader(lid), u.pos, ids)});
    }
    b.emit(r);
    for (const LeaderRelocation& rel : r.leaders) {
      const Leader& l = *b.s().leader(rel.leader);
      if (rel.to_unit == 0 || !detail::bound_by_orders(l)) continue;
      const int p = detail::progress_after(l, b.s().unit(rel.to_unit)->pos);
      if (p != l.progress) b.emit(ev::Progress{l.id, l.side, p});
    }
  }
  for (const Unit& u : b.s().units) {
    if (!u.on_board()) continue;
    int regain = 0;
    for (int id : ids) {
      const Unit& r = *before.unit(id);
      if (r.side != u.side && king_adjacent(r.pos, u.pos)) ++regain;
    }
    const int to = std::min(u.start_morale, u.morale + regain);
    if (to != u.morale) b.emit(ev::MoraleChanged{u.id, u.morale, to});
  }
}

// Takes `loss` intervals from a unit: a MoraleChanged, or the unit's rout.
void lose(Builder& b, int unit, int loss) {
  if (loss <= 0) return;
  const Unit& u = *b.s().unit(unit);
  if (u.morale - loss > 0) {
    b.emit(ev::MoraleChanged{unit, u.morale, u.morale - loss});
  } else {
    rout(b, {unit});
  }
}

// `leader` was with a unit of the fight when it began. Gone now means his unit routed in this
// fight with no unit of his command left to join: from optio-2 he still rolls, and a kill
// turns "gone" into "killed" (a general so counts as killed for the break).
void roll_for(Builder& b, Dice& dice, int leader) {
  const Leader& l = *b.s().leader(leader);
  const bool rolls = l.active() || (b.rs().leaving_leader_rolls && l.status == LeaderStatus::kGone);
  if (!rolls) return;
  ev::LeaderRoll r{
      .leader = leader, .first = dice.roll(Die::kD6), .second = 0, .fate = LeaderFate::kUnharmed};
  if (r.first >= b.rs().leader_die_wound) {
    if (l.wounded) {
      r.fate = LeaderFate::kKilled;
    } else {
      r.fate = LeaderFate::kWounded;
      r.second = dice.roll(Die::kD6);
      if (r.second >= b.rs().leader_die_kill) r.fate = LeaderFate::kKilled;
    }
  }
  b.emit(r);
}

bool broken(const State& s, const Ruleset& rs, Side side) {
  const auto i = static_cast<std::size_t>(index(side));
  const int start = s.start_units[i];
  const int routed = s.routed[i];
  if (routed * rs.break_half >= start) return true;
  const bool general_killed = std::any_of(s.leaders.begin(), s.leaders.end(), [&](const Leader& l) {
    return l.side == side && l.general && l.status == LeaderStatus::kKilled;
  });
  return general_killed && routed * rs.break_third >= start;
}

std::string losses_text(const State& s) {
  return "A lost " + std::to_string(s.routed[0]) + "/" + std::to_string(s.start_units[0]) +
         ", B lost " + std::to_string(s.routed[1]) + "/" + std::to_string(s.start_units[1]);
}

// Section 9: after a fight or a rout, a broken army loses at once; both broken is a draw.
void check_break(Builder& b) {
  if (b.over()) return;
  const bool a = broken(b.s(), b.rs(), Side::kA);
  const bool bb = broken(b.s(), b.rs(), Side::kB);
  if (a && bb) {
    b.emit(ev::GameEnded{Outcome::draw("both armies broke: " + losses_text(b.s()))});
  } else if (a || bb) {
    const Side loser = a ? Side::kA : Side::kB;
    b.emit(ev::GameEnded{Outcome::win(other(loser), std::string("side ") + side_letter(loser) +
                                                        "'s army broke: " + losses_text(b.s()))});
  }
}

// Section 7: shooting hits, the missile-hit count, and the intervals every 4th hit costs.
void shoot(Builder& b, int shooter_id, int target_id, bool at_charger) {
  const ev::Shot e =
      detail::shot_of(b.s(), *b.s().unit(shooter_id), *b.s().unit(target_id), at_charger);
  b.emit(e);
  lose(b, target_id, e.intervals);
}

// ---- commands -------------------------------------------------------------------------------

void resolve(Builder& b, Side, const cmd::Deploy& d, Dice&) {
  b.emit(ev::UnitDeployed{d.unit, d.at, d.facing, d.formation});
}

void resolve(Builder& b, Side, const cmd::PlaceLeader& p, Dice&) {
  b.emit(ev::LeaderPlaced{p.leader, p.unit});
}

void resolve(Builder& b, Side side, const cmd::EndDeployment&, Dice&) {
  b.emit(ev::DeploymentEnded{side});
  if (!b.s().deployed[static_cast<std::size_t>(index(other(side)))]) {
    b.emit(ev::PhaseStarted{Phase::kDeployment, 0, other(side)});
  } else {
    b.emit(ev::PhaseStarted{Phase::kOrders, 0, b.s().first_side});
  }
}

void resolve(Builder& b, Side side, const cmd::SubmitOrders& o, Dice&) {
  std::vector<OrdersPath> paths = o.paths;
  std::sort(paths.begin(), paths.end(),
            [](const OrdersPath& x, const OrdersPath& y) { return x.leader < y.leader; });
  b.emit(ev::OrdersCard{side, std::move(paths)});
  b.emit(ev::OrdersSubmitted{side});
  if (b.s().orders_submitted[0] && b.s().orders_submitted[1]) {
    b.emit(ev::PhaseStarted{Phase::kMove, 1, b.s().first_side});
  }
}

void resolve(Builder& b, Side side, const cmd::Advance& a, Dice& dice) {
  const Unit& u = *b.s().unit(a.unit);
  const Square to = a.steps.back().to;
  const int facing = a.steps.back().facing;
  const bool disorders =
      detail::is_rough(b.s().terrain_at(to)) && !detail::is_agile_foot(b.rs(), u);
  const detail::Board board(b.s());
  const int ahead_id = board.at(ahead(to, facing));
  const int target = ahead_id != 0 && b.s().unit(ahead_id)->side != side ? ahead_id : 0;
  b.emit(ev::Advanced{
      .unit = a.unit,
      .from = u.pos,
      .steps = a.steps,
      .disordered = disorders,
      .disorder_turns = disorders ? b.rs().disorder_turns(b.rs().stats(u.type).drill) : 0,
      .charge_target = target});
  for (int lid : detail::leaders_with(b.s(), a.unit)) {
    const Leader& l = *b.s().leader(lid);
    if (!detail::bound_by_orders(l)) continue;
    const int p = detail::progress_after(l, to);
    if (p != l.progress) b.emit(ev::Progress{lid, l.side, p});
  }
  if (target == 0) return;

  // Section 7: a target charged from its front shoots at the charger first.
  const Unit& t = *b.s().unit(target);
  if (b.rs().stats(t.type).shoot > 0 && detail::faces(t, *b.s().unit(a.unit))) {
    shoot(b, target, a.unit, true);
    if (b.s().unit(a.unit)->routed) {
      check_break(b);
      return;
    }
  }
  // Charge combat, from the state after that shooting.
  const std::vector<int> charger_leaders = detail::leaders_with(b.s(), a.unit);
  const std::vector<int> target_leaders = detail::leaders_with(b.s(), target);
  const ev::Fight f =
      detail::fight_of(b.s(), FightKind::kCharge, *b.s().unit(a.unit), *b.s().unit(target));
  b.emit(f);
  lose(b, f.a, f.loss_a);
  lose(b, f.b, f.loss_b);
  for (int lid : charger_leaders)
    roll_for(b, dice, lid);
  for (int lid : target_leaders)
    roll_for(b, dice, lid);
  check_break(b);
}

void resolve(Builder& b, Side, const cmd::Rotate& r, Dice&) {
  const Unit& u = *b.s().unit(r.unit);
  const bool disorders = u.formation == Formation::kLine;
  b.emit(ev::Rotated{r.unit, u.facing, r.facing, disorders,
                     disorders ? b.rs().disorder_turns(b.rs().stats(u.type).drill) : 0});
}

void resolve(Builder& b, Side, const cmd::ChangeFormation& f, Dice&) {
  const Unit& u = *b.s().unit(f.unit);
  b.emit(ev::FormationChanged{
      f.unit, u.formation == Formation::kLine ? Formation::kColumn : Formation::kLine});
}

void resolve(Builder& b, Side, const cmd::Shoot& sh, Dice&) {
  shoot(b, sh.unit, sh.target, false);
  if (b.s().unit(sh.target)->routed) check_break(b);
}

void resolve(Builder& b, Side, const cmd::MoveLeader& m, Dice&) {
  const Leader& l = *b.s().leader(m.leader);
  b.emit(ev::LeaderMoved{m.leader, l.unit, m.unit});
  if (detail::bound_by_orders(l)) {
    const int p = detail::progress_after(l, b.s().unit(m.unit)->pos);
    if (p != l.progress) b.emit(ev::Progress{l.id, l.side, p});
  }
}

void resolve(Builder& b, Side, const cmd::AbandonOrders& a, Dice&) {
  b.emit(ev::OrdersAbandoned{a.leader});
}

// Section 6 and the rulings: every engaged pair fights once, all from the state at the
// start of the phase; losses together, then routs together, then regains; then dice.
void melee_phase(Builder& b, Dice& dice) {
  b.emit(ev::PhaseStarted{Phase::kMelee, b.s().turn, b.s().first_side});
  const State start = b.s();
  struct Pair {
    int a, b;
    Square first, second;
  };
  std::vector<Pair> pairs;
  for (const Unit& u : start.units) {
    if (!u.on_board()) continue;
    for (const Unit& v : start.units) {
      if (!v.on_board() || v.side == u.side || v.id <= u.id) continue;
      if (!orthogonally_adjacent(u.pos, v.pos) || !(detail::faces(u, v) || detail::faces(v, u)))
        continue;
      const bool u_first = reading_before(u.pos, v.pos);
      // Within a fight the first player's unit is `a`.
      const bool u_is_a = u.side == start.first_side;
      pairs.push_back({u_is_a ? u.id : v.id, u_is_a ? v.id : u.id, u_first ? u.pos : v.pos,
                       u_first ? v.pos : u.pos});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) {
    if (x.first != y.first) return reading_before(x.first, y.first);
    return reading_before(x.second, y.second);
  });
  std::map<int, int> loss;
  for (const Pair& p : pairs) {
    const ev::Fight f =
        detail::fight_of(start, FightKind::kMelee, *start.unit(p.a), *start.unit(p.b));
    b.emit(f);
    loss[f.a] += f.loss_a;
    loss[f.b] += f.loss_b;
  }
  std::vector<int> routing;
  for (const auto& [id, l] : loss) {
    if (l <= 0) continue;
    const Unit& u = *b.s().unit(id);
    if (u.morale - l > 0) {
      b.emit(ev::MoraleChanged{id, u.morale, u.morale - l});
    } else {
      routing.push_back(id);
    }
  }
  rout(b, routing);
  for (const Pair& p : pairs) {
    for (int id : {p.a, p.b}) {
      for (int lid : detail::leaders_with(start, id))
        roll_for(b, dice, lid);
    }
  }
  check_break(b);
}

void end_of_turn(Builder& b) {
  for (const Unit& u : b.s().units) {
    if (u.on_board() && u.disordered && u.disorder_turns <= 1) {
      b.emit(ev::DisorderRecovered{u.id});
    }
  }
  const int turn = b.s().turn;
  b.emit(ev::TurnEnded{turn});
  if (turn >= b.s().turn_limit) {
    const State& s = b.s();
    const long share_a = static_cast<long>(s.routed[0]) * s.start_units[1];
    const long share_b = static_cast<long>(s.routed[1]) * s.start_units[0];
    const std::string why = "turn limit: " + losses_text(s);
    if (share_a == share_b) {
      b.emit(ev::GameEnded{Outcome::draw(why)});
    } else {
      b.emit(ev::GameEnded{Outcome::win(share_a < share_b ? Side::kA : Side::kB, why)});
    }
    return;
  }
  b.emit(ev::PhaseStarted{Phase::kMove, turn + 1, b.s().first_side});
}

void resolve(Builder& b, Side side, const cmd::EndPhase&, Dice& dice) {
  if (side == b.s().first_side) {
    b.emit(ev::PhaseStarted{Phase::kMove, b.s().turn, other(side)});
    return;
  }
  melee_phase(b, dice);
  if (!b.over()) end_of_turn(b);
}

}  // namespace

Checked<std::vector<Event>> Game::decide(const State& s, Side side, const Command& c, Dice& dice) {
  if (auto err = detail::validate(s, side, c)) return *err;
  Builder b(s);
  std::visit([&](const auto& x) { resolve(b, side, x, dice); }, c);
  return b.take();
}

}  // namespace castra::rules::optio
