// Optio's state functions: the initial state from a scenario, apply(), visibility and
// projection, canonical bytes and the invariant check (events in words: describe.cpp).
#include "common/rules/optio/game.hpp"

#include <algorithm>
#include <set>

#include "common/rules/optio/internal.hpp"

namespace castra::rules::optio {

// ---- State lookups --------------------------------------------------------------------------

namespace {
template <typename V>
auto* find_id(V& v, int id) {
  auto it =
      std::lower_bound(v.begin(), v.end(), id, [](const auto& x, int want) { return x.id < want; });
  return it != v.end() && it->id == id ? &*it : nullptr;
}
}  // namespace

const Unit* State::unit(int id) const {
  return find_id(units, id);
}
Unit* State::unit(int id) {
  return find_id(units, id);
}
const Leader* State::leader(int id) const {
  return find_id(leaders, id);
}
Leader* State::leader(int id) {
  return find_id(leaders, id);
}
const Unit* State::unit_at(Square s) const {
  for (const Unit& u : units) {
    if (u.on_board() && u.pos == s) return &u;
  }
  return nullptr;
}

// ---- Words ----------------------------------------------------------------------------------

std::string square_text(Square s) {
  return "(" + std::to_string(s.col) + "," + std::to_string(s.row) + ")";
}

std::string_view unit_type_name(UnitType t) {
  return find_ruleset(kCurrentVersion)->stats(t).name;
}

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::kDeployment:
      return "deployment";
    case Phase::kOrders:
      return "orders";
    case Phase::kMove:
      return "move";
    case Phase::kMelee:
      return "melee";
    case Phase::kOver:
      return "over";
  }
  return "?";
}

// ---- Initial state --------------------------------------------------------------------------

namespace {

RuleError bad(std::string message) {
  return refuse("optio.scenario", std::move(message));
}

// A unit that starts disordered or with missile hits (a campaign's army arrives as its last
// battle left it) starts as the rules could have left it: a disorder count its drill's
// recovery could still show (section 8), fewer missile hits than cost an interval (7).
std::optional<RuleError> starting_condition(const ScenarioUnit& su, const Ruleset& rs, Unit& u) {
  const std::string who = "unit " + std::to_string(su.id) + ": ";
  const Drill drill = rs.stats(su.type).drill;
  const int recovery = rs.disorder_turns(drill);
  if (!su.disordered && su.disorder_turns != 0) {
    return refuse("optio.8.disorder", who + "disorder_turns " + std::to_string(su.disorder_turns) +
                                          " is given but the unit is not disordered");
  }
  if (su.disordered && (su.disorder_turns < 0 || su.disorder_turns > recovery)) {
    const std::string n = std::to_string(recovery);
    return refuse("optio.8.disorder", who + std::string(drill_name(drill)) +
                                          " units recover from disorder after " + n +
                                          (recovery == 1 ? " end of turn" : " ends of turn") +
                                          "; disorder_turns must be 1 to " + n + ", or 0 for all " +
                                          n + ", not " + std::to_string(su.disorder_turns));
  }
  const int per = rs.missile_hits_per_interval;
  if (su.missile_hits < 0 || su.missile_hits >= per) {
    return refuse("optio.7.missile_hits", who + "missile hits " + std::to_string(su.missile_hits) +
                                              " must be 0 to " + std::to_string(per - 1) +
                                              "; each " + std::to_string(per) +
                                              " hits cost an interval and the count starts again");
  }
  u.disordered = su.disordered;
  u.disorder_turns = su.disordered ? (su.disorder_turns == 0 ? recovery : su.disorder_turns) : 0;
  u.missile_hits = su.missile_hits;
  return std::nullopt;
}

}  // namespace

Checked<State> Game::initial_state(const Scenario& sc, const Ruleset& rs) {
  State s;
  s.version = std::string(rs.version);
  s.cols = sc.cols == 0 ? rs.default_cols : sc.cols;
  s.rows = sc.rows == 0 ? rs.default_rows : sc.rows;
  if (s.cols < 2 || s.rows < 2 || s.cols > rs.max_board_side || s.rows > rs.max_board_side) {
    return bad("the board must be 2.." + std::to_string(rs.max_board_side) + " squares a side");
  }
  s.terrain.assign(static_cast<std::size_t>(s.cols * s.rows), Terrain::kOpen);
  for (const TerrainSquare& t : sc.terrain) {
    if (!s.on_board(t.at)) return bad("terrain at " + square_text(t.at) + " is off the board");
    s.terrain[static_cast<std::size_t>((t.at.row - 1) * s.cols + (t.at.col - 1))] = t.terrain;
  }
  s.first_side = sc.first_side;
  s.deployment = sc.deployment;
  s.first_deployer = sc.first_deployer;
  s.turn_limit = sc.turn_limit == 0 ? rs.default_turn_limit : sc.turn_limit;
  if (s.turn_limit < 1) return bad("the turn limit must be at least 1");
  const int depth = std::min(rs.default_zone_rows, s.rows / 2);
  s.zones[0] = sc.zones[0].value_or(Zone{1, s.cols, 1, depth});
  s.zones[1] = sc.zones[1].value_or(Zone{1, s.cols, s.rows - depth + 1, s.rows});
  for (const Zone& z : s.zones) {
    if (!s.on_board({z.min_col, z.min_row}) || !s.on_board({z.max_col, z.max_row}) ||
        z.min_col > z.max_col || z.min_row > z.max_row) {
      return bad("a deployment zone is not a rectangle on the board");
    }
  }
  const bool fixed = sc.deployment == DeploymentMode::kFixed;

  // Leaders first: every unit's command must have one.
  std::set<int> commands;
  std::array<int, 2> generals{};
  for (const ScenarioLeader& sl : sc.leaders) {
    if (sl.id < 1 || sl.id > rs.max_id)
      return bad("leader ids are 1.." + std::to_string(rs.max_id));
    if (std::any_of(s.leaders.begin(), s.leaders.end(),
                    [&](const Leader& l) { return l.id == sl.id; })) {
      return bad("leader " + std::to_string(sl.id) + " is listed twice");
    }
    if (sl.command < 1 || sl.command > rs.max_id)
      return bad("command ids are 1.." + std::to_string(rs.max_id));
    if (!commands.insert(sl.command).second) {
      return bad("command " + std::to_string(sl.command) + " has two leaders");
    }
    if (sl.range < 0) return bad("leader " + std::to_string(sl.id) + " has a negative range");
    if (sl.general) ++generals[static_cast<std::size_t>(index(sl.side))];
    Leader l;
    l.id = sl.id;
    l.side = sl.side;
    l.general = sl.general;
    l.command = sl.command;
    l.unit = fixed ? sl.unit : 0;
    l.range = sl.range == 0 ? rs.default_range : sl.range;
    s.leaders.push_back(l);
  }
  if (generals[0] != 1 || generals[1] != 1) return bad("each side needs exactly one general");
  std::sort(s.leaders.begin(), s.leaders.end(), [](auto& a, auto& b) { return a.id < b.id; });

  for (const ScenarioUnit& su : sc.units) {
    if (su.id < 1 || su.id > rs.max_id) return bad("unit ids are 1.." + std::to_string(rs.max_id));
    if (std::any_of(s.units.begin(), s.units.end(), [&](const Unit& u) { return u.id == su.id; })) {
      return bad("unit " + std::to_string(su.id) + " is listed twice");
    }
    if (static_cast<int>(su.type) >= kUnitTypes) {
      return bad("unit " + std::to_string(su.id) + " has no known type");
    }
    if (su.bases != 1 && su.bases != 2 && su.bases != 4) {
      return bad("unit " + std::to_string(su.id) + ": a unit is 1, 2 or 4 bases");
    }
    const auto leader_of = std::find_if(s.leaders.begin(), s.leaders.end(),
                                        [&](const Leader& l) { return l.command == su.command; });
    if (leader_of == s.leaders.end() || leader_of->side != su.side) {
      return bad("unit " + std::to_string(su.id) + ": command " + std::to_string(su.command) +
                 " has no leader of its side");
    }
    const UnitStats& st = rs.stats(su.type);
    Unit u;
    u.id = su.id;
    u.side = su.side;
    u.type = su.type;
    u.bases = su.bases;
    u.command = su.command;
    u.start_morale = su.morale == 0 ? st.firm + st.shaken : su.morale;
    if (u.start_morale < 1 || u.start_morale > st.firm + st.shaken) {
      return bad("unit " + std::to_string(su.id) + ": morale must be 1.." +
                 std::to_string(st.firm + st.shaken));
    }
    u.morale = u.start_morale;
    if (auto e = starting_condition(su, rs, u)) return *e;
    if (fixed) {
      if (!su.at) return bad("unit " + std::to_string(su.id) + " has no square");
      u.placed = true;
      u.pos = *su.at;
      u.facing = su.facing;
      u.formation = su.formation;
      if (!s.on_board(u.pos)) return bad("unit " + std::to_string(su.id) + " is off the board");
      if (!valid_facing(u.facing)) return bad("unit " + std::to_string(su.id) + ": facing is 0..3");
      if (!detail::may_enter(rs, u, s.terrain_at(u.pos))) {
        return bad("unit " + std::to_string(su.id) + " may not stand in " +
                   std::string(terrain_name(s.terrain_at(u.pos))));
      }
      if (u.formation == Formation::kColumn && !detail::can_form_column(rs, u)) {
        return bad("unit " + std::to_string(su.id) + " may not be in column");
      }
      if (s.unit_at(u.pos) != nullptr) return bad("two units on " + square_text(u.pos));
    }
    s.units.push_back(u);
    ++s.start_units[static_cast<std::size_t>(index(u.side))];
  }
  std::sort(s.units.begin(), s.units.end(), [](auto& a, auto& b) { return a.id < b.id; });
  if (s.start_units[0] == 0 || s.start_units[1] == 0) return bad("each side needs a unit");
  if (fixed) {
    for (const Leader& l : s.leaders) {
      const Unit* u = s.unit(l.unit);
      if (u == nullptr || u->side != l.side || u->command != l.command) {
        return bad("leader " + std::to_string(l.id) + " must start with a unit of command " +
                   std::to_string(l.command));
      }
    }
    s.deployed = {true, true};
    s.phase = Phase::kOrders;
  } else {
    s.phase = Phase::kDeployment;
    s.active = sc.first_deployer;
  }
  return s;
}

std::vector<Event> Game::begin(const State&, Dice&) {
  return {};
}

// ---- apply ----------------------------------------------------------------------------------

namespace {

struct Applier {
  State& s;
  void operator()(const ev::UnitDeployed& e) {
    Unit& u = *s.unit(e.unit);
    u.placed = true;
    u.pos = e.at;
    u.facing = e.facing;
    u.formation = e.formation;
  }
  void operator()(const ev::LeaderPlaced& e) { s.leader(e.leader)->unit = e.unit; }
  void operator()(const ev::DeploymentEnded& e) {
    s.deployed[static_cast<std::size_t>(index(e.side))] = true;
  }
  void operator()(const ev::OrdersSubmitted& e) {
    s.orders_submitted[static_cast<std::size_t>(index(e.side))] = true;
  }
  void operator()(const ev::OrdersCard& e) {
    for (const OrdersPath& p : e.paths) {
      Leader& l = *s.leader(p.leader);
      l.path = p.squares;
      l.progress = 0;
    }
  }
  void operator()(const ev::PhaseStarted& e) {
    s.phase = e.phase;
    s.turn = e.turn;
    s.active = e.side;
    for (Unit& u : s.units) {
      u.shot_this_phase = false;
      u.charged_this_phase = false;
    }
    for (Leader& l : s.leaders)
      l.moved_this_phase = false;
  }
  void operator()(const ev::Advanced& e) {
    Unit& u = *s.unit(e.unit);
    u.pos = e.steps.back().to;
    u.facing = e.steps.back().facing;
    u.moved_this_turn = true;
    if (e.disordered) {
      u.disordered = true;
      u.disorder_turns = e.disorder_turns;
    }
    if (e.charge_target != 0) u.charged_this_phase = true;
  }
  void operator()(const ev::Rotated& e) {
    Unit& u = *s.unit(e.unit);
    u.facing = e.facing;
    u.moved_this_turn = true;
    if (e.disordered) {
      u.disordered = true;
      u.disorder_turns = e.disorder_turns;
    }
  }
  void operator()(const ev::FormationChanged& e) {
    Unit& u = *s.unit(e.unit);
    u.formation = e.formation;
    u.moved_this_turn = true;
  }
  void operator()(const ev::Shot& e) {
    s.unit(e.target)->missile_hits = e.missile_after;
    if (!e.at_charger) s.unit(e.shooter)->shot_this_phase = true;
  }
  void operator()(const ev::Fight&) {}
  void operator()(const ev::MoraleChanged& e) { s.unit(e.unit)->morale = e.to; }
  void operator()(const ev::Routed& e) {
    Unit& u = *s.unit(e.unit);
    u.routed = true;
    u.morale = 0;
    u.disordered = false;
    u.disorder_turns = 0;
    u.missile_hits = 0;
    ++s.routed[static_cast<std::size_t>(index(e.side))];
    for (const LeaderRelocation& r : e.leaders) {
      Leader& l = *s.leader(r.leader);
      l.unit = r.to_unit;
      if (r.to_unit == 0) l.status = LeaderStatus::kGone;
    }
  }
  void operator()(const ev::LeaderMoved& e) {
    Leader& l = *s.leader(e.leader);
    l.unit = e.to_unit;
    l.moved_this_phase = true;
  }
  void operator()(const ev::LeaderRoll& e) {
    Leader& l = *s.leader(e.leader);
    if (e.fate == LeaderFate::kUnharmed) return;
    l.wounded = true;
    if (e.fate == LeaderFate::kKilled) {
      l.status = LeaderStatus::kKilled;
      l.unit = 0;
    }
  }
  void operator()(const ev::Progress& e) { s.leader(e.leader)->progress = e.index; }
  void operator()(const ev::OrdersAbandoned& e) { s.leader(e.leader)->abandoned = true; }
  void operator()(const ev::DisorderRecovered& e) {
    Unit& u = *s.unit(e.unit);
    u.disordered = false;
    u.disorder_turns = 0;
  }
  void operator()(const ev::TurnEnded&) {
    for (Unit& u : s.units) {
      if (u.disordered) --u.disorder_turns;
      u.moved_last_turn = u.moved_this_turn;
      u.moved_this_turn = false;
    }
  }
  void operator()(const ev::GameEnded& e) {
    s.phase = Phase::kOver;
    s.outcome = e.outcome;
  }
};

}  // namespace

void Game::apply(State& s, const Event& e) {
  std::visit(Applier{s}, e);
}

// ---- visibility, projection ------------------------------------------------------------------

Visibility Game::visibility(const Event& e) {
  if (const auto* c = std::get_if<ev::OrdersCard>(&e)) return Visibility::sealed(c->side);
  if (const auto* p = std::get_if<ev::Progress>(&e)) return Visibility::only(p->side);
  return Visibility::everyone();
}

std::string orders_card_bytes(Side side, const std::vector<OrdersPath>& paths) {
  ByteWriter w;
  w.tag('O');
  w.u8(static_cast<std::uint8_t>(index(side)));
  w.u8(static_cast<std::uint8_t>(paths.size()));
  for (const OrdersPath& p : paths) {
    w.u8(static_cast<std::uint8_t>(p.leader));
    w.u8(static_cast<std::uint8_t>(p.squares.size()));
    for (const Square& q : p.squares) {
      w.u8(static_cast<std::uint8_t>(q.col));
      w.u8(static_cast<std::uint8_t>(q.row));
    }
  }
  return w.take();
}

std::string Game::sealed_bytes(const Event& e) {
  if (const auto* c = std::get_if<ev::OrdersCard>(&e)) return orders_card_bytes(c->side, c->paths);
  return {};
}

State Game::project(const State& s, Viewer v) {
  State out = s;
  for (Leader& l : out.leaders) {
    if (v == Viewer::kEveryone || v == viewer_of(l.side)) continue;
    l.path.clear();
    l.progress = 0;
  }
  return out;
}

// ---- acting, outcome ----------------------------------------------------------------------------

Acting Game::acting(const State& s) {
  Acting a;
  a.phase = std::string(phase_name(s.phase));
  a.turn = s.turn;
  switch (s.phase) {
    case Phase::kDeployment:
    case Phase::kMove:
      a.a = s.active == Side::kA;
      a.b = s.active == Side::kB;
      break;
    case Phase::kOrders:
      a.a = !s.orders_submitted[0];
      a.b = !s.orders_submitted[1];
      break;
    case Phase::kMelee:
    case Phase::kOver:
      break;
  }
  return a;
}

std::optional<Outcome> Game::outcome(const State& s) {
  return s.outcome;
}

// ---- canonical bytes ----------------------------------------------------------------------------

void Game::encode(const State& s, ByteWriter& w) {
  const auto sq = [&](Square q) {
    w.u8(static_cast<std::uint8_t>(q.col));
    w.u8(static_cast<std::uint8_t>(q.row));
  };
  w.tag('S');
  w.str(s.version);
  w.u8(static_cast<std::uint8_t>(s.cols));
  w.u8(static_cast<std::uint8_t>(s.rows));
  for (Terrain t : s.terrain)
    w.u8(static_cast<std::uint8_t>(t));
  w.u8(static_cast<std::uint8_t>(index(s.first_side)));
  w.u8(static_cast<std::uint8_t>(s.deployment));
  w.u8(static_cast<std::uint8_t>(index(s.first_deployer)));
  for (const Zone& z : s.zones) {
    sq({z.min_col, z.min_row});
    sq({z.max_col, z.max_row});
  }
  w.u16(static_cast<std::uint16_t>(s.turn_limit));
  w.u16(static_cast<std::uint16_t>(s.turn));
  w.u8(static_cast<std::uint8_t>(s.phase));
  w.u8(static_cast<std::uint8_t>(index(s.active)));
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    w.boolean(s.deployed[k]);
    w.boolean(s.orders_submitted[k]);
    w.u16(static_cast<std::uint16_t>(s.start_units[k]));
    w.u16(static_cast<std::uint16_t>(s.routed[k]));
  }
  w.boolean(s.outcome.has_value());
  if (s.outcome) {
    w.u8(static_cast<std::uint8_t>(s.outcome->kind));
    w.str(s.outcome->reason);
  }
  w.u16(static_cast<std::uint16_t>(s.units.size()));
  for (const Unit& u : s.units) {
    w.tag('U');
    w.u8(static_cast<std::uint8_t>(u.id));
    w.u8(static_cast<std::uint8_t>(index(u.side)));
    w.u8(static_cast<std::uint8_t>(u.type));
    w.u8(static_cast<std::uint8_t>(u.bases));
    w.u8(static_cast<std::uint8_t>(u.command));
    w.boolean(u.placed);
    w.boolean(u.routed);
    sq(u.pos);
    w.u8(static_cast<std::uint8_t>(u.facing));
    w.u8(static_cast<std::uint8_t>(u.formation));
    w.u8(static_cast<std::uint8_t>(u.morale));
    w.u8(static_cast<std::uint8_t>(u.start_morale));
    w.boolean(u.disordered);
    w.u8(static_cast<std::uint8_t>(u.disorder_turns));
    w.u8(static_cast<std::uint8_t>(u.missile_hits));
    w.boolean(u.moved_this_turn);
    w.boolean(u.moved_last_turn);
    w.boolean(u.shot_this_phase);
    w.boolean(u.charged_this_phase);
  }
  w.u16(static_cast<std::uint16_t>(s.leaders.size()));
  for (const Leader& l : s.leaders) {
    w.tag('L');
    w.u8(static_cast<std::uint8_t>(l.id));
    w.u8(static_cast<std::uint8_t>(index(l.side)));
    w.boolean(l.general);
    w.u8(static_cast<std::uint8_t>(l.command));
    w.u8(static_cast<std::uint8_t>(l.unit));
    w.u8(static_cast<std::uint8_t>(l.status));
    w.boolean(l.wounded);
    w.u8(static_cast<std::uint8_t>(l.range));
    w.u8(static_cast<std::uint8_t>(l.path.size()));
    for (const Square& q : l.path)
      sq(q);
    w.u8(static_cast<std::uint8_t>(l.progress));
    w.boolean(l.abandoned);
    w.boolean(l.moved_this_phase);
  }
}

// ---- check ------------------------------------------------------------------------------------

std::optional<std::string> Game::check(const State& s) {
  const Ruleset* rsp = find_ruleset(s.version);
  if (rsp == nullptr) return "unknown rules version " + s.version;
  const Ruleset& rs = *rsp;
  const auto fail = [](std::string m) { return std::optional<std::string>(std::move(m)); };
  if (s.terrain.size() != static_cast<std::size_t>(s.cols * s.rows)) return fail("terrain size");
  if (s.phase == Phase::kOver) {
    if (!s.outcome) return fail("game over without an outcome");
  } else if (s.outcome) {
    return fail("an outcome while the game goes on");
  }
  if ((s.phase == Phase::kMove || s.phase == Phase::kMelee) &&
      (s.turn < 1 || s.turn > s.turn_limit)) {
    return fail("turn " + std::to_string(s.turn) + " outside 1.." + std::to_string(s.turn_limit));
  }
  if (s.phase != Phase::kDeployment && !(s.deployed[0] && s.deployed[1])) {
    return fail("past deployment with a side not deployed");
  }
  if ((s.phase == Phase::kMove || s.phase == Phase::kMelee) &&
      !(s.orders_submitted[0] && s.orders_submitted[1])) {
    return fail("moving before both orders cards are in");
  }
  std::array<int, 2> routed{};
  std::array<int, 2> total{};
  std::vector<bool> taken(s.terrain.size(), false);  // by square, row-major as the terrain
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    const std::string who = "unit " + std::to_string(u.id) + ": ";
    if (i > 0 && s.units[i - 1].id >= u.id) return fail("units not in ascending id order");
    ++total[static_cast<std::size_t>(index(u.side))];
    if (u.routed) {
      ++routed[static_cast<std::size_t>(index(u.side))];
      if (u.morale != 0) return fail(who + "routed with morale");
      continue;
    }
    if (u.bases != 1 && u.bases != 2 && u.bases != 4) return fail(who + "bases");
    const UnitStats& st = rs.stats(u.type);
    if (u.start_morale < 1 || u.start_morale > st.firm + st.shaken)
      return fail(who + "start morale");
    if (u.morale < 1 || u.morale > u.start_morale) {
      return fail(who + "morale " + std::to_string(u.morale) + " on the board");
    }
    if (u.missile_hits < 0 || u.missile_hits >= rs.missile_hits_per_interval)
      return fail(who + "missile hits");
    if (u.disordered != (u.disorder_turns > 0) || u.disorder_turns > rs.disorder_turns(st.drill)) {
      return fail(who + "disorder count");
    }
    if (u.formation == Formation::kColumn && !detail::can_form_column(rs, u))
      return fail(who + "column");
    if (!u.placed) {
      if (s.deployed[static_cast<std::size_t>(index(u.side))]) return fail(who + "not placed");
      continue;
    }
    if (!s.on_board(u.pos)) return fail(who + "off the board");
    if (!valid_facing(u.facing)) return fail(who + "facing");
    if (!detail::may_enter(rs, u, s.terrain_at(u.pos))) return fail(who + "on forbidden terrain");
    const auto at = static_cast<std::size_t>((u.pos.row - 1) * s.cols + (u.pos.col - 1));
    if (taken[at]) return fail("two units on " + square_text(u.pos));
    taken[at] = true;
    if (s.phase != Phase::kMove && (u.shot_this_phase || u.charged_this_phase) &&
        s.phase != Phase::kOver) {
      return fail(who + "phase flags outside a move phase");
    }
  }
  if (routed != s.routed) return fail("routed counts");
  if (total != s.start_units) return fail("starting unit counts");
  for (std::size_t i = 0; i < s.leaders.size(); ++i) {
    const Leader& l = s.leaders[i];
    const std::string who = "leader " + std::to_string(l.id) + ": ";
    if (i > 0 && s.leaders[i - 1].id >= l.id) return fail("leaders not in ascending id order");
    if (l.progress < 0 ||
        (l.path.empty() ? l.progress != 0 : l.progress >= static_cast<int>(l.path.size()))) {
      return fail(who + "progress outside his path");
    }
    for (std::size_t k = 0; k < l.path.size(); ++k) {
      if (!s.on_board(l.path[k])) return fail(who + "path off the board");
      if (k > 0 && !king_adjacent(l.path[k - 1], l.path[k])) return fail(who + "path not a chain");
    }
    if (l.general && !l.path.empty()) return fail(who + "a general with a path");
    if (!l.active()) {
      if (l.unit != 0) return fail(who + "out of the game but with a unit");
      continue;
    }
    if (l.unit == 0) {
      if (s.deployed[static_cast<std::size_t>(index(l.side))]) return fail(who + "not placed");
      continue;
    }
    const Unit* u = s.unit(l.unit);
    if (u == nullptr || !u->on_board()) return fail(who + "with a unit not on the board");
    if (!detail::may_stand_with(s, l, *u)) return fail(who + "with a unit he may not lead");
  }
  return std::nullopt;
}

}  // namespace castra::rules::optio
