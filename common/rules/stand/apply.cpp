// Game::apply and the read-only views of a state: acting, outcome, projection, canonical
// bytes and the invariant check.
#include <string>

#include "common/rules/stand/game.hpp"

namespace castra::rules::stand {
namespace {

// The hex with its ground only and every troop field at its default.
Tile ground_of(const Tile& t) {
  Tile g;
  g.terrain = t.terrain;
  g.crossing = t.crossing;
  g.capacity = t.capacity;
  return g;
}

void clear_if_empty(Tile& t) {
  if (!t.occupied()) t = ground_of(t);
}

void add(Figures& into, const Figures& f, int sign) {
  for (Troop t : kAllTroops)
    into[t] += sign * f[t];
}

struct Applier {
  State& s;

  void operator()(const ev::RollOff& e) {
    s.roll_off[static_cast<std::size_t>(index(e.side))] = e.face;
  }
  void operator()(const ev::RollOffWon& e) { s.first = e.winner; }
  void operator()(const ev::DeploymentBegan& e) {
    s.phase = Phase::kDeploy;
    s.active = e.side;
    s.zone = e.rows;
  }
  void operator()(const ev::Deployed& e) {
    add(s.to_deploy[static_cast<std::size_t>(index(e.side))], e.figures, -1);
    Tile& t = s.at(e.hex);
    t.side = e.side;
    add(t.figures, e.figures, +1);
    t.facing = e.facing;
  }
  void operator()(const ev::DeploymentEnded& e) {
    add(s.to_deploy[static_cast<std::size_t>(index(e.side))], e.left_out, -1);
  }
  void operator()(const ev::BattleBegan& e) { s.start_strength = e.start_strength; }
  void operator()(const ev::PhaseBegan& e) {
    s.phase = e.phase;
    s.active = e.side;
    s.game_turn = e.game_turn;
    s.zone = RowSpan{};
    // The move phase frees the mover's figures to move once; nothing else may move.
    for (Tile& t : s.tiles) {
      t.unmoved = e.phase == Phase::kMove && t.held_by(e.side) ? t.figures : Figures{};
      t.attacked = false;
    }
  }
  void operator()(const ev::PhaseEnded&) {}
  void operator()(const ev::Moved& e) {
    Tile& from = s.at(e.from);
    add(from.figures, e.figures, -1);
    add(from.unmoved, e.figures, -1);
    clear_if_empty(from);
    Tile& to = s.at(e.path.back());
    to.side = e.side;
    add(to.figures, e.figures, +1);
    to.facing = e.facing;
    to.posture = e.posture;
  }
  void operator()(const ev::Faced& e) { s.at(e.hex).facing = e.facing; }
  void operator()(const ev::PostureSet& e) { s.at(e.hex).posture = e.posture; }
  void operator()(const ev::Attacked& e) {
    Tile& from = s.at(e.from);
    from.attacked = true;
    from.facing = e.facing;
  }
  void operator()(const ev::FractionRolled&) {}
  void operator()(const ev::Casualties& e) {
    Tile& t = s.at(e.hex);
    add(t.figures, e.lost, -1);
    for (Troop k : kAllTroops)
      t.unmoved[k] = std::min(t.unmoved[k], t.figures[k]);
    clear_if_empty(t);
    const auto i = static_cast<std::size_t>(index(e.side));
    add(s.losses[i], e.lost, +1);
    s.lost_strength[i] += e.strength;
  }
  void operator()(const ev::GameEnded& e) {
    s.phase = Phase::kOver;
    s.outcome = e.outcome;
  }
};

void write_figures(ByteWriter& w, const Figures& f) {
  for (Troop t : kAllTroops)
    w.i32(f[t]);
}

std::string where(Hex h) {
  return "hex " + to_string(h) + ": ";
}

}  // namespace

void Game::apply(State& s, const Event& e) {
  std::visit(Applier{s}, e);
}

Visibility Game::visibility(const Event&) {
  return Visibility::everyone();
}
std::string Game::sealed_bytes(const Event&) {
  return {};
}
State Game::project(const State& s, Viewer) {
  return s;
}

Acting Game::acting(const State& s) {
  switch (s.phase) {
    case Phase::kDeploy:
    case Phase::kMove:
    case Phase::kFight:
      return {s.active == Side::kA, s.active == Side::kB, std::string(name(s.phase)), s.game_turn};
    case Phase::kRollOff:
    case Phase::kOver:
      break;
  }
  return {false, false, std::string(name(s.phase)), s.game_turn};
}

std::optional<Outcome> Game::outcome(const State& s) {
  return s.outcome;
}

void Game::encode(const State& s, ByteWriter& w) {
  w.tag('S');
  w.str(s.version);
  w.str(s.name);
  w.i32(s.width);
  w.i32(s.height);
  w.i32(s.turn_limit);
  for (const std::string& n : s.army_names)
    w.str(n);
  w.u8(static_cast<std::uint8_t>(s.phase));
  w.u8(static_cast<std::uint8_t>(s.active));
  w.u8(static_cast<std::uint8_t>(s.first));
  for (int f : s.roll_off)
    w.i32(f);
  w.i32(s.game_turn);
  w.i32(s.zone.first);
  w.i32(s.zone.last);
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    write_figures(w, s.to_deploy[k]);
    w.i32(s.start_strength[k]);
    w.i32(s.lost_strength[k]);
    write_figures(w, s.losses[k]);
  }
  w.boolean(s.outcome.has_value());
  if (s.outcome) {
    w.u8(static_cast<std::uint8_t>(s.outcome->kind));
    w.str(s.outcome->reason);
  }
  w.u32(static_cast<std::uint32_t>(s.tiles.size()));
  for (const Tile& t : s.tiles) {
    w.tag('T');
    w.u8(static_cast<std::uint8_t>(t.terrain));
    w.u8(static_cast<std::uint8_t>(t.crossing));
    w.i32(t.capacity);
    w.u8(static_cast<std::uint8_t>(t.side));
    write_figures(w, t.figures);
    write_figures(w, t.unmoved);
    w.i32(t.facing);
    w.u8(static_cast<std::uint8_t>(t.posture));
    w.boolean(t.attacked);
  }
  // Listed zones come last and only when given, so a state without them (every state of
  // a scenario without them, every record made before them) keeps its bytes and its hash.
  if (s.listed_zones()) {
    w.tag('Z');
    for (const std::vector<Hex>& zone : s.zones) {
      w.u32(static_cast<std::uint32_t>(zone.size()));
      for (Hex h : zone) {
        w.i32(h.col);
        w.i32(h.row);
      }
    }
  }
}

std::optional<std::string> Game::check(const State& s) {
  const Ruleset* rs = ruleset(s.version);
  if (rs == nullptr) return "unknown rules version '" + s.version + "'";
  if (s.width < 1 || s.height < 1 || s.width > kMaxMapSide || s.height > kMaxMapSide) {
    return "map size " + std::to_string(s.width) + " x " + std::to_string(s.height);
  }
  if (s.tiles.size() != static_cast<std::size_t>(s.width * s.height)) return "tile count";
  if (static_cast<int>(s.phase) > static_cast<int>(Phase::kOver)) return "unknown phase";
  if ((s.phase == Phase::kOver) != s.outcome.has_value()) return "outcome without game end";
  if (s.turn_limit < 1 || s.turn_limit > kMaxTurnLimit) return "turn limit";
  if (s.game_turn < 0 || s.game_turn > s.turn_limit) return "game turn";
  if ((s.phase == Phase::kMove || s.phase == Phase::kFight) && s.game_turn < 1) {
    return "a move or fight phase before the battle began";
  }
  if (s.zones[0].empty() != s.zones[1].empty()) return "a listed zone for one side only";
  for (const std::vector<Hex>& zone : s.zones) {
    for (std::size_t i = 0; i < zone.size(); ++i) {
      if (!s.on_map(zone[i])) return "zone hex " + to_string(zone[i]) + " off the map";
      const Hex prev = i > 0 ? zone[i - 1] : Hex{};
      if (i > 0 &&
          (prev.row > zone[i].row || (prev.row == zone[i].row && prev.col >= zone[i].col))) {
        return "zone hexes not row by row";
      }
    }
  }
  const bool rows_zone = s.phase == Phase::kDeploy && !s.listed_zones();
  if (rows_zone ? s.zone.first < 0 || s.zone.first > s.zone.last || s.zone.last >= s.height
                : !(s.zone == RowSpan{})) {
    return "deployment zone rows " + std::to_string(s.zone.first) + " to " +
           std::to_string(s.zone.last);
  }
  for (int f : s.roll_off) {
    if (f < 0 || f > static_cast<int>(rs->roll_off_die)) return "roll-off face";
  }
  // Bounds first, so the sums below cannot overflow.
  auto bounded = [](const Figures& f) {
    for (Troop t : kAllTroops) {
      if (f[t] < 0 || f[t] > kMaxFiguresPerType) return false;
    }
    return true;
  };
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!bounded(s.to_deploy[k]) || !bounded(s.losses[k])) return "army tally out of range";
  }
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    const Tile& t = s.tiles[i];
    const Hex h = s.hex_of(i);
    if (index(t.terrain) >= kTerrains || static_cast<int>(t.crossing) >= kCrossings) {
      return where(h) + "unknown terrain";
    }
    if (t.crossing != Crossing::kNone && t.terrain != Terrain::kWater) {
      return where(h) + "crossing on dry land";
    }
    if (t.capacity < 0 || t.capacity > kMaxCapacity) return where(h) + "capacity out of range";
    if (!bounded(t.figures)) return where(h) + "figures out of range";
    for (Troop k : kAllTroops) {
      if (t.unmoved[k] < 0 || t.unmoved[k] > t.figures[k]) return where(h) + "unmoved count";
    }
    if (!t.occupied()) {
      if (!(t == ground_of(t))) return where(h) + "an empty hex keeps troop fields";
      continue;
    }
    if (!valid_direction(t.facing)) return where(h) + "facing " + std::to_string(t.facing);
    if (static_cast<int>(t.posture) > 1) return where(h) + "unknown posture";
    if (index(t.side) > 1) return where(h) + "unknown side";
    if (!rs->shareable(mask_of(t.figures))) {
      return where(h) + to_string(t.figures) + " share a hex";
    }
    for (Troop k : kAllTroops) {
      if (t.figures[k] > 0 && !rs->may_enter_terrain(k, t.terrain, t.crossing)) {
        return where(h) + std::string(name(k)) + " in " + std::string(name(t.terrain));
      }
    }
    if (rs->space_of(t.figures) > t.capacity) {
      return where(h) + "holds " + std::to_string(rs->space_of(t.figures)) + " space of " +
             std::to_string(t.capacity);
    }
    if (t.attacked && s.phase != Phase::kFight && s.phase != Phase::kOver) {
      return where(h) + "attacked outside a fight";
    }
    if (!t.unmoved.empty() && (s.phase != Phase::kMove || t.side != s.active)) {
      return where(h) + "unmoved figures outside their move phase";
    }
  }
  for (int i = 0; i < 2; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (s.lost_strength[k] != rs->strength_of(s.losses[k])) return "lost strength tally";
    if (s.game_turn > 0 && s.lost_strength[k] > s.start_strength[k]) return "lost more than had";
    if (s.game_turn > 0 && s.start_strength[k] <= 0) return "a side began with no strength";
    if (s.start_strength[k] < 0 || s.start_strength[k] > kMaxStrength) return "start strength";
  }
  return std::nullopt;
}

}  // namespace castra::rules::stand
