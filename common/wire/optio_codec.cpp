#include "common/wire/optio_codec.hpp"

#include <google/protobuf/util/json_util.h>

#include "proto/castra/v1/match.pb.h"

namespace castra::wire::optio {
namespace {

using castra::rules::Outcome;
using castra::rules::RuleError;
using castra::rules::Side;

RuleError bad(std::string message) {
  return castra::rules::refuse("wire.optio", std::move(message));
}

dom::Square sq(const castra::v1::Coord& c) {
  return {c.col(), c.row()};
}
void put(castra::v1::Coord* c, dom::Square s) {
  c->set_col(s.col);
  c->set_row(s.row);
}

dom::Step step(const pb::Step& s) {
  return {{s.col(), s.row()}, s.facing()};
}
void put(pb::Step* p, const dom::Step& s) {
  p->set_col(s.to.col);
  p->set_row(s.to.row);
  p->set_facing(s.facing);
}

std::vector<dom::Step> steps(const google::protobuf::RepeatedPtrField<pb::Step>& r) {
  std::vector<dom::Step> out;
  for (const pb::Step& s : r)
    out.push_back(step(s));
  return out;
}

dom::OrdersPath path(const pb::OrdersPath& p) {
  dom::OrdersPath out{p.leader(), {}};
  for (const auto& c : p.squares())
    out.squares.push_back(sq(c));
  return out;
}
void put(pb::OrdersPath* m, const dom::OrdersPath& p) {
  m->set_leader(p.leader);
  for (const dom::Square& s : p.squares)
    put(m->add_squares(), s);
}

dom::Formation formation(pb::Formation f) {
  return f == pb::FORMATION_COLUMN ? dom::Formation::kColumn : dom::Formation::kLine;
}
pb::Formation formation(dom::Formation f) {
  return f == dom::Formation::kColumn ? pb::FORMATION_COLUMN : pb::FORMATION_LINE;
}

dom::Zone zone(const pb::Zone& z) {
  return {z.min_col(), z.max_col(), z.min_row(), z.max_row()};
}
void put(pb::Zone* m, const dom::Zone& z) {
  m->set_min_col(z.min_col);
  m->set_max_col(z.max_col);
  m->set_min_row(z.min_row);
  m->set_max_row(z.max_row);
}

castra::v1::Outcome outcome(const Outcome& o) {
  castra::v1::Outcome m;
  m.set_kind(static_cast<castra::v1::Outcome::Kind>(o.kind));
  m.set_reason(o.reason);
  return m;
}
Outcome outcome(const castra::v1::Outcome& m) {
  return {static_cast<Outcome::Kind>(m.kind()), m.reason()};
}

// UnitType: the proto enum is the domain's plus one (0 is "unspecified").
Checked<dom::UnitType> unit_type(pb::UnitType t) {
  const int v = static_cast<int>(t) - 1;
  if (v < 0 || v >= dom::kUnitTypes)
    return bad("unknown unit type " + std::to_string(static_cast<int>(t)));
  return static_cast<dom::UnitType>(v);
}
pb::UnitType unit_type(dom::UnitType t) {
  return static_cast<pb::UnitType>(static_cast<int>(t) + 1);
}

Checked<dom::Terrain> terrain(pb::Terrain t) {
  const int v = static_cast<int>(t);
  if (v < 0 || v >= dom::kTerrains) return bad("unknown terrain " + std::to_string(v));
  return static_cast<dom::Terrain>(v);
}

Checked<dom::Phase> phase(pb::Phase p) {
  const int v = static_cast<int>(p);
  if (v < 0 || v > static_cast<int>(dom::Phase::kOver)) return bad("unknown phase");
  return static_cast<dom::Phase>(v);
}

}  // namespace

castra::v1::Side to_proto(Side s) {
  return s == Side::kA ? castra::v1::SIDE_A : castra::v1::SIDE_B;
}
Side to_domain(castra::v1::Side s) {
  return s == castra::v1::SIDE_B ? Side::kB : Side::kA;
}

// ---- Scenario ---------------------------------------------------------------------------

Checked<dom::Scenario> to_domain(const pb::Scenario& m) {
  dom::Scenario s;
  s.name = m.name();
  s.title = m.title();
  s.description = m.description();
  s.cols = m.cols();
  s.rows = m.rows();
  for (const pb::TerrainSquare& t : m.terrain()) {
    auto tt = terrain(t.terrain());
    if (!tt) return tt.error();
    s.terrain.push_back({sq(t.at()), *tt});
  }
  s.first_side = to_domain(m.first_side());
  s.deployment = m.deployment() == pb::DEPLOYMENT_ZONES ? dom::DeploymentMode::kZones
                                                        : dom::DeploymentMode::kFixed;
  s.first_deployer = to_domain(m.first_deployer());
  if (m.has_zone_a()) s.zones[0] = zone(m.zone_a());
  if (m.has_zone_b()) s.zones[1] = zone(m.zone_b());
  s.turn_limit = m.turn_limit();
  for (const pb::ScenarioUnit& u : m.units()) {
    auto type = unit_type(u.type());
    if (!type) return bad("unit " + std::to_string(u.id()) + ": " + type.error().message);
    dom::ScenarioUnit d;
    d.id = u.id();
    d.side = to_domain(u.side());
    d.type = *type;
    d.bases = u.bases() == 0 ? 2 : u.bases();
    d.command = u.command();
    if (u.has_at()) d.at = sq(u.at());
    d.facing = u.facing();
    d.formation = formation(u.formation());
    d.morale = u.morale();
    d.name = u.name();
    d.disordered = u.disordered();
    d.disorder_turns = u.disorder_turns();
    d.missile_hits = u.missile_hits();
    s.units.push_back(std::move(d));
  }
  for (const pb::ScenarioLeader& l : m.leaders()) {
    s.leaders.push_back(
        {l.id(), to_domain(l.side()), l.general(), l.command(), l.unit(), l.range(), l.name()});
  }
  return s;
}

pb::Scenario to_proto(const dom::Scenario& s) {
  pb::Scenario m;
  m.set_name(s.name);
  m.set_title(s.title);
  m.set_description(s.description);
  m.set_cols(s.cols);
  m.set_rows(s.rows);
  for (const dom::TerrainSquare& t : s.terrain) {
    pb::TerrainSquare* x = m.add_terrain();
    put(x->mutable_at(), t.at);
    x->set_terrain(static_cast<pb::Terrain>(t.terrain));
  }
  m.set_first_side(to_proto(s.first_side));
  m.set_deployment(s.deployment == dom::DeploymentMode::kZones ? pb::DEPLOYMENT_ZONES
                                                               : pb::DEPLOYMENT_FIXED);
  m.set_first_deployer(to_proto(s.first_deployer));
  if (s.zones[0]) put(m.mutable_zone_a(), *s.zones[0]);
  if (s.zones[1]) put(m.mutable_zone_b(), *s.zones[1]);
  m.set_turn_limit(s.turn_limit);
  for (const dom::ScenarioUnit& u : s.units) {
    pb::ScenarioUnit* x = m.add_units();
    x->set_id(u.id);
    x->set_side(to_proto(u.side));
    x->set_type(unit_type(u.type));
    x->set_bases(u.bases);
    x->set_command(u.command);
    if (u.at) put(x->mutable_at(), *u.at);
    x->set_facing(u.facing);
    x->set_formation(formation(u.formation));
    x->set_morale(u.morale);
    x->set_name(u.name);
    x->set_disordered(u.disordered);
    x->set_disorder_turns(u.disorder_turns);
    x->set_missile_hits(u.missile_hits);
  }
  for (const dom::ScenarioLeader& l : s.leaders) {
    pb::ScenarioLeader* x = m.add_leaders();
    x->set_id(l.id);
    x->set_side(to_proto(l.side));
    x->set_general(l.general);
    x->set_command(l.command);
    x->set_unit(l.unit);
    x->set_range(l.range);
    x->set_name(l.name);
  }
  return m;
}

// ---- Command ------------------------------------------------------------------------------

Checked<dom::Command> to_domain(const pb::Command& m) {
  using namespace dom::cmd;
  switch (m.kind_case()) {
    case pb::Command::kDeploy:
      return dom::Command{Deploy{m.deploy().unit(), sq(m.deploy().at()), m.deploy().facing(),
                                 formation(m.deploy().formation())}};
    case pb::Command::kPlaceLeader:
      return dom::Command{PlaceLeader{m.place_leader().leader(), m.place_leader().unit()}};
    case pb::Command::kEndDeployment:
      return dom::Command{EndDeployment{}};
    case pb::Command::kSubmitOrders: {
      SubmitOrders o;
      for (const pb::OrdersPath& p : m.submit_orders().paths())
        o.paths.push_back(path(p));
      return dom::Command{std::move(o)};
    }
    case pb::Command::kAdvance:
      return dom::Command{Advance{m.advance().unit(), steps(m.advance().steps())}};
    case pb::Command::kRotate:
      return dom::Command{Rotate{m.rotate().unit(), m.rotate().facing()}};
    case pb::Command::kChangeFormation:
      return dom::Command{ChangeFormation{m.change_formation().unit()}};
    case pb::Command::kShoot:
      return dom::Command{Shoot{m.shoot().unit(), m.shoot().target()}};
    case pb::Command::kMoveLeader:
      return dom::Command{MoveLeader{m.move_leader().leader(), m.move_leader().unit()}};
    case pb::Command::kAbandonOrders:
      return dom::Command{AbandonOrders{m.abandon_orders().leader()}};
    case pb::Command::kEndPhase:
      return dom::Command{EndPhase{}};
    case pb::Command::KIND_NOT_SET:
      break;
  }
  return bad("a command with no kind");
}

namespace {
struct CommandOut {
  pb::Command& m;
  void operator()(const dom::cmd::Deploy& c) {
    auto* x = m.mutable_deploy();
    x->set_unit(c.unit);
    put(x->mutable_at(), c.at);
    x->set_facing(c.facing);
    x->set_formation(formation(c.formation));
  }
  void operator()(const dom::cmd::PlaceLeader& c) {
    m.mutable_place_leader()->set_leader(c.leader);
    m.mutable_place_leader()->set_unit(c.unit);
  }
  void operator()(const dom::cmd::EndDeployment&) { m.mutable_end_deployment(); }
  void operator()(const dom::cmd::SubmitOrders& c) {
    auto* x = m.mutable_submit_orders();
    for (const dom::OrdersPath& p : c.paths)
      put(x->add_paths(), p);
  }
  void operator()(const dom::cmd::Advance& c) {
    auto* x = m.mutable_advance();
    x->set_unit(c.unit);
    for (const dom::Step& s : c.steps)
      put(x->add_steps(), s);
  }
  void operator()(const dom::cmd::Rotate& c) {
    m.mutable_rotate()->set_unit(c.unit);
    m.mutable_rotate()->set_facing(c.facing);
  }
  void operator()(const dom::cmd::ChangeFormation& c) {
    m.mutable_change_formation()->set_unit(c.unit);
  }
  void operator()(const dom::cmd::Shoot& c) {
    m.mutable_shoot()->set_unit(c.unit);
    m.mutable_shoot()->set_target(c.target);
  }
  void operator()(const dom::cmd::MoveLeader& c) {
    m.mutable_move_leader()->set_leader(c.leader);
    m.mutable_move_leader()->set_unit(c.unit);
  }
  void operator()(const dom::cmd::AbandonOrders& c) {
    m.mutable_abandon_orders()->set_leader(c.leader);
  }
  void operator()(const dom::cmd::EndPhase&) { m.mutable_end_phase(); }
};
}  // namespace

pb::Command to_proto(const dom::Command& c) {
  pb::Command m;
  std::visit(CommandOut{m}, c);
  return m;
}

// ---- Event ----------------------------------------------------------------------------------

namespace {
struct EventOut {
  pb::Event& m;
  void operator()(const dom::ev::UnitDeployed& e) {
    auto* x = m.mutable_unit_deployed();
    x->set_unit(e.unit);
    put(x->mutable_at(), e.at);
    x->set_facing(e.facing);
    x->set_formation(formation(e.formation));
  }
  void operator()(const dom::ev::LeaderPlaced& e) {
    m.mutable_leader_placed()->set_leader(e.leader);
    m.mutable_leader_placed()->set_unit(e.unit);
  }
  void operator()(const dom::ev::DeploymentEnded& e) {
    m.mutable_deployment_ended()->set_side(to_proto(e.side));
  }
  void operator()(const dom::ev::OrdersSubmitted& e) {
    m.mutable_orders_submitted()->set_side(to_proto(e.side));
  }
  void operator()(const dom::ev::OrdersCard& e) {
    auto* x = m.mutable_orders_card();
    x->set_side(to_proto(e.side));
    for (const dom::OrdersPath& p : e.paths)
      put(x->add_paths(), p);
  }
  void operator()(const dom::ev::PhaseStarted& e) {
    auto* x = m.mutable_phase_started();
    x->set_phase(static_cast<pb::Phase>(e.phase));
    x->set_turn(e.turn);
    x->set_side(to_proto(e.side));
  }
  void operator()(const dom::ev::Advanced& e) {
    auto* x = m.mutable_advanced();
    x->set_unit(e.unit);
    put(x->mutable_from(), e.from);
    for (const dom::Step& s : e.steps)
      put(x->add_steps(), s);
    x->set_disordered(e.disordered);
    x->set_disorder_turns(e.disorder_turns);
    x->set_charge_target(e.charge_target);
  }
  void operator()(const dom::ev::Rotated& e) {
    auto* x = m.mutable_rotated();
    x->set_unit(e.unit);
    x->set_from_facing(e.from_facing);
    x->set_facing(e.facing);
    x->set_disordered(e.disordered);
    x->set_disorder_turns(e.disorder_turns);
  }
  void operator()(const dom::ev::FormationChanged& e) {
    m.mutable_formation_changed()->set_unit(e.unit);
    m.mutable_formation_changed()->set_formation(formation(e.formation));
  }
  void operator()(const dom::ev::Shot& e) {
    auto* x = m.mutable_shot();
    x->set_shooter(e.shooter);
    x->set_target(e.target);
    x->set_at_charger(e.at_charger);
    x->set_base(e.base);
    x->set_shift(e.shift);
    x->set_hits(e.hits);
    x->set_missile_before(e.missile_before);
    x->set_missile_after(e.missile_after);
    x->set_intervals(e.intervals);
  }
  void operator()(const dom::ev::Fight& e) {
    auto* x = m.mutable_fight();
    x->set_kind(e.kind == dom::FightKind::kMelee ? pb::Fight::MELEE : pb::Fight::CHARGE);
    x->set_a(e.a);
    x->set_b(e.b);
    x->set_base_a(e.base_a);
    x->set_shift_a(e.shift_a);
    x->set_hits_a(e.hits_a);
    x->set_base_b(e.base_b);
    x->set_shift_b(e.shift_b);
    x->set_hits_b(e.hits_b);
    x->set_loss_a(e.loss_a);
    x->set_loss_b(e.loss_b);
  }
  void operator()(const dom::ev::MoraleChanged& e) {
    auto* x = m.mutable_morale_changed();
    x->set_unit(e.unit);
    x->set_from(e.from);
    x->set_to(e.to);
  }
  void operator()(const dom::ev::Routed& e) {
    auto* x = m.mutable_routed();
    x->set_unit(e.unit);
    x->set_side(to_proto(e.side));
    put(x->mutable_at(), e.at);
    x->set_from_morale(e.from_morale);
    for (const dom::LeaderRelocation& r : e.leaders) {
      auto* y = x->add_leaders();
      y->set_leader(r.leader);
      y->set_to_unit(r.to_unit);
    }
  }
  void operator()(const dom::ev::LeaderMoved& e) {
    auto* x = m.mutable_leader_moved();
    x->set_leader(e.leader);
    x->set_from_unit(e.from_unit);
    x->set_to_unit(e.to_unit);
  }
  void operator()(const dom::ev::LeaderRoll& e) {
    auto* x = m.mutable_leader_roll();
    x->set_leader(e.leader);
    x->set_first(e.first);
    x->set_second(e.second);
    x->set_fate(static_cast<pb::LeaderRoll::Fate>(e.fate));
  }
  void operator()(const dom::ev::Progress& e) {
    auto* x = m.mutable_progress();
    x->set_leader(e.leader);
    x->set_side(to_proto(e.side));
    x->set_index(e.index);
  }
  void operator()(const dom::ev::OrdersAbandoned& e) {
    m.mutable_orders_abandoned()->set_leader(e.leader);
  }
  void operator()(const dom::ev::DisorderRecovered& e) {
    m.mutable_disorder_recovered()->set_unit(e.unit);
  }
  void operator()(const dom::ev::TurnEnded& e) { m.mutable_turn_ended()->set_turn(e.turn); }
  void operator()(const dom::ev::GameEnded& e) {
    *m.mutable_game_ended()->mutable_outcome() = outcome(e.outcome);
  }
};
}  // namespace

pb::Event to_proto(const dom::Event& e) {
  pb::Event m;
  std::visit(EventOut{m}, e);
  return m;
}

Checked<dom::Event> to_domain(const pb::Event& m) {
  using namespace dom::ev;
  switch (m.kind_case()) {
    case pb::Event::kUnitDeployed: {
      const auto& x = m.unit_deployed();
      return dom::Event{UnitDeployed{x.unit(), sq(x.at()), x.facing(), formation(x.formation())}};
    }
    case pb::Event::kLeaderPlaced:
      return dom::Event{LeaderPlaced{m.leader_placed().leader(), m.leader_placed().unit()}};
    case pb::Event::kDeploymentEnded:
      return dom::Event{DeploymentEnded{to_domain(m.deployment_ended().side())}};
    case pb::Event::kOrdersSubmitted:
      return dom::Event{OrdersSubmitted{to_domain(m.orders_submitted().side())}};
    case pb::Event::kOrdersCard: {
      OrdersCard c{to_domain(m.orders_card().side()), {}};
      for (const auto& p : m.orders_card().paths())
        c.paths.push_back(path(p));
      return dom::Event{std::move(c)};
    }
    case pb::Event::kPhaseStarted: {
      auto p = phase(m.phase_started().phase());
      if (!p) return p.error();
      return dom::Event{
          PhaseStarted{*p, m.phase_started().turn(), to_domain(m.phase_started().side())}};
    }
    case pb::Event::kAdvanced: {
      const auto& x = m.advanced();
      if (x.steps().empty()) return bad("an advance with no steps");
      return dom::Event{Advanced{x.unit(), sq(x.from()), steps(x.steps()), x.disordered(),
                                 x.disorder_turns(), x.charge_target()}};
    }
    case pb::Event::kRotated: {
      const auto& x = m.rotated();
      return dom::Event{
          Rotated{x.unit(), x.from_facing(), x.facing(), x.disordered(), x.disorder_turns()}};
    }
    case pb::Event::kFormationChanged:
      return dom::Event{FormationChanged{m.formation_changed().unit(),
                                         formation(m.formation_changed().formation())}};
    case pb::Event::kShot: {
      const auto& x = m.shot();
      return dom::Event{Shot{x.shooter(), x.target(), x.at_charger(), x.base(), x.shift(), x.hits(),
                             x.missile_before(), x.missile_after(), x.intervals()}};
    }
    case pb::Event::kFight: {
      const auto& x = m.fight();
      return dom::Event{
          Fight{x.kind() == pb::Fight::MELEE ? dom::FightKind::kMelee : dom::FightKind::kCharge,
                x.a(), x.b(), x.base_a(), x.shift_a(), x.hits_a(), x.base_b(), x.shift_b(),
                x.hits_b(), x.loss_a(), x.loss_b()}};
    }
    case pb::Event::kMoraleChanged: {
      const auto& x = m.morale_changed();
      return dom::Event{MoraleChanged{x.unit(), x.from(), x.to()}};
    }
    case pb::Event::kRouted: {
      const auto& x = m.routed();
      Routed r{x.unit(), to_domain(x.side()), sq(x.at()), x.from_morale(), {}};
      for (const auto& l : x.leaders())
        r.leaders.push_back({l.leader(), l.to_unit()});
      return dom::Event{std::move(r)};
    }
    case pb::Event::kLeaderMoved: {
      const auto& x = m.leader_moved();
      return dom::Event{LeaderMoved{x.leader(), x.from_unit(), x.to_unit()}};
    }
    case pb::Event::kLeaderRoll: {
      const auto& x = m.leader_roll();
      if (x.fate() < 0 || x.fate() > 2) return bad("unknown leader fate");
      return dom::Event{
          LeaderRoll{x.leader(), x.first(), x.second(), static_cast<dom::LeaderFate>(x.fate())}};
    }
    case pb::Event::kProgress: {
      const auto& x = m.progress();
      return dom::Event{Progress{x.leader(), to_domain(x.side()), x.index()}};
    }
    case pb::Event::kOrdersAbandoned:
      return dom::Event{OrdersAbandoned{m.orders_abandoned().leader()}};
    case pb::Event::kDisorderRecovered:
      return dom::Event{DisorderRecovered{m.disorder_recovered().unit()}};
    case pb::Event::kTurnEnded:
      return dom::Event{TurnEnded{m.turn_ended().turn()}};
    case pb::Event::kGameEnded:
      return dom::Event{GameEnded{outcome(m.game_ended().outcome())}};
    case pb::Event::KIND_NOT_SET:
      break;
  }
  return bad("an event with no kind");
}

// ---- State -----------------------------------------------------------------------------------

pb::State to_proto(const dom::State& s) {
  pb::State m;
  m.set_version(s.version);
  m.set_cols(s.cols);
  m.set_rows(s.rows);
  for (dom::Terrain t : s.terrain)
    m.add_terrain(static_cast<pb::Terrain>(t));
  m.set_first_side(to_proto(s.first_side));
  m.set_deployment(s.deployment == dom::DeploymentMode::kZones ? pb::DEPLOYMENT_ZONES
                                                               : pb::DEPLOYMENT_FIXED);
  m.set_first_deployer(to_proto(s.first_deployer));
  put(m.mutable_zone_a(), s.zones[0]);
  put(m.mutable_zone_b(), s.zones[1]);
  m.set_turn_limit(s.turn_limit);
  m.set_turn(s.turn);
  m.set_phase(static_cast<pb::Phase>(s.phase));
  m.set_active(to_proto(s.active));
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    m.add_deployed(s.deployed[k]);
    m.add_orders_submitted(s.orders_submitted[k]);
    m.add_start_units(s.start_units[k]);
    m.add_routed(s.routed[k]);
  }
  if (s.outcome) *m.mutable_outcome() = outcome(*s.outcome);
  for (const dom::Unit& u : s.units) {
    pb::Unit* x = m.add_units();
    x->set_id(u.id);
    x->set_side(to_proto(u.side));
    x->set_type(unit_type(u.type));
    x->set_bases(u.bases);
    x->set_command(u.command);
    x->set_placed(u.placed);
    x->set_routed(u.routed);
    put(x->mutable_at(), u.pos);
    x->set_facing(u.facing);
    x->set_formation(formation(u.formation));
    x->set_morale(u.morale);
    x->set_start_morale(u.start_morale);
    x->set_disordered(u.disordered);
    x->set_disorder_turns(u.disorder_turns);
    x->set_missile_hits(u.missile_hits);
    x->set_moved_this_turn(u.moved_this_turn);
    x->set_moved_last_turn(u.moved_last_turn);
    x->set_shot_this_phase(u.shot_this_phase);
    x->set_charged_this_phase(u.charged_this_phase);
  }
  for (const dom::Leader& l : s.leaders) {
    pb::Leader* x = m.add_leaders();
    x->set_id(l.id);
    x->set_side(to_proto(l.side));
    x->set_general(l.general);
    x->set_command(l.command);
    x->set_unit(l.unit);
    x->set_status(static_cast<pb::Leader::Status>(l.status));
    x->set_wounded(l.wounded);
    x->set_range(l.range);
    for (const dom::Square& q : l.path)
      put(x->add_path(), q);
    x->set_progress(l.progress);
    x->set_abandoned(l.abandoned);
    x->set_moved_this_phase(l.moved_this_phase);
  }
  return m;
}

Checked<dom::State> to_domain(const pb::State& m) {
  dom::State s;
  s.version = m.version();
  s.cols = m.cols();
  s.rows = m.rows();
  for (int t : m.terrain()) {
    auto tt = terrain(static_cast<pb::Terrain>(t));
    if (!tt) return tt.error();
    s.terrain.push_back(*tt);
  }
  s.first_side = to_domain(m.first_side());
  s.deployment = m.deployment() == pb::DEPLOYMENT_ZONES ? dom::DeploymentMode::kZones
                                                        : dom::DeploymentMode::kFixed;
  s.first_deployer = to_domain(m.first_deployer());
  s.zones = {zone(m.zone_a()), zone(m.zone_b())};
  s.turn_limit = m.turn_limit();
  s.turn = m.turn();
  auto p = phase(m.phase());
  if (!p) return p.error();
  s.phase = *p;
  s.active = to_domain(m.active());
  if (m.deployed_size() != 2 || m.orders_submitted_size() != 2 || m.start_units_size() != 2 ||
      m.routed_size() != 2) {
    return bad("per-side fields need two values");
  }
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    s.deployed[k] = m.deployed(i);
    s.orders_submitted[k] = m.orders_submitted(i);
    s.start_units[k] = m.start_units(i);
    s.routed[k] = m.routed(i);
  }
  if (m.has_outcome()) s.outcome = outcome(m.outcome());
  for (const pb::Unit& x : m.units()) {
    auto type = unit_type(x.type());
    if (!type) return type.error();
    dom::Unit u;
    u.id = x.id();
    u.side = to_domain(x.side());
    u.type = *type;
    u.bases = x.bases();
    u.command = x.command();
    u.placed = x.placed();
    u.routed = x.routed();
    u.pos = sq(x.at());
    u.facing = x.facing();
    u.formation = formation(x.formation());
    u.morale = x.morale();
    u.start_morale = x.start_morale();
    u.disordered = x.disordered();
    u.disorder_turns = x.disorder_turns();
    u.missile_hits = x.missile_hits();
    u.moved_this_turn = x.moved_this_turn();
    u.moved_last_turn = x.moved_last_turn();
    u.shot_this_phase = x.shot_this_phase();
    u.charged_this_phase = x.charged_this_phase();
    s.units.push_back(u);
  }
  for (const pb::Leader& x : m.leaders()) {
    if (x.status() < 0 || x.status() > 2) return bad("unknown leader status");
    dom::Leader l;
    l.id = x.id();
    l.side = to_domain(x.side());
    l.general = x.general();
    l.command = x.command();
    l.unit = x.unit();
    l.status = static_cast<dom::LeaderStatus>(x.status());
    l.wounded = x.wounded();
    l.range = x.range();
    for (const auto& q : x.path())
      l.path.push_back(sq(q));
    l.progress = x.progress();
    l.abandoned = x.abandoned();
    l.moved_this_phase = x.moved_this_phase();
    s.leaders.push_back(std::move(l));
  }
  return s;
}

// ---- Legal ------------------------------------------------------------------------------------

pb::Legal to_proto(const dom::Legal& l) {
  pb::Legal m;
  m.set_side(to_proto(l.side));
  m.set_phase(l.phase);
  for (const dom::UnitLegal& u : l.units) {
    pb::UnitLegal* x = m.add_units();
    x->set_unit(u.unit);
    x->set_in_command(u.in_command);
    for (const dom::AdvanceOption& a : u.advances) {
      pb::AdvanceOption* y = x->add_advances();
      for (const dom::Step& s : a.steps)
        put(y->add_steps(), s);
      y->set_charge_target(a.charge_target);
      y->set_disorders(a.disorders);
    }
    for (int f : u.rotations)
      x->add_rotations(f);
    x->set_change_formation(u.change_formation);
    for (int t : u.shoot_targets)
      x->add_shoot_targets(t);
    for (const dom::Square& q : u.placements)
      put(x->add_placements(), q);
    for (int f : u.facings)
      x->add_facings(f);
    for (dom::Formation f : u.formations)
      x->add_formations(formation(f));
  }
  for (const dom::LeaderLegal& ll : l.leaders) {
    pb::LeaderLegal* x = m.add_leaders();
    x->set_leader(ll.leader);
    for (int u : ll.move_to)
      x->add_move_to(u);
    for (int u : ll.place_on)
      x->add_place_on(u);
    x->set_abandon(ll.abandon);
  }
  m.set_end_phase(l.end_phase);
  m.set_end_deployment(l.end_deployment);
  pb::OrdersLegal* o = m.mutable_orders();
  o->set_submit(l.orders.submit);
  for (const dom::OrdersPath& p : l.orders.starts)
    put(o->add_starts(), p);
  o->set_max_squares(l.orders.max_squares);
  o->set_cols(l.orders.cols);
  o->set_rows(l.orders.rows);
  return m;
}

// ---- JSON -------------------------------------------------------------------------------------

namespace {
std::string json_of(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opt;
  opt.preserve_proto_field_names = false;
  // Zero values are facts here (SIDE_A, facing 0, a 0 loss): print them.
  opt.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opt);
  return out;
}
}  // namespace

Checked<dom::Scenario> scenario_from_json(std::string_view json) {
  castra::v1::ScenarioFile file;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &file);
  if (!status.ok()) return bad("scenario JSON: " + std::string(status.message()));
  if (!file.has_optio()) return bad("the scenario file is not an optio scenario");
  return to_domain(file.optio());
}

std::string scenario_to_json(const dom::Scenario& s) {
  castra::v1::ScenarioFile file;
  *file.mutable_optio() = to_proto(s);
  return json_of(file);
}

Checked<std::vector<ScriptLine>> script_from_jsonl(std::string_view text) {
  std::vector<ScriptLine> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    pb::ScriptLine m;
    const auto status = google::protobuf::util::JsonStringToMessage(line, &m);
    if (!status.ok()) {
      return bad("script line " + std::to_string(line_no) + ": " + std::string(status.message()));
    }
    auto c = to_domain(m.command());
    if (!c) return bad("script line " + std::to_string(line_no) + ": " + c.error().message);
    out.emplace_back(to_domain(m.side()), std::move(*c));
  }
  return out;
}

std::string script_line_to_json(Side side, const dom::Command& c) {
  pb::ScriptLine m;
  m.set_side(to_proto(side));
  *m.mutable_command() = to_proto(c);
  return json_of(m);
}

std::string event_to_json(const dom::Event& e) {
  return json_of(to_proto(e));
}

// ---- forecasts ------------------------------------------------------------------------------

namespace {

void put(pb::Score* m, const dom::Score& sc) {
  m->set_unit(sc.unit);
  m->set_base(sc.base);
  for (const dom::ShiftTerm& t : sc.terms) {
    pb::ShiftTerm* x = m->add_terms();
    x->set_name(t.name);
    x->set_shift(t.shift);
  }
  m->set_raw_shift(sc.raw_shift);
  m->set_shift(sc.shift);
  m->set_hits(sc.hits);
}

void put(pb::MoraleForecast* m, const dom::MoraleForecast& f) {
  m->set_unit(f.unit);
  m->set_before(f.before);
  m->set_after(f.after);
  m->set_routs(f.routs);
}

}  // namespace

pb::Forecast to_proto(const dom::Forecast& f) {
  pb::Forecast m;
  m.set_unit(f.unit);
  m.set_target(f.target);
  m.set_charge(f.charge);
  if (f.fire) {
    pb::ShotForecast* x = m.mutable_fire();
    put(x->mutable_shooter(), f.fire->shooter);
    x->set_target(f.fire->target);
    x->set_missile_before(f.fire->missile_before);
    x->set_missile_after(f.fire->missile_after);
    x->set_intervals(f.fire->intervals);
  }
  if (f.fight) {
    pb::FightForecast* x = m.mutable_fight();
    put(x->mutable_a(), f.fight->a);
    put(x->mutable_b(), f.fight->b);
    x->set_loss_a(f.fight->loss_a);
    x->set_loss_b(f.fight->loss_b);
  }
  put(m.mutable_unit_morale(), f.unit_morale);
  put(m.mutable_target_morale(), f.target_morale);
  for (const dom::LeaderDieForecast& l : f.leaders) {
    pb::LeaderDieForecast* x = m.add_leaders();
    x->set_leader(l.leader);
    x->set_wounded(l.wounded);
    x->set_leaves(l.leaves);
    x->set_wound_from(l.wound_from);
    x->set_kill_from(l.kill_from);
  }
  return m;
}

void add_forecasts(const std::vector<dom::UnitForecasts>& forecasts, pb::Legal* m) {
  for (const dom::UnitForecasts& uf : forecasts) {
    for (pb::UnitLegal& u : *m->mutable_units()) {
      if (u.unit() != uf.unit) continue;
      // Parallel to the unit's advance options and shoot targets, as Game::forecasts makes them.
      for (std::size_t i = 0;
           i < uf.advances.size() && i < static_cast<std::size_t>(u.advances_size()); ++i) {
        if (uf.advances[i])
          *u.mutable_advances(static_cast<int>(i))->mutable_forecast() = to_proto(*uf.advances[i]);
      }
      for (const auto& shot : uf.shots) {
        if (shot) *u.add_shot_forecasts() = to_proto(*shot);
      }
    }
  }
}

}  // namespace castra::wire::optio
