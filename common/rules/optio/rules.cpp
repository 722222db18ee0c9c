// Optio's rule checks: everything that decides whether a command is allowed, shared by
// decide() and legal() so that the legal list and the accepted commands never differ.
#include <algorithm>
#include <cassert>
#include <string>

#include "common/rules/optio/game.hpp"
#include "common/rules/optio/internal.hpp"

namespace castra::rules::optio::detail {
namespace {

std::string side_name(Side s) {
  return std::string("side ") + side_letter(s);
}

std::string unit_text(const State& s, const Unit& u) {
  (void)s;
  return std::string(unit_type_name(u.type)) + " " + std::to_string(u.id) + " at " +
         square_text(u.pos);
}

// A refusal, worded only when the check is validate()'s: allowed() reads none, and wording
// one costs strings (legal() weighs hundreds of candidates a list, most of them refused).
template <typename Words>
std::optional<RuleError> fail(const Ctx& c, const char* rule, Words&& words) {
  if (!c.wording()) return RuleError{};
  return refuse(rule, std::string(words()));
}

}  // namespace

const Ruleset& rules_of(const State& s) {
  const Ruleset* rs = find_ruleset(s.version);
  assert(rs != nullptr && "state made with an unknown rules version");
  return *rs;
}

Board::Board(const State& s)
    : cols_(s.cols), rows_(s.rows), ids_(static_cast<std::size_t>(s.cols * s.rows), 0) {
  for (const Unit& u : s.units) {
    if (u.on_board() && s.on_board(u.pos)) {
      ids_[static_cast<std::size_t>((u.pos.row - 1) * cols_ + (u.pos.col - 1))] = u.id;
    }
  }
}

int Board::at(Square sq) const {
  if (sq.col < 1 || sq.col > cols_ || sq.row < 1 || sq.row > rows_) return 0;
  return ids_[static_cast<std::size_t>((sq.row - 1) * cols_ + (sq.col - 1))];
}

bool is_shaken(const Ruleset& rs, const Unit& u) {
  return u.morale <= rs.stats(u.type).shaken;
}
bool is_deep_line(const Unit& u) {
  return u.bases == 4 && u.formation == Formation::kLine;
}
bool can_form_column(const Ruleset& rs, const Unit& u) {
  return rs.stats(u.type).drill != Drill::kUnwieldy && u.bases > 1;
}
bool is_agile_foot(const Ruleset& rs, const Unit& u) {
  const UnitStats& st = rs.stats(u.type);
  return st.unit_class == UnitClass::kFoot && st.drill == Drill::kAgile;
}
bool is_rough(Terrain t) {
  return t == Terrain::kWoods || t == Terrain::kMarsh;
}
bool may_enter(const Ruleset& rs, const Unit& u, Terrain t) {
  if (t == Terrain::kRiver) return false;
  if (u.type == UnitType::kChariots && is_rough(t)) return false;
  (void)rs;
  return true;
}

bool faces(const Unit& u, const Unit& v) {
  return ahead(u.pos, u.facing) == v.pos;
}

bool engaged(const State& s, const Board& b, const Unit& u) {
  for (int f = 0; f < kFacings; ++f) {
    const int id = b.at(plus(u.pos, step_of(f)));
    if (id == 0) continue;
    const Unit* v = s.unit(id);
    if (v->side != u.side && (faces(u, *v) || faces(*v, u))) return true;
  }
  return false;
}

std::vector<int> leaders_with(const State& s, int unit_id) {
  std::vector<int> out;
  for (const Leader& l : s.leaders) {
    if (l.active() && l.unit == unit_id && unit_id != 0) out.push_back(l.id);
  }
  return out;
}

bool orphaned(const State& s, Side side, int command) {
  for (const Leader& l : s.leaders) {
    if (l.side == side && !l.general && l.command == command) return !l.active();
  }
  return false;
}

bool may_stand_with(const State& s, const Leader& l, const Unit& u) {
  if (u.side != l.side) return false;
  if (u.command == l.command) return true;
  return l.general && orphaned(s, l.side, u.command);
}

std::vector<int> chain(const State& s, const Board& b, const Leader& l) {
  std::vector<int> out;
  if (!l.active() || l.unit == 0) return out;
  const Unit* start = s.unit(l.unit);
  if (start == nullptr || !start->on_board()) return out;
  // Breadth first; out is the queue too: each unit found is appended once and visited when
  // `next` reaches it.
  out.push_back(start->id);
  for (std::size_t next = 0; next < out.size(); ++next) {
    const Unit* u = s.unit(out[next]);
    for (int f = 0; f < kFacings; ++f) {
      const int id = b.at(plus(u->pos, step_of(f)));
      if (id == 0 || std::find(out.begin(), out.end(), id) != out.end()) continue;
      if (!may_stand_with(s, l, *s.unit(id))) continue;
      out.push_back(id);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool in_command(const State& s, const Board& b, const Unit& u) {
  for (const Leader& l : s.leaders) {
    if (l.side != u.side || !l.active()) continue;
    const auto c = chain(s, b, l);
    if (std::binary_search(c.begin(), c.end(), u.id)) return true;
  }
  return false;
}

Ctx::Ctx(const State& state) : s(state), rs(rules_of(state)), board(state) {}

bool Ctx::in_command(const Unit& u) {
  auto& memo = in_command_[static_cast<std::size_t>(index(u.side))];
  // By bisection (State::unit), not a walk of every unit per question.
  const auto index_of = [&](int id) -> std::optional<std::size_t> {
    const Unit* found = s.unit(id);
    if (found == nullptr) return std::nullopt;
    return static_cast<std::size_t>(found - s.units.data());
  };
  if (!memo) {
    memo.emplace(s.units.size(), false);
    for (const Leader& l : s.leaders) {
      if (l.side != u.side || !l.active()) continue;
      for (int id : chain(s, board, l)) {
        if (const auto i = index_of(id)) (*memo)[*i] = true;
      }
    }
  }
  const auto i = index_of(u.id);
  return i && (*memo)[*i];
}

bool bound_by_orders(const Leader& l) {
  return !l.general && l.active() && !l.abandoned && !l.path.empty();
}

int progress_after(const Leader& l, Square to) {
  for (std::size_t i = static_cast<std::size_t>(l.progress) + 1; i < l.path.size(); ++i) {
    if (l.path[i] == to) return static_cast<int>(i);
  }
  return l.progress;
}

std::vector<ShiftTerm> combat_terms(const State& s, const Unit& u, const Unit& opp, FightKind kind,
                                    bool charged) {
  const Ruleset& rs = rules_of(s);
  const Modifiers& m = rs.modifiers;
  const Terrain own = s.terrain_at(u.pos);
  const Terrain their = s.terrain_at(opp.pos);
  const auto defensible = [](Terrain t) { return t == Terrain::kFord || t == Terrain::kCamp; };
  std::vector<ShiftTerm> terms;
  if (!leaders_with(s, u.id).empty()) terms.push_back({"leader with the unit", m.leader});
  if (is_deep_line(u)) terms.push_back({"deep line", m.deep_line});
  if (own == Terrain::kHill && their != Terrain::kHill) terms.push_back({"on a hill", m.hill});
  if (kind == FightKind::kCharge ? (charged && defensible(own))
                                 : (defensible(own) && !defensible(their))) {
    terms.push_back({"defending a " + std::string(terrain_name(own)), m.defend});
  }
  if (u.bases == 1) terms.push_back({"thin line", m.thin_line});
  if (is_shaken(rs, u) && !is_deep_line(u)) terms.push_back({"shaken", m.shaken});
  if (u.disordered) terms.push_back({"disordered", m.disordered});
  if (is_rough(own) && !is_agile_foot(rs, u)) {
    terms.push_back({"in " + std::string(terrain_name(own)), m.rough});
  }
  if (u.formation == Formation::kColumn) terms.push_back({"in column", m.column});
  switch (relative_side(u.pos, u.facing, opp.pos)) {
    case Side4::kFlank:
      terms.push_back({"fought from its flank", m.flank});
      break;
    case Side4::kRear:
      terms.push_back({"fought from its rear", m.rear});
      break;
    default:
      break;
  }
  return terms;
}

std::vector<ShiftTerm> shooting_terms(const State& s, const Unit& shooter, const Unit& target) {
  const Modifiers& m = rules_of(s).modifiers;
  std::vector<ShiftTerm> terms;
  if (s.terrain_at(target.pos) == Terrain::kWoods) {
    terms.push_back({"target in woods", m.shoot_target_woods});
  }
  if (shooter.disordered) terms.push_back({"shooter disordered", m.shoot_disordered});
  if (shooter.bases == 1) terms.push_back({"shooter in thin line", m.shoot_thin_line});
  return terms;
}

int sum_of(const std::vector<ShiftTerm>& terms) {
  int sum = 0;
  for (const ShiftTerm& t : terms)
    sum += t.shift;
  return sum;
}

Score combat_score(const State& s, const Unit& u, const Unit& opp, FightKind kind, bool charged) {
  const Ruleset& rs = rules_of(s);
  Score sc;
  sc.unit = u.id;
  sc.base = kind == FightKind::kCharge ? rs.stats(u.type).charge : rs.stats(u.type).melee;
  sc.terms = combat_terms(s, u, opp, kind, charged);
  sc.raw_shift = sum_of(sc.terms);
  sc.shift = rs.clamp_shift(sc.raw_shift);
  sc.hits = rs.shifted_hits(sc.base, sc.shift);
  return sc;
}

Score shooting_score(const State& s, const Unit& shooter, const Unit& target) {
  const Ruleset& rs = rules_of(s);
  Score sc;
  sc.unit = shooter.id;
  sc.base = rs.stats(shooter.type).shoot;
  sc.terms = shooting_terms(s, shooter, target);
  sc.raw_shift = sum_of(sc.terms);
  sc.shift = rs.clamp_shift(sc.raw_shift);
  sc.hits = rs.shifted_hits(sc.base, sc.shift);
  return sc;
}

ev::Fight fight_of(const State& s, FightKind kind, const Unit& a, const Unit& b) {
  const Score sa = combat_score(s, a, b, kind, false);
  const Score sb = combat_score(s, b, a, kind, kind == FightKind::kCharge);
  ev::Fight f{.kind = kind,
              .a = a.id,
              .b = b.id,
              .base_a = sa.base,
              .shift_a = sa.shift,
              .hits_a = sa.hits,
              .base_b = sb.base,
              .shift_b = sb.shift,
              .hits_b = sb.hits,
              .loss_a = 0,
              .loss_b = 0};
  if (f.hits_a == f.hits_b) {
    if (kind == FightKind::kMelee) f.loss_a = f.loss_b = 1;
  } else if (f.hits_a > f.hits_b) {
    f.loss_b = f.hits_a - f.hits_b;
  } else {
    f.loss_a = f.hits_b - f.hits_a;
  }
  return f;
}

ev::Shot shot_of(const State& s, const Unit& shooter, const Unit& target, bool at_charger) {
  const Score sc = shooting_score(s, shooter, target);
  const int per = rules_of(s).missile_hits_per_interval;
  const int total = target.missile_hits + sc.hits;
  return ev::Shot{.shooter = shooter.id,
                  .target = target.id,
                  .at_charger = at_charger,
                  .base = sc.base,
                  .shift = sc.shift,
                  .hits = sc.hits,
                  .missile_before = target.missile_hits,
                  .missile_after = total % per,
                  .intervals = total / per};
}

std::vector<int> units_of(const State& s, Side side) {
  std::vector<int> out;
  for (const Unit& u : s.units) {
    if (u.side == side && u.on_board()) out.push_back(u.id);
  }
  return out;
}

namespace {

// ---- lookups with refusals --------------------------------------------------------------

std::optional<RuleError> own_unit(const Ctx& c, Side side, int id, const Unit*& out,
                                  const char* rule) {
  out = c.s.unit(id);
  if (out == nullptr)
    return fail(c, rule, [&] { return "there is no unit " + std::to_string(id); });
  if (out->side != side)
    return fail(c, rule, [&] { return "unit " + std::to_string(id) + " is not yours"; });
  return std::nullopt;
}

std::optional<RuleError> own_unit_on_board(const Ctx& c, Side side, int id, const Unit*& out,
                                           const char* rule) {
  if (auto e = own_unit(c, side, id, out, rule)) return e;
  if (out->routed)
    return fail(c, rule, [&] { return "unit " + std::to_string(id) + " has routed"; });
  if (!out->placed)
    return fail(c, rule, [&] { return "unit " + std::to_string(id) + " is not deployed"; });
  return std::nullopt;
}

std::optional<RuleError> own_leader(const Ctx& c, Side side, int id, const Leader*& out,
                                    const char* rule) {
  out = c.s.leader(id);
  if (out == nullptr)
    return fail(c, rule, [&] { return "there is no leader " + std::to_string(id); });
  if (out->side != side)
    return fail(c, rule, [&] { return "leader " + std::to_string(id) + " is not yours"; });
  if (out->status == LeaderStatus::kKilled)
    return fail(c, rule, [&] { return "leader " + std::to_string(id) + " has been killed"; });
  if (out->status == LeaderStatus::kGone)
    return fail(c, rule, [&] { return "leader " + std::to_string(id) + " has left the game"; });
  return std::nullopt;
}

std::optional<RuleError> in_phase(const Ctx& c, Side side, Phase want) {
  const State& s = c.s;
  if (s.phase == Phase::kOver) return fail(c, "optio.9.over", [&] { return "the game is over"; });
  if (s.phase != want) {
    return fail(c, "optio.2.sequence", [&] {
      return "this is the " + std::string(phase_name(s.phase)) + " phase, not the " +
             std::string(phase_name(want)) + " phase";
    });
  }
  if ((want == Phase::kMove || want == Phase::kDeployment) && s.active != side) {
    return fail(c, "optio.2.sequence", [&] {
      return "it is " + side_name(s.active) + "'s " + std::string(phase_name(want)) + " phase";
    });
  }
  return std::nullopt;
}

// ---- deployment ---------------------------------------------------------------------------

std::optional<RuleError> check(Ctx& c, Side side, const cmd::Deploy& d) {
  const State& s = c.s;
  if (auto e = in_phase(c, side, Phase::kDeployment)) return e;
  const Unit* u = nullptr;
  if (auto e = own_unit(c, side, d.unit, u, "optio.2.deployment")) return e;
  if (!s.on_board(d.at))
    return fail(c, "optio.2.deployment", [&] { return square_text(d.at) + " is off the board"; });
  if (!s.zones[static_cast<std::size_t>(index(side))].contains(d.at)) {
    return fail(c, "optio.2.deployment",
                [&] { return square_text(d.at) + " is outside your deployment zone"; });
  }
  const int there = c.board.at(d.at);
  if (there != 0 && there != u->id) {
    return fail(c, "optio.2.deployment", [&] { return square_text(d.at) + " is occupied"; });
  }
  const Terrain t = s.terrain_at(d.at);
  if (!may_enter(c.rs, *u, t)) {
    return fail(c, "optio.5.terrain", [&] {
      return std::string(unit_type_name(u->type)) + " may not stand in " +
             std::string(terrain_name(t));
    });
  }
  if (!valid_facing(d.facing)) {
    return fail(c, "optio.2.deployment",
                [&] { return "facing " + std::to_string(d.facing) + " is not 0..3"; });
  }
  if (d.formation == Formation::kColumn && !can_form_column(c.rs, *u)) {
    return fail(c, "optio.5.formation", [&] {
      return std::string(unit_type_name(u->type)) + (u->bases == 1 ? " of 1 base" : "") +
             " may not form column";
    });
  }
  return std::nullopt;
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::PlaceLeader& p) {
  const State& s = c.s;
  if (auto e = in_phase(c, side, Phase::kDeployment)) return e;
  const Leader* l = nullptr;
  if (auto e = own_leader(c, side, p.leader, l, "optio.2.deployment")) return e;
  const Unit* u = nullptr;
  if (auto e = own_unit_on_board(c, side, p.unit, u, "optio.3.leader")) return e;
  if (!may_stand_with(s, *l, *u)) {
    return fail(c, "optio.3.leader", [&] {
      return "leader " + std::to_string(l->id) + " leads command " + std::to_string(l->command) +
             "; unit " + std::to_string(u->id) + " is of command " + std::to_string(u->command);
    });
  }
  return std::nullopt;
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::EndDeployment&) {
  const State& s = c.s;
  if (auto e = in_phase(c, side, Phase::kDeployment)) return e;
  for (const Unit& u : s.units) {
    if (u.side == side && !u.placed) {
      return fail(c, "optio.2.deployment",
                  [&] { return "unit " + std::to_string(u.id) + " is not deployed yet"; });
    }
  }
  for (const Leader& l : s.leaders) {
    if (l.side == side && l.active() && l.unit == 0) {
      return fail(c, "optio.2.deployment",
                  [&] { return "leader " + std::to_string(l.id) + " is not placed yet"; });
    }
  }
  return std::nullopt;
}

// ---- orders cards ---------------------------------------------------------------------------

std::optional<RuleError> check(Ctx& c, Side side, const cmd::SubmitOrders& o) {
  const State& s = c.s;
  if (auto e = in_phase(c, side, Phase::kOrders)) return e;
  if (s.orders_submitted[static_cast<std::size_t>(index(side))]) {
    return fail(c, "optio.2.orders", [&] { return "your orders card is already in"; });
  }
  const char* rule = "optio.2.orders";
  for (std::size_t i = 0; i < o.paths.size(); ++i) {
    const OrdersPath& p = o.paths[i];
    const Leader* l = nullptr;
    if (auto e = own_leader(c, side, p.leader, l, rule)) return e;
    const auto who = [&] { return "leader " + std::to_string(l->id); };
    if (l->general)
      return fail(c, rule,
                  [&] { return who() + " is the general; the general has no orders path"; });
    for (std::size_t j = 0; j < i; ++j) {
      if (o.paths[j].leader == p.leader)
        return fail(c, rule, [&] { return "two paths for " + who(); });
    }
    if (p.squares.empty())
      return fail(c, rule, [&] { return "the path for " + who() + " is empty"; });
    if (static_cast<int>(p.squares.size()) > c.rs.max_path_squares) {
      return fail(c, rule, [&] {
        return "the path for " + who() + " has " + std::to_string(p.squares.size()) +
               " squares; at most " + std::to_string(c.rs.max_path_squares);
      });
    }
    const Square start = s.unit(l->unit)->pos;
    if (p.squares.front() != start) {
      return fail(c, rule, [&] {
        return "the path for " + who() + " starts at " + square_text(p.squares.front()) +
               "; he stands on " + square_text(start);
      });
    }
    for (std::size_t k = 0; k < p.squares.size(); ++k) {
      const Square q = p.squares[k];
      if (!s.on_board(q)) {
        return fail(c, rule, [&] {
          return "the path for " + who() + " leaves the board at " + square_text(q);
        });
      }
      if (k > 0 && !king_adjacent(p.squares[k - 1], q)) {
        return fail(c, rule, [&] {
          return "the path for " + who() + ": " + square_text(q) + " is not next to " +
                 square_text(p.squares[k - 1]);
        });
      }
    }
  }
  for (const Leader& l : s.leaders) {
    if (l.side != side || l.general || !l.active()) continue;
    const bool given = std::any_of(o.paths.begin(), o.paths.end(),
                                   [&](const OrdersPath& p) { return p.leader == l.id; });
    if (!given) {
      return fail(c, rule,
                  [&] { return "subcommander " + std::to_string(l.id) + " needs an orders path"; });
    }
  }
  return std::nullopt;
}

// ---- movement -------------------------------------------------------------------------------

std::optional<RuleError> may_move_now(Ctx& c, const Unit& u, const char* what) {
  if (u.moved_this_turn) {
    return fail(c, "optio.5.once",
                [&] { return unit_text(c.s, u) + " has already moved this turn"; });
  }
  if (!c.in_command(u) && u.moved_last_turn) {
    return fail(c, "optio.3.out_of_command", [&] {
      return unit_text(c.s, u) + " is out of command and moved last turn; it may not " + what +
             " in two turns running";
    });
  }
  return std::nullopt;
}

// Checks a subcommander's move to `to` against his orders. `carried`: his unit's advance
// moves him, not his own move. The message names only his own side's path.
std::optional<RuleError> orders_allow(const Ctx& c, const Leader& l, Square to, bool carried) {
  if (!bound_by_orders(l)) return std::nullopt;
  const int p = progress_after(l, to);
  const Square prog = l.path[static_cast<std::size_t>(p)];
  const int d = distance(to, prog);
  if (d <= l.range) return std::nullopt;
  return fail(c, "optio.4.orders", [&] {
    const std::string where = carried ? "the advance would carry subcommander " +
                                            std::to_string(l.id) + " to " + square_text(to) + ","
                                      : square_text(to) + " is";
    return "orders: " + where + " " + std::to_string(d) + " squares from your progress square " +
           square_text(prog) + "; range is " + std::to_string(l.range);
  });
}

// check(Advance) in the parts allowed_advances() makes one at a time. The unit's own: it may
// move now and is not in contact.
std::optional<RuleError> advance_unit(Ctx& c, const Unit& u) {
  if (auto e = may_move_now(c, u, "move")) return e;
  if (engaged(c.s, c.board, u)) {
    return fail(c, "optio.5.contact",
                [&] { return unit_text(c.s, u) + " is in contact; it fights in the melee phase"; });
  }
  return std::nullopt;
}

// Step i of an advance, taken from `at` facing `facing`, where the steps before it left u.
std::optional<RuleError> advance_step(const Ctx& c, const Unit& u, std::size_t i, Square at,
                                      int facing, const Step& step) {
  const State& s = c.s;
  if (!valid_facing(step.facing)) {
    return fail(c, "optio.5.advance",
                [&] { return "facing " + std::to_string(step.facing) + " is not 0..3"; });
  }
  if (step.facing != facing) {
    if (u.formation == Formation::kLine) {
      return fail(c, "optio.5.rotate",
                  [&] { return "a unit in line advances without turning; rotate it instead"; });
    }
    if (step.facing != turn(facing, 1) && step.facing != turn(facing, -1)) {
      return fail(c, "optio.5.rotate",
                  [&] { return "a column turns 90 degrees at most before each step"; });
    }
  }
  if (i > 0 && is_rough(s.terrain_at(at))) {
    return fail(c, "optio.5.terrain", [&] {
      return "entering " + std::string(terrain_name(s.terrain_at(at))) + " at " + square_text(at) +
             " ends the move";
    });
  }
  if (!is_forward_step(at, step.facing, step.to)) {
    return fail(c, "optio.5.advance", [&] {
      return square_text(step.to) + " is not straight or diagonally ahead of " + square_text(at);
    });
  }
  if (!s.on_board(step.to)) {
    return fail(c, "optio.5.advance", [&] { return square_text(step.to) + " is off the board"; });
  }
  const Terrain t = s.terrain_at(step.to);
  if (!may_enter(c.rs, u, t)) {
    return fail(c, "optio.5.terrain", [&] {
      return std::string(c.rs.stats(u.type).name) + " may not enter " +
             std::string(terrain_name(t)) + " at " + square_text(step.to);
    });
  }
  if (!c.board.empty(step.to)) {
    return fail(c, "optio.5.advance", [&] { return square_text(step.to) + " is occupied"; });
  }
  return std::nullopt;
}

// Where the steps end: command, a charge, the orders of the leaders the advance carries
// (`carried`: leaders_with(u), which the walk of many paths works out once).
std::optional<RuleError> advance_end(Ctx& c, Side side, const Unit& u,
                                     const std::vector<Step>& steps,
                                     const std::vector<int>& carried) {
  const State& s = c.s;
  const Square at = steps.back().to;
  const bool in_cmd = c.in_command(u);
  if (!in_cmd && steps.size() > 1) {
    return fail(c, "optio.3.out_of_command", [&] {
      return unit_text(s, u) + " is out of command; it may move only one square";
    });
  }
  const int ahead_id = c.board.at(ahead(at, steps.back().facing));
  const bool charge = ahead_id != 0 && s.unit(ahead_id)->side != side;
  if (charge && !in_cmd) {
    return fail(c, "optio.3.out_of_command",
                [&] { return unit_text(s, u) + " is out of command; it may not charge"; });
  }
  for (int lid : carried) {
    if (auto e = orders_allow(c, *s.leader(lid), at, true)) {
      return e;
    }
  }
  return std::nullopt;
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::Advance& a) {
  if (auto e = in_phase(c, side, Phase::kMove)) return e;
  const Unit* u = nullptr;
  if (auto e = own_unit_on_board(c, side, a.unit, u, "optio.5.advance")) return e;
  const UnitStats& st = c.rs.stats(u->type);
  if (a.steps.empty())
    return fail(c, "optio.5.advance", [&] { return "an advance needs at least one square"; });
  if (static_cast<int>(a.steps.size()) > st.move) {
    return fail(c, "optio.5.advance", [&] {
      return std::string(st.name) + " advance " + std::to_string(st.move) +
             (st.move == 1 ? " square" : " squares") + "; that path is " +
             std::to_string(a.steps.size());
    });
  }
  if (auto e = advance_unit(c, *u)) return e;
  Square at = u->pos;
  int facing = u->facing;
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    if (auto e = advance_step(c, *u, i, at, facing, a.steps[i])) return e;
    at = a.steps[i].to;
    facing = a.steps[i].facing;
  }
  return advance_end(c, side, *u, a.steps, leaders_with(c.s, u->id));
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::Rotate& r) {
  if (auto e = in_phase(c, side, Phase::kMove)) return e;
  const Unit* u = nullptr;
  if (auto e = own_unit_on_board(c, side, r.unit, u, "optio.5.rotate")) return e;
  if (r.facing != turn(u->facing, 1) && r.facing != turn(u->facing, -1)) {
    return fail(c, "optio.5.rotate", [&] {
      return "a unit rotates 90 degrees: from facing " + std::to_string(u->facing) + " to " +
             std::to_string(turn(u->facing, -1)) + " or " + std::to_string(turn(u->facing, 1));
    });
  }
  return may_move_now(c, *u, "move");
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::ChangeFormation& f) {
  if (auto e = in_phase(c, side, Phase::kMove)) return e;
  const Unit* u = nullptr;
  if (auto e = own_unit_on_board(c, side, f.unit, u, "optio.5.formation")) return e;
  if (u->formation == Formation::kLine && !can_form_column(c.rs, *u)) {
    return fail(c, "optio.5.formation", [&] {
      return std::string(unit_type_name(u->type)) + (u->bases == 1 ? " of 1 base" : "") +
             " may not form column";
    });
  }
  return may_move_now(c, *u, "move");
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::Shoot& sh) {
  const State& s = c.s;
  if (auto e = in_phase(c, side, Phase::kMove)) return e;
  const Unit* u = nullptr;
  if (auto e = own_unit_on_board(c, side, sh.unit, u, "optio.7.shoot")) return e;
  const UnitStats& st = c.rs.stats(u->type);
  if (st.shoot == 0)
    return fail(c, "optio.7.shoot", [&] { return std::string(st.name) + " do not shoot"; });
  if (u->shot_this_phase)
    return fail(c, "optio.7.shoot",
                [&] { return unit_text(s, *u) + " has already shot this phase"; });
  if (u->charged_this_phase)
    return fail(c, "optio.7.shoot",
                [&] { return unit_text(s, *u) + " charged; it may not shoot after a charge"; });
  if (engaged(s, c.board, *u))
    return fail(c, "optio.7.shoot",
                [&] { return unit_text(s, *u) + " is in contact and may not shoot"; });
  const Unit* t = s.unit(sh.target);
  if (t == nullptr || !t->on_board()) {
    return fail(c, "optio.7.shoot",
                [&] { return "there is no unit " + std::to_string(sh.target) + " on the board"; });
  }
  if (t->side == side)
    return fail(c, "optio.7.shoot",
                [&] { return "unit " + std::to_string(t->id) + " is your own"; });
  if (!in_arc(u->pos, u->facing, st.range, t->pos)) {
    return fail(c, "optio.7.shoot", [&] {
      return square_text(t->pos) + " is not within " + std::string(st.name) + " range " +
             std::to_string(st.range) + " straight or diagonally ahead";
    });
  }
  return std::nullopt;
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::MoveLeader& m) {
  const State& s = c.s;
  if (auto e = in_phase(c, side, Phase::kMove)) return e;
  const Leader* l = nullptr;
  if (auto e = own_leader(c, side, m.leader, l, "optio.3.leader")) return e;
  if (l->moved_this_phase)
    return fail(c, "optio.3.leader", [&] {
      return "leader " + std::to_string(l->id) + " has already moved this phase";
    });
  const Unit* u = nullptr;
  if (auto e = own_unit_on_board(c, side, m.unit, u, "optio.3.leader")) return e;
  if (u->id == l->unit)
    return fail(c, "optio.3.leader", [&] {
      return "leader " + std::to_string(l->id) + " is already with unit " + std::to_string(u->id);
    });
  if (!may_stand_with(s, *l, *u)) {
    return fail(c, "optio.3.leader", [&] {
      return "leader " + std::to_string(l->id) + " must end with a unit of command " +
             std::to_string(l->command) + "; unit " + std::to_string(u->id) + " is of command " +
             std::to_string(u->command);
    });
  }
  const Square from = s.unit(l->unit)->pos;
  const int d = distance(from, u->pos);
  if (d > c.rs.leader_move) {
    return fail(c, "optio.3.leader", [&] {
      return "a leader moves " + std::to_string(c.rs.leader_move) + " squares; " +
             square_text(u->pos) + " is " + std::to_string(d) + " from " + square_text(from);
    });
  }
  return orders_allow(c, *l, u->pos, false);
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::AbandonOrders& a) {
  const State& s = c.s;
  if (auto e = in_phase(c, side, Phase::kMove)) return e;
  const Leader* l = nullptr;
  if (auto e = own_leader(c, side, a.leader, l, "optio.4.abandon")) return e;
  if (l->general)
    return fail(c, "optio.4.abandon", [&] { return "the general has no orders to abandon"; });
  if (l->abandoned)
    return fail(c, "optio.4.abandon", [&] {
      return "leader " + std::to_string(l->id) + " has already abandoned his orders";
    });
  for (int id : chain(s, c.board, *l)) {
    const Unit* u = s.unit(id);
    for (const Unit& v : s.units) {
      if (v.on_board() && v.side != side && king_adjacent(u->pos, v.pos)) return std::nullopt;
    }
  }
  return fail(c, "optio.4.abandon", [&] {
    return "orders may be abandoned only once a unit leader " + std::to_string(l->id) +
           " puts in command is next to an enemy unit";
  });
}

std::optional<RuleError> check(Ctx& c, Side side, const cmd::EndPhase&) {
  return in_phase(c, side, Phase::kMove);
}

}  // namespace

std::optional<RuleError> validate(Ctx& ctx, Side side, const Command& c) {
  ctx.wording_ = true;
  return std::visit([&](const auto& x) { return check(ctx, side, x); }, c);
}

bool allowed(Ctx& ctx, Side side, const Command& c) {
  ctx.wording_ = false;
  return !std::visit([&](const auto& x) { return check(ctx, side, x); }, c);
}

std::vector<std::vector<Step>> allowed_advances(Ctx& ctx, Side side, const Unit& u) {
  ctx.wording_ = false;
  std::vector<std::vector<Step>> out;
  const Unit* own = nullptr;
  if (in_phase(ctx, side, Phase::kMove) ||
      own_unit_on_board(ctx, side, u.id, own, "optio.5.advance") || advance_unit(ctx, *own)) {
    return out;
  }
  const std::vector<int> carried = leaders_with(ctx.s, own->id);
  advance_paths(*own, ctx.rs.stats(own->type).move, [&](const std::vector<Step>& path) {
    const std::size_t i = path.size() - 1;
    const Square at = i == 0 ? own->pos : path[i - 1].to;
    const int facing = i == 0 ? own->facing : path[i - 1].facing;
    if (advance_step(ctx, *own, i, at, facing, path[i])) return false;
    if (!advance_end(ctx, side, *own, path, carried)) out.push_back(path);
    return true;
  });
  return out;
}

std::optional<RuleError> validate(const State& s, Side side, const Command& c) {
  Ctx ctx(s);
  return validate(ctx, side, c);
}

}  // namespace castra::rules::optio::detail
