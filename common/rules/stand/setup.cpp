// The released rulesets, the initial state of a scenario and the roll-off (or, after a
// fixed deployment, the start of the battle).
#include <set>

#include "common/rules/rule_set.hpp"
#include "common/rules/stand/checks.hpp"
#include "common/rules/stand/deployment.hpp"
#include "common/rules/stand/game.hpp"

namespace castra::rules::stand {

static_assert(castra::rules::RuleSet<Game>);

namespace {

RuleError bad_scenario(const std::string& message) {
  return refuse("stand.scenario", "scenario: " + message);
}

// A fixed deployment's army may name no figures: it is the sum of its placements.
std::optional<RuleError> check_army(const Army& army, Side side, bool fixed) {
  const std::string who = std::string("side ") + side_letter(side) + "'s army";
  for (Troop t : kAllTroops) {
    if (army.figures[t] < 0 || army.figures[t] > kMaxFiguresPerType) {
      return bad_scenario(who + " has " + std::to_string(army.figures[t]) + " " +
                          std::string(name(t)) + "; each type must be 0 to " +
                          std::to_string(kMaxFiguresPerType));
    }
  }
  if (army.figures.empty() && !fixed) return bad_scenario(who + " has no figures");
  return std::nullopt;
}

// Some hex of the side's zone (the winner's, the smaller, with the default rows) must take
// a figure of the army, so deployment can always place something and every side starts
// with strength.
bool zone_takes_a_figure(const State& s, const Ruleset& rs, Side side, const Figures& army) {
  for (Hex h : zone_hexes(s, rs, side, false)) {
    for (Troop t : kAllTroops) {
      if (army[t] == 0) continue;
      Figures one;
      one[t] = 1;
      if (end_block(s, rs, side, one, h) == Block::kNone) return true;
    }
  }
  return false;
}

// What the rulings' "Scenario deployment" and "Map height" ask of the scenario as a whole,
// before any hex is read.
std::optional<RuleError> check_deployment_kind(const Scenario& sc, const Ruleset& rs) {
  const bool fixed = !sc.placements.empty();
  const bool zones = !sc.zones[0].empty() || !sc.zones[1].empty();
  if (fixed && zones) {
    return refuse("stand.7.deployment",
                  "scenario: a fixed deployment places every body of troops; it has no "
                  "deployment zones");
  }
  if (!fixed && sc.first_side != Side::kA) {
    return refuse("stand.7.deployment",
                  "scenario: first_side names who moves first after a fixed deployment; "
                  "without placements the roll-off decides");
  }
  const int rows_needed = rs.loser_rows + rs.winner_rows;
  if (!fixed && !zones && sc.height < rows_needed) {
    return refuse("stand.7.map_height",
                  "scenario: the map has " + std::to_string(sc.height) +
                      " rows; the default deployment rows (" + std::to_string(rs.loser_rows) +
                      " for the roll-off's loser, " + std::to_string(rs.winner_rows) +
                      " for the winner) need " + std::to_string(rows_needed) +
                      ": give deployment zones or a fixed deployment");
  }
  return std::nullopt;
}

}  // namespace

std::string_view Game::current_version() {
  return stand_1().version;
}

const Ruleset* Game::ruleset(std::string_view version) {
  if (version == stand_1().version) return &stand_1();
  return nullptr;
}

const Ruleset& rules_of(const State& s) {
  const Ruleset* rs = Game::ruleset(s.version);
  return rs != nullptr ? *rs : stand_1();
}

Checked<State> Game::initial_state(const Scenario& sc, const Ruleset& rs) {
  if (sc.width < 1 || sc.width > kMaxMapSide || sc.height < 1 || sc.height > kMaxMapSide) {
    return bad_scenario("the map is " + std::to_string(sc.width) + " x " +
                        std::to_string(sc.height) + "; each side must be 1 to " +
                        std::to_string(kMaxMapSide));
  }
  if (auto e = check_deployment_kind(sc, rs)) return *e;
  if (sc.turn_limit < 0 || sc.turn_limit > kMaxTurnLimit) {
    return bad_scenario("the turn limit is " + std::to_string(sc.turn_limit) +
                        "; it must be 1 to " + std::to_string(kMaxTurnLimit) +
                        ", or 0 for the default");
  }
  const bool fixed = !sc.placements.empty();
  for (Side side : {Side::kA, Side::kB}) {
    if (auto e = check_army(sc.armies[static_cast<std::size_t>(index(side))], side, fixed)) {
      return *e;
    }
  }

  State s;
  s.version = std::string(rs.version);
  s.name = sc.name;
  s.width = sc.width;
  s.height = sc.height;
  s.turn_limit = sc.turn_limit == 0 ? rs.default_turn_limit : sc.turn_limit;
  s.tiles.assign(static_cast<std::size_t>(sc.width * sc.height), Tile{});
  for (Tile& t : s.tiles)
    t.capacity = rs.default_capacity(Terrain::kOpen, Crossing::kNone);

  std::set<Hex> seen;
  for (const HexSpec& spec : sc.hexes) {
    const std::string where = "hex " + to_string(spec.hex);
    if (!s.on_map(spec.hex)) return bad_scenario(where + " is not on the map");
    if (!seen.insert(spec.hex).second) return bad_scenario(where + " is described twice");
    if (index(spec.terrain) < 0 || index(spec.terrain) >= kTerrains) {
      return bad_scenario(where + " has an unknown terrain");
    }
    const int crossing = static_cast<int>(spec.crossing);
    if (crossing < 0 || crossing >= kCrossings) {
      return bad_scenario(where + " has an unknown crossing");
    }
    if (spec.crossing != Crossing::kNone && spec.terrain != Terrain::kWater) {
      return bad_scenario(where + " has a " + std::string(name(spec.crossing)) +
                          " but is not water");
    }
    if (spec.capacity && (*spec.capacity < 0 || *spec.capacity > kMaxCapacity)) {
      return bad_scenario(where + " has capacity " + std::to_string(*spec.capacity) +
                          "; it must be 0 to " + std::to_string(kMaxCapacity));
    }
    Tile& tile = s.at(spec.hex);
    tile.terrain = spec.terrain;
    tile.crossing = spec.crossing;
    tile.capacity =
        spec.capacity ? *spec.capacity : rs.default_capacity(spec.terrain, spec.crossing);
  }

  for (Side side : {Side::kA, Side::kB}) {
    const auto i = static_cast<std::size_t>(index(side));
    s.army_names[i] = sc.armies[i].name;
  }
  if (fixed) {
    if (auto e = place_fixed(s, rs, sc)) return *e;
    return s;
  }
  if (auto e = set_zones(s, sc)) return *e;
  for (Side side : {Side::kA, Side::kB}) {
    const auto i = static_cast<std::size_t>(index(side));
    s.to_deploy[i] = sc.armies[i].figures;
    if (zone_takes_a_figure(s, rs, side, sc.armies[i].figures)) continue;
    if (s.listed_zones()) {
      return refuse("stand.7.deployment", std::string("scenario: no hex of side ") +
                                              side_letter(side) +
                                              "'s deployment zone can take a figure of its army");
    }
    return bad_scenario(std::string("no hex of side ") + side_letter(side) + "'s first " +
                        std::to_string(rs.winner_rows) + " rows can take a figure of its army");
  }
  return s;
}

std::vector<Event> Game::begin(const State& s, Dice& dice) {
  if (s.phase != Phase::kRollOff) return {};
  const Ruleset& rs = rules_of(s);
  // A fixed deployment names who moves first: no die is rolled before the first turn.
  if (deployed_by_scenario(s)) {
    return {ev::BattleBegan{strength_on_map(s, rs)}, ev::PhaseBegan{s.first, Phase::kMove, 1}};
  }
  std::vector<Event> events;
  int a = 0;
  int b = 0;
  do {
    a = dice.roll(rs.roll_off_die);
    b = dice.roll(rs.roll_off_die);
    events.push_back(ev::RollOff{Side::kA, a});
    events.push_back(ev::RollOff{Side::kB, b});
  } while (a == b);
  const Side winner = a > b ? Side::kA : Side::kB;
  const Side loser = other(winner);
  events.push_back(ev::RollOffWon{winner});
  events.push_back(ev::DeploymentBegan{loser, zone_rows(s, rs, loser, true)});
  return events;
}

}  // namespace castra::rules::stand
