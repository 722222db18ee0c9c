#include "common/wire/stand_codec.hpp"

#include <google/protobuf/util/json_util.h>

#include <optional>
#include <type_traits>
#include <variant>

#include "proto/castra/v1/match.pb.h"

namespace castra::wire::stand {
namespace {

using castra::rules::Outcome;
using castra::rules::RuleError;
using castra::rules::Side;
namespace ev = rs::ev;
namespace cmd = rs::cmd;

RuleError malformed(const std::string& what, const std::string& message) {
  return castra::rules::refuse("stand.wire." + what, message);
}

// ---- small values -----------------------------------------------------------------------

castra::v1::Coord coord(rs::Hex h) {
  castra::v1::Coord c;
  c.set_col(h.col);
  c.set_row(h.row);
  return c;
}
rs::Hex hex(const castra::v1::Coord& c) {
  return {c.col(), c.row()};
}

pb::Figures figures(const rs::Figures& f) {
  pb::Figures p;
  p.set_infantry(f[rs::Troop::kInfantry]);
  p.set_archers(f[rs::Troop::kArchers]);
  p.set_cavalry(f[rs::Troop::kCavalry]);
  p.set_chariots(f[rs::Troop::kChariots]);
  return p;
}
rs::Figures figures(const pb::Figures& p) {
  rs::Figures f;
  f[rs::Troop::kInfantry] = p.infantry();
  f[rs::Troop::kArchers] = p.archers();
  f[rs::Troop::kCavalry] = p.cavalry();
  f[rs::Troop::kChariots] = p.chariots();
  return f;
}

castra::v1::Side side(Side s) {
  return s == Side::kA ? castra::v1::SIDE_A : castra::v1::SIDE_B;
}
std::optional<Side> side(int v) {
  if (v == castra::v1::SIDE_A) return Side::kA;
  if (v == castra::v1::SIDE_B) return Side::kB;
  return std::nullopt;
}

pb::Facing facing(int f) {
  return static_cast<pb::Facing>(f);
}
std::optional<int> facing(pb::Facing f) {
  if (!pb::Facing_IsValid(f)) return std::nullopt;
  return static_cast<int>(f);
}

pb::Posture posture(rs::Posture p) {
  return p == rs::Posture::kStanding ? pb::POSTURE_STANDING : pb::POSTURE_FALLING_BACK;
}
std::optional<rs::Posture> posture(pb::Posture p) {
  if (p == pb::POSTURE_STANDING) return rs::Posture::kStanding;
  if (p == pb::POSTURE_FALLING_BACK) return rs::Posture::kFallingBack;
  return std::nullopt;
}

pb::Phase phase(rs::Phase p) {
  return static_cast<pb::Phase>(static_cast<int>(p));
}
std::optional<rs::Phase> phase(pb::Phase p) {
  if (!pb::Phase_IsValid(p)) return std::nullopt;
  return static_cast<rs::Phase>(static_cast<int>(p));
}

std::optional<rs::Terrain> terrain(pb::Terrain t) {
  if (!pb::Terrain_IsValid(t)) return std::nullopt;
  return static_cast<rs::Terrain>(static_cast<int>(t));
}
std::optional<rs::Crossing> crossing(pb::Crossing c) {
  if (!pb::Crossing_IsValid(c)) return std::nullopt;
  return static_cast<rs::Crossing>(static_cast<int>(c));
}

castra::v1::Outcome outcome(const Outcome& o) {
  castra::v1::Outcome p;
  p.set_kind(static_cast<castra::v1::Outcome::Kind>(static_cast<int>(o.kind)));
  p.set_reason(o.reason);
  return p;
}
std::optional<Outcome> outcome(const castra::v1::Outcome& p) {
  if (!castra::v1::Outcome::Kind_IsValid(p.kind())) return std::nullopt;
  return Outcome{static_cast<Outcome::Kind>(static_cast<int>(p.kind())), p.reason()};
}

void add_types(rs::TroopMask m, google::protobuf::RepeatedField<int>* out) {
  for (rs::Troop t : rs::kAllTroops) {
    if (rs::has(m, t)) out->Add(static_cast<int>(rs::index(t)));
  }
}

// ---- reading helpers --------------------------------------------------------------------

// Reads fields one by one and keeps the first problem; the caller checks ok() once.
class Reader {
 public:
  explicit Reader(std::string what) : what_(std::move(what)) {}

  Side side(int v, const char* field) {
    if (auto s = stand::side(v)) return *s;
    fail(std::string(field) + " is not a side (" + std::to_string(v) + ")");
    return Side::kA;
  }
  rs::Hex hex(bool present, const castra::v1::Coord& c, const char* field) {
    if (!present) fail("it needs " + std::string(field));
    return stand::hex(c);
  }
  int facing(pb::Facing f, const char* field) {
    if (auto v = stand::facing(f)) return *v;
    fail(std::string(field) + " is not a facing (" + std::to_string(static_cast<int>(f)) + ")");
    return 0;
  }
  rs::Posture posture(pb::Posture p, const char* field) {
    if (auto v = stand::posture(p)) return *v;
    fail(std::string(field) + " is not a posture (" + std::to_string(static_cast<int>(p)) + ")");
    return rs::Posture::kFallingBack;
  }
  rs::Phase phase(pb::Phase p, const char* field) {
    if (auto v = stand::phase(p)) return *v;
    fail(std::string(field) + " is not a phase (" + std::to_string(static_cast<int>(p)) + ")");
    return rs::Phase::kRollOff;
  }
  rs::Terrain terrain(pb::Terrain t, const char* field) {
    if (auto v = stand::terrain(t)) return *v;
    fail(std::string(field) + " is not a terrain (" + std::to_string(static_cast<int>(t)) + ")");
    return rs::Terrain::kOpen;
  }
  rs::Crossing crossing(pb::Crossing c, const char* field) {
    if (auto v = stand::crossing(c)) return *v;
    fail(std::string(field) + " is not a crossing (" + std::to_string(static_cast<int>(c)) + ")");
    return rs::Crossing::kNone;
  }
  std::vector<rs::Hex> path(const google::protobuf::RepeatedPtrField<castra::v1::Coord>& p) {
    std::vector<rs::Hex> out;
    out.reserve(static_cast<std::size_t>(p.size()));
    for (const auto& c : p)
      out.push_back(stand::hex(c));
    return out;
  }
  void fail(const std::string& message) {
    if (!error_) error_ = malformed(what_, "malformed " + what_ + ": " + message);
  }
  bool ok() const { return !error_; }
  const RuleError& error() const { return *error_; }

 private:
  std::string what_;
  std::optional<RuleError> error_;
};

template <typename T>
Checked<T> result(const Reader& r, T value) {
  if (!r.ok()) return r.error();
  return value;
}

}  // namespace

// ---- scenario ---------------------------------------------------------------------------

Checked<rs::Scenario> to_domain(const pb::Scenario& p) {
  Reader r("scenario");
  rs::Scenario sc;
  sc.name = p.name();
  sc.width = p.width();
  sc.height = p.height();
  sc.turn_limit = p.turn_limit();
  if (p.hexes_size() > rs::kMaxMapSide * rs::kMaxMapSide) r.fail("too many hexes");
  for (const pb::HexSpec& h : p.hexes()) {
    if (!r.ok()) break;
    rs::HexSpec spec;
    spec.hex = r.hex(h.has_hex(), h.hex(), "a hex");
    spec.terrain = r.terrain(h.terrain(), "terrain");
    spec.crossing = r.crossing(h.crossing(), "crossing");
    if (h.has_capacity()) spec.capacity = h.capacity();
    sc.hexes.push_back(spec);
  }
  if (!p.has_side_a() || !p.has_side_b()) r.fail("it needs side_a and side_b armies");
  sc.armies[0] = {p.side_a().name(), figures(p.side_a().figures())};
  sc.armies[1] = {p.side_b().name(), figures(p.side_b().figures())};
  if (p.placements_size() > rs::kMaxMapSide * rs::kMaxMapSide) r.fail("too many placements");
  for (const pb::Scenario::Placement& pl : p.placements()) {
    if (!r.ok()) break;
    sc.placements.push_back({r.side(pl.side(), "a placement's side"),
                             r.hex(pl.has_hex(), pl.hex(), "a hex on every placement"),
                             figures(pl.figures()), r.facing(pl.facing(), "facing"),
                             r.posture(pl.posture(), "posture")});
  }
  sc.first_side = r.side(p.first_side(), "first_side");
  if (p.zone_a_size() > rs::kMaxMapSide * rs::kMaxMapSide ||
      p.zone_b_size() > rs::kMaxMapSide * rs::kMaxMapSide) {
    r.fail("a zone lists too many hexes");
  } else {
    sc.zones[0] = r.path(p.zone_a());
    sc.zones[1] = r.path(p.zone_b());
  }
  return result(r, std::move(sc));
}

pb::Scenario to_proto(const rs::Scenario& sc) {
  pb::Scenario p;
  p.set_name(sc.name);
  p.set_width(sc.width);
  p.set_height(sc.height);
  for (const rs::HexSpec& h : sc.hexes) {
    pb::HexSpec* out = p.add_hexes();
    *out->mutable_hex() = coord(h.hex);
    out->set_terrain(static_cast<pb::Terrain>(static_cast<int>(h.terrain)));
    out->set_crossing(static_cast<pb::Crossing>(static_cast<int>(h.crossing)));
    if (h.capacity) out->set_capacity(*h.capacity);
  }
  for (int i = 0; i < 2; ++i) {
    const rs::Army& army = sc.armies[static_cast<std::size_t>(i)];
    pb::Army* out = i == 0 ? p.mutable_side_a() : p.mutable_side_b();
    out->set_name(army.name);
    *out->mutable_figures() = figures(army.figures);
  }
  p.set_turn_limit(sc.turn_limit);
  for (const rs::Placement& pl : sc.placements) {
    pb::Scenario::Placement* out = p.add_placements();
    out->set_side(side(pl.side));
    *out->mutable_hex() = coord(pl.hex);
    *out->mutable_figures() = figures(pl.figures);
    out->set_facing(facing(pl.facing));
    out->set_posture(posture(pl.posture));
  }
  p.set_first_side(side(sc.first_side));
  for (rs::Hex h : sc.zones[0])
    *p.add_zone_a() = coord(h);
  for (rs::Hex h : sc.zones[1])
    *p.add_zone_b() = coord(h);
  return p;
}

Checked<rs::Scenario> scenario_from_json(std::string_view json) {
  castra::v1::ScenarioFile file;
  const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &file);
  if (!status.ok()) {
    return malformed("scenario", "scenario file is not valid JSON for castra.v1.ScenarioFile: " +
                                     status.ToString());
  }
  if (!file.has_stand()) return malformed("scenario", "scenario file holds no stand scenario");
  return to_domain(file.stand());
}

std::string scenario_to_json(const rs::Scenario& sc) {
  castra::v1::ScenarioFile file;
  *file.mutable_stand() = to_proto(sc);
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(file, &out, options);
  return out;
}

// ---- commands ---------------------------------------------------------------------------

Checked<rs::Command> to_domain(const pb::Command& p) {
  Reader r("command");
  switch (p.kind_case()) {
    case pb::Command::kDeploy: {
      const auto& c = p.deploy();
      cmd::Deploy d{r.hex(c.has_hex(), c.hex(), "a hex"), figures(c.figures()),
                    r.facing(c.facing(), "facing")};
      return result<rs::Command>(r, d);
    }
    case pb::Command::kMove: {
      const auto& c = p.move();
      cmd::Move m{r.hex(c.has_from(), c.from(), "a from hex"), r.path(c.path()),
                  figures(c.figures())};
      return result<rs::Command>(r, std::move(m));
    }
    case pb::Command::kFace: {
      const auto& c = p.face();
      return result<rs::Command>(
          r, cmd::Face{r.hex(c.has_hex(), c.hex(), "a hex"), r.facing(c.facing(), "facing")});
    }
    case pb::Command::kSetPosture: {
      const auto& c = p.set_posture();
      return result<rs::Command>(r, cmd::SetPosture{r.hex(c.has_hex(), c.hex(), "a hex"),
                                                    r.posture(c.posture(), "posture")});
    }
    case pb::Command::kAttack: {
      const auto& c = p.attack();
      return result<rs::Command>(r, cmd::Attack{r.hex(c.has_from(), c.from(), "a from hex"),
                                                r.hex(c.has_target(), c.target(), "a target")});
    }
    case pb::Command::kEndPhase:
      return rs::Command{cmd::EndPhase{}};
    case pb::Command::KIND_NOT_SET:
      break;
  }
  return malformed("command",
                   "malformed command: it names none of deploy, move, face, set_posture, attack, "
                   "end_phase");
}

pb::Command to_proto(const rs::Command& c) {
  pb::Command p;
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, cmd::Deploy>) {
          auto* d = p.mutable_deploy();
          *d->mutable_hex() = coord(x.hex);
          *d->mutable_figures() = figures(x.figures);
          d->set_facing(facing(x.facing));
        } else if constexpr (std::is_same_v<T, cmd::Move>) {
          auto* m = p.mutable_move();
          *m->mutable_from() = coord(x.from);
          for (rs::Hex h : x.path)
            *m->add_path() = coord(h);
          *m->mutable_figures() = figures(x.figures);
        } else if constexpr (std::is_same_v<T, cmd::Face>) {
          *p.mutable_face()->mutable_hex() = coord(x.hex);
          p.mutable_face()->set_facing(facing(x.facing));
        } else if constexpr (std::is_same_v<T, cmd::SetPosture>) {
          *p.mutable_set_posture()->mutable_hex() = coord(x.hex);
          p.mutable_set_posture()->set_posture(posture(x.posture));
        } else if constexpr (std::is_same_v<T, cmd::Attack>) {
          *p.mutable_attack()->mutable_from() = coord(x.from);
          *p.mutable_attack()->mutable_target() = coord(x.target);
        } else {
          p.mutable_end_phase();
        }
      },
      c);
  return p;
}

Checked<ScriptStep> script_line_from_json(std::string_view json) {
  castra::v1::ScriptLine line;
  const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &line);
  if (!status.ok()) {
    return malformed("script", "malformed script line: " + status.ToString());
  }
  const auto s = side(line.side());
  if (!s) return malformed("script", "malformed script line: unknown side");
  if (!line.command().has_stand()) {
    return malformed("script", "malformed script line: no Ancient STAND! command");
  }
  auto c = to_domain(line.command().stand());
  if (!c.ok()) return c.error();
  return ScriptStep{*s, std::move(*c)};
}

std::string script_line_to_json(Side s, const rs::Command& c) {
  castra::v1::ScriptLine line;
  line.set_side(side(s));
  *line.mutable_command()->mutable_stand() = to_proto(c);
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(line, &out, options);
  return out;
}

// ---- events -----------------------------------------------------------------------------

Checked<rs::Event> to_domain(const pb::Event& p) {
  Reader r("event");
  switch (p.kind_case()) {
    case pb::Event::kRollOff: {
      const auto& e = p.roll_off();
      return result<rs::Event>(r, ev::RollOff{r.side(e.side(), "side"), e.face()});
    }
    case pb::Event::kRollOffWon:
      return result<rs::Event>(r, ev::RollOffWon{r.side(p.roll_off_won().winner(), "winner")});
    case pb::Event::kDeploymentBegan: {
      const auto& e = p.deployment_began();
      return result<rs::Event>(
          r, ev::DeploymentBegan{r.side(e.side(), "side"), {e.rows().first(), e.rows().last()}});
    }
    case pb::Event::kDeployed: {
      const auto& e = p.deployed();
      return result<rs::Event>(
          r, ev::Deployed{r.side(e.side(), "side"), r.hex(e.has_hex(), e.hex(), "a hex"),
                          figures(e.figures()), r.facing(e.facing(), "facing")});
    }
    case pb::Event::kDeploymentEnded: {
      const auto& e = p.deployment_ended();
      return result<rs::Event>(
          r, ev::DeploymentEnded{r.side(e.side(), "side"), figures(e.left_out())});
    }
    case pb::Event::kBattleBegan: {
      const auto& e = p.battle_began();
      return result<rs::Event>(r, ev::BattleBegan{{e.start_strength_a(), e.start_strength_b()}});
    }
    case pb::Event::kPhaseBegan: {
      const auto& e = p.phase_began();
      return result<rs::Event>(
          r, ev::PhaseBegan{r.side(e.side(), "side"), r.phase(e.phase(), "phase"), e.game_turn()});
    }
    case pb::Event::kPhaseEnded: {
      const auto& e = p.phase_ended();
      return result<rs::Event>(
          r, ev::PhaseEnded{r.side(e.side(), "side"), r.phase(e.phase(), "phase")});
    }
    case pb::Event::kMoved: {
      const auto& e = p.moved();
      if (e.path_size() == 0) r.fail("a move event needs a path");
      return result<rs::Event>(
          r, ev::Moved{r.side(e.side(), "side"), r.hex(e.has_from(), e.from(), "a from hex"),
                       r.path(e.path()), figures(e.figures()), r.facing(e.facing(), "facing"),
                       r.posture(e.posture(), "posture")});
    }
    case pb::Event::kFaced: {
      const auto& e = p.faced();
      return result<rs::Event>(
          r, ev::Faced{r.side(e.side(), "side"), r.hex(e.has_hex(), e.hex(), "a hex"),
                       r.facing(e.facing(), "facing")});
    }
    case pb::Event::kPostureSet: {
      const auto& e = p.posture_set();
      return result<rs::Event>(
          r, ev::PostureSet{r.side(e.side(), "side"), r.hex(e.has_hex(), e.hex(), "a hex"),
                            r.posture(e.posture(), "posture")});
    }
    case pb::Event::kAttacked: {
      const auto& e = p.attacked();
      ev::Attacked a;
      a.side = r.side(e.side(), "side");
      a.from = r.hex(e.has_from(), e.from(), "a from hex");
      a.target = r.hex(e.has_target(), e.target(), "a target");
      a.attackers = figures(e.attackers());
      a.posture = r.posture(e.posture(), "posture");
      a.cover = e.cover();
      a.rear = e.rear();
      a.total = e.total_tenths();
      a.sure = e.sure();
      a.facing = r.facing(e.facing(), "facing");
      return result<rs::Event>(r, a);
    }
    case pb::Event::kFractionRolled: {
      const auto& e = p.fraction_rolled();
      return rs::Event{ev::FractionRolled{e.fraction_tenths(), e.face(), e.extra()}};
    }
    case pb::Event::kCasualties: {
      const auto& e = p.casualties();
      return result<rs::Event>(
          r, ev::Casualties{r.side(e.side(), "side"), r.hex(e.has_hex(), e.hex(), "a hex"),
                            figures(e.lost()), e.strength()});
    }
    case pb::Event::kGameEnded: {
      const auto o = outcome(p.game_ended().outcome());
      if (!o) r.fail("unknown outcome");
      return result<rs::Event>(r, ev::GameEnded{o.value_or(Outcome{})});
    }
    case pb::Event::KIND_NOT_SET:
      break;
  }
  return malformed("event", "malformed event: it names no kind");
}

pb::Event to_proto(const rs::Event& e) {
  pb::Event p;
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ev::RollOff>) {
          p.mutable_roll_off()->set_side(side(x.side));
          p.mutable_roll_off()->set_face(x.face);
        } else if constexpr (std::is_same_v<T, ev::RollOffWon>) {
          p.mutable_roll_off_won()->set_winner(side(x.winner));
        } else if constexpr (std::is_same_v<T, ev::DeploymentBegan>) {
          auto* d = p.mutable_deployment_began();
          d->set_side(side(x.side));
          d->mutable_rows()->set_first(x.rows.first);
          d->mutable_rows()->set_last(x.rows.last);
        } else if constexpr (std::is_same_v<T, ev::Deployed>) {
          auto* d = p.mutable_deployed();
          d->set_side(side(x.side));
          *d->mutable_hex() = coord(x.hex);
          *d->mutable_figures() = figures(x.figures);
          d->set_facing(facing(x.facing));
        } else if constexpr (std::is_same_v<T, ev::DeploymentEnded>) {
          p.mutable_deployment_ended()->set_side(side(x.side));
          *p.mutable_deployment_ended()->mutable_left_out() = figures(x.left_out);
        } else if constexpr (std::is_same_v<T, ev::BattleBegan>) {
          p.mutable_battle_began()->set_start_strength_a(x.start_strength[0]);
          p.mutable_battle_began()->set_start_strength_b(x.start_strength[1]);
        } else if constexpr (std::is_same_v<T, ev::PhaseBegan>) {
          auto* d = p.mutable_phase_began();
          d->set_side(side(x.side));
          d->set_phase(phase(x.phase));
          d->set_game_turn(x.game_turn);
        } else if constexpr (std::is_same_v<T, ev::PhaseEnded>) {
          p.mutable_phase_ended()->set_side(side(x.side));
          p.mutable_phase_ended()->set_phase(phase(x.phase));
        } else if constexpr (std::is_same_v<T, ev::Moved>) {
          auto* d = p.mutable_moved();
          d->set_side(side(x.side));
          *d->mutable_from() = coord(x.from);
          for (rs::Hex h : x.path)
            *d->add_path() = coord(h);
          *d->mutable_figures() = figures(x.figures);
          d->set_facing(facing(x.facing));
          d->set_posture(posture(x.posture));
        } else if constexpr (std::is_same_v<T, ev::Faced>) {
          p.mutable_faced()->set_side(side(x.side));
          *p.mutable_faced()->mutable_hex() = coord(x.hex);
          p.mutable_faced()->set_facing(facing(x.facing));
        } else if constexpr (std::is_same_v<T, ev::PostureSet>) {
          p.mutable_posture_set()->set_side(side(x.side));
          *p.mutable_posture_set()->mutable_hex() = coord(x.hex);
          p.mutable_posture_set()->set_posture(posture(x.posture));
        } else if constexpr (std::is_same_v<T, ev::Attacked>) {
          auto* d = p.mutable_attacked();
          d->set_side(side(x.side));
          *d->mutable_from() = coord(x.from);
          *d->mutable_target() = coord(x.target);
          *d->mutable_attackers() = figures(x.attackers);
          d->set_posture(posture(x.posture));
          d->set_cover(x.cover);
          d->set_rear(x.rear);
          d->set_total_tenths(x.total);
          d->set_sure(x.sure);
          d->set_facing(facing(x.facing));
        } else if constexpr (std::is_same_v<T, ev::FractionRolled>) {
          auto* d = p.mutable_fraction_rolled();
          d->set_fraction_tenths(x.fraction);
          d->set_face(x.face);
          d->set_extra(x.extra);
        } else if constexpr (std::is_same_v<T, ev::Casualties>) {
          auto* d = p.mutable_casualties();
          d->set_side(side(x.side));
          *d->mutable_hex() = coord(x.hex);
          *d->mutable_lost() = figures(x.lost);
          d->set_strength(x.strength);
        } else {
          *p.mutable_game_ended()->mutable_outcome() = outcome(x.outcome);
        }
      },
      e);
  return p;
}

// ---- state ------------------------------------------------------------------------------

pb::State to_proto(const rs::State& s) {
  pb::State p;
  p.set_version(s.version);
  p.set_name(s.name);
  p.set_width(s.width);
  p.set_height(s.height);
  p.set_turn_limit(s.turn_limit);
  p.set_phase(phase(s.phase));
  p.set_active(side(s.active));
  p.set_first(side(s.first));
  p.set_game_turn(s.game_turn);
  p.mutable_zone()->set_first(s.zone.first);
  p.mutable_zone()->set_last(s.zone.last);
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    pb::SideTally* t = i == 0 ? p.mutable_side_a() : p.mutable_side_b();
    t->set_army(s.army_names[k]);
    *t->mutable_to_deploy() = figures(s.to_deploy[k]);
    t->set_start_strength(s.start_strength[k]);
    t->set_lost_strength(s.lost_strength[k]);
    *t->mutable_losses() = figures(s.losses[k]);
    t->set_roll_off(s.roll_off[k]);
  }
  if (s.outcome) *p.mutable_outcome() = outcome(*s.outcome);
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    const rs::Tile& t = s.tiles[i];
    pb::Tile* out = p.add_tiles();
    *out->mutable_hex() = coord(s.hex_of(i));
    out->set_terrain(static_cast<pb::Terrain>(static_cast<int>(t.terrain)));
    out->set_crossing(static_cast<pb::Crossing>(static_cast<int>(t.crossing)));
    out->set_capacity(t.capacity);
    if (!t.occupied()) continue;
    pb::Troops* troops = out->mutable_troops();
    troops->set_side(side(t.side));
    *troops->mutable_figures() = figures(t.figures);
    *troops->mutable_unmoved() = figures(t.unmoved);
    troops->set_facing(facing(t.facing));
    troops->set_posture(posture(t.posture));
    troops->set_attacked(t.attacked);
  }
  for (rs::Hex h : s.zones[0])
    *p.add_zone_a() = coord(h);
  for (rs::Hex h : s.zones[1])
    *p.add_zone_b() = coord(h);
  return p;
}

Checked<rs::State> to_domain(const pb::State& p) {
  Reader r("state");
  rs::State s;
  s.version = p.version();
  s.name = p.name();
  s.width = p.width();
  s.height = p.height();
  s.turn_limit = p.turn_limit();
  s.phase = r.phase(p.phase(), "phase");
  s.active = r.side(p.active(), "active");
  s.first = r.side(p.first(), "first");
  s.game_turn = p.game_turn();
  s.zone = {p.zone().first(), p.zone().last()};
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const pb::SideTally& t = i == 0 ? p.side_a() : p.side_b();
    s.army_names[k] = t.army();
    s.to_deploy[k] = figures(t.to_deploy());
    s.start_strength[k] = t.start_strength();
    s.lost_strength[k] = t.lost_strength();
    s.losses[k] = figures(t.losses());
    s.roll_off[k] = t.roll_off();
  }
  if (p.has_outcome()) {
    s.outcome = outcome(p.outcome());
    if (!s.outcome) r.fail("unknown outcome");
  }
  if (s.width < 1 || s.height < 1 || s.width > rs::kMaxMapSide || s.height > rs::kMaxMapSide) {
    r.fail("map size " + std::to_string(s.width) + " x " + std::to_string(s.height));
  } else if (p.tiles_size() != s.width * s.height) {
    r.fail("it has " + std::to_string(p.tiles_size()) + " tiles for a " + std::to_string(s.width) +
           " x " + std::to_string(s.height) + " map");
  }
  for (int i = 0; r.ok() && i < p.tiles_size(); ++i) {
    const pb::Tile& in = p.tiles(i);
    rs::Tile t;
    const rs::Hex at = r.hex(in.has_hex(), in.hex(), "a hex on every tile");
    if (r.ok() && at != s.hex_of(static_cast<std::size_t>(i))) r.fail("tiles out of order");
    t.terrain = r.terrain(in.terrain(), "terrain");
    t.crossing = r.crossing(in.crossing(), "crossing");
    t.capacity = in.capacity();
    if (in.has_troops()) {
      const pb::Troops& troops = in.troops();
      t.side = r.side(troops.side(), "side");
      t.figures = figures(troops.figures());
      t.unmoved = figures(troops.unmoved());
      t.facing = r.facing(troops.facing(), "facing");
      t.posture = r.posture(troops.posture(), "posture");
      t.attacked = troops.attacked();
      if (t.figures.empty()) r.fail("troops without figures");
    }
    s.tiles.push_back(t);
  }
  if (p.zone_a_size() > p.tiles_size() || p.zone_b_size() > p.tiles_size()) {
    r.fail("a zone lists more hexes than the map has");
  } else {
    s.zones[0] = r.path(p.zone_a());
    s.zones[1] = r.path(p.zone_b());
  }
  if (!r.ok()) return r.error();
  if (auto broken = rs::Game::check(s)) return malformed("state", "inconsistent state: " + *broken);
  return s;
}

// ---- legal ------------------------------------------------------------------------------

pb::Legal to_proto(const rs::Legal& l) {
  pb::Legal p;
  p.set_side(side(l.side));
  p.set_phase(phase(l.phase));
  p.set_end_phase(l.end_phase);
  rs::Figures space;
  for (rs::Troop t : rs::kAllTroops)
    space[t] = l.space[static_cast<std::size_t>(rs::index(t))];
  *p.mutable_space() = figures(space);
  auto groups = [&](const std::vector<rs::Group>& in, bool with_from,
                    google::protobuf::RepeatedPtrField<pb::Legal::Group>* out) {
    for (const rs::Group& g : in) {
      pb::Legal::Group* pg = out->Add();
      if (with_from) *pg->mutable_from() = coord(g.from);
      add_types(g.types, pg->mutable_types());
      *pg->mutable_available() = figures(g.available);
      pg->set_reach(g.reach);
      for (const rs::Destination& d : g.destinations) {
        pb::Legal::Destination* pd = pg->add_destinations();
        *pd->mutable_hex() = coord(d.hex);
        for (rs::Hex h : d.path)
          *pd->add_path() = coord(h);
        *pd->mutable_most() = figures(d.most);
        pd->set_room(d.room);
      }
    }
  };
  groups(l.deploy, false, p.mutable_deploy());
  groups(l.moves, true, p.mutable_moves());
  for (const rs::Passage& pass : l.passages) {
    pb::Legal::Passage* pp = p.add_passages();
    add_types(pass.types, pp->mutable_types());
    for (rs::Hex h : pass.hexes)
      *pp->add_hexes() = coord(h);
  }
  for (const rs::FacingChoice& f : l.facings) {
    pb::Legal::FacingChoice* pf = p.add_facings();
    *pf->mutable_hex() = coord(f.hex);
    pf->set_facing(facing(f.facing));
  }
  for (const rs::PostureChoice& c : l.postures) {
    pb::Legal::PostureChoice* pc = p.add_postures();
    *pc->mutable_hex() = coord(c.hex);
    pc->set_posture(posture(c.posture));
  }
  for (const rs::AttackChoice& a : l.attacks) {
    pb::Legal::AttackChoice* pa = p.add_attacks();
    *pa->mutable_from() = coord(a.from);
    for (rs::Hex h : a.targets)
      *pa->add_targets() = coord(h);
  }
  return p;
}

pb::AttackForecast to_proto(const rs::AttackForecast& f) {
  pb::AttackForecast p;
  *p.mutable_target() = coord(f.target);
  p.set_posture(posture(f.posture));
  p.set_cover(f.cover);
  p.set_rear(f.rear);
  for (const rs::AttackTerm& t : f.terms) {
    pb::AttackTerm* pt = p.add_terms();
    pt->set_troop(static_cast<pb::Troop>(rs::index(t.troop)));
    pt->set_figures(t.figures);
    pt->set_chance_tenths(t.chance);
    pt->set_rear_bonus_tenths(t.rear_bonus);
    pt->set_total_tenths(t.total);
  }
  p.set_total_tenths(f.total);
  p.set_sure(f.sure);
  p.set_fraction_tenths(f.fraction);
  p.set_roll(f.roll);
  p.set_extra_faces(f.extra_faces);
  p.set_die_faces(f.die_faces);
  *p.mutable_lost() = figures(f.lost);
  p.set_strength(f.strength);
  if (f.roll) {
    *p.mutable_lost_extra() = figures(f.lost_extra);
    p.set_strength_extra(f.strength_extra);
  }
  return p;
}

void add_forecasts(const std::vector<rs::AttackForecast>& forecasts, pb::Legal* p) {
  for (const rs::AttackForecast& f : forecasts) {
    for (pb::Legal::AttackChoice& a : *p->mutable_attacks()) {
      if (hex(a.from()) == f.from) *a.add_forecasts() = to_proto(f);
    }
  }
}

}  // namespace castra::wire::stand
