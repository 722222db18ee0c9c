#include "common/campaign/battle.hpp"

#include <algorithm>
#include <string>

#include "common/rules/optio/game.hpp"
#include "common/rules/stand/game.hpp"

namespace castra::campaign {

namespace {

using rules::Side;

bool fielded_id(const std::vector<int>& ids, int id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

const optio::ScenarioUnit* placement(const optio::Scenario& map, int id) {
  auto it = std::find_if(map.units.begin(), map.units.end(),
                         [&](const optio::ScenarioUnit& u) { return u.id == id; });
  return it == map.units.end() ? nullptr : &*it;
}

// The unit a fielded leader starts with in a fixed deployment: the map's choice when that
// unit fights, else the first fielded unit of his command.
int start_unit(const optio::Scenario& map, const OptioRoster& r, const Selection& fielded,
               const OptioLeader& l) {
  auto entry = std::find_if(map.leaders.begin(), map.leaders.end(),
                            [&](const optio::ScenarioLeader& m) { return m.id == l.id; });
  if (entry != map.leaders.end() && fielded_id(fielded.units, entry->unit)) {
    const OptioUnit* u = r.unit(entry->unit);
    if (u != nullptr && u->command == l.command) return u->id;
  }
  for (const OptioUnit& u : r.units) {
    if (u.command == l.command && fielded_id(fielded.units, u.id)) return u.id;
  }
  return 0;
}

rules::Checked<Map> optio_battle(const optio::Scenario& map, const std::array<Roster, 2>& rosters,
                                 const std::array<Selection, 2>& fielded) {
  const bool fixed = map.deployment == optio::DeploymentMode::kFixed;
  optio::Scenario sc = map;
  sc.units.clear();
  sc.leaders.clear();
  for (Side side : {Side::kA, Side::kB}) {
    const OptioRoster& r = *rosters[static_cast<std::size_t>(rules::index(side))].optio();
    const Selection& f = fielded[static_cast<std::size_t>(rules::index(side))];
    for (const OptioUnit& u : r.units) {
      if (!fielded_id(f.units, u.id)) continue;
      optio::ScenarioUnit su;
      su.id = u.id;
      su.side = side;
      su.type = u.type;
      su.bases = u.bases;
      su.command = u.command;
      su.morale = u.morale;
      su.name = u.name;
      if (fixed) {
        const optio::ScenarioUnit* at = placement(map, u.id);
        if (at == nullptr || !at->at) {
          return rules::refuse("campaign.battle.placement",
                               "the map places no unit " + std::to_string(u.id));
        }
        if (at->side != side) {
          return rules::refuse("campaign.battle.placement",
                               "the map places unit " + std::to_string(u.id) + " for side " +
                                   rules::side_letter(at->side) + "; it is side " +
                                   rules::side_letter(side) + "'s");
        }
        su.at = at->at;
        su.facing = at->facing;
        su.formation = at->formation;
        // The battle's own situation (a river just crossed), not the campaign's.
        su.disordered = at->disordered;
        su.disorder_turns = at->disorder_turns;
        su.missile_hits = at->missile_hits;
      }
      sc.units.push_back(std::move(su));
    }
    for (const OptioLeader& l : r.leaders) {
      if (!fielded_id(f.leaders, l.id)) continue;
      sc.leaders.push_back({l.id, side, l.general, l.command, fixed ? start_unit(map, r, f, l) : 0,
                            l.range, l.name});
    }
  }
  Map out = std::move(sc);
  if (auto refused = engine_refusal(out)) return *refused;
  return out;
}

// A fixed deployment's placements are places, each with room for the figures the map gives
// it: in their order, each takes of every type as many of the side's fielded figures as it has
// room for; one left empty is dropped.
rules::Checked<std::vector<stand::Placement>> fill(const std::vector<stand::Placement>& places,
                                                   const std::array<Selection, 2>& fielded) {
  std::array<stand::Figures, 2> left = {fielded[0].figures, fielded[1].figures};
  std::vector<stand::Placement> out;
  for (const stand::Placement& place : places) {
    stand::Figures& from = left[static_cast<std::size_t>(rules::index(place.side))];
    stand::Placement filled = place;
    for (stand::Troop t : stand::kAllTroops) {
      filled.figures[t] = std::clamp(from[t], 0, place.figures[t]);
      from[t] -= filled.figures[t];
    }
    if (!filled.figures.empty()) out.push_back(filled);
  }
  for (Side side : {Side::kA, Side::kB}) {
    const stand::Figures& rest = left[static_cast<std::size_t>(rules::index(side))];
    if (!rest.empty()) {
      return rules::refuse("campaign.battle.placement",
                           std::string("the map's placements have no room for ") +
                               stand::to_string(rest) + " of side " + rules::side_letter(side));
    }
  }
  return out;
}

rules::Checked<Map> stand_battle(const stand::Scenario& map, const std::array<Roster, 2>& rosters,
                                 const std::array<Selection, 2>& fielded) {
  stand::Scenario sc = map;
  for (std::size_t i = 0; i < 2; ++i)
    sc.armies[i] = {rosters[i].army, fielded[i].figures};
  if (!map.placements.empty()) {
    auto placed = fill(map.placements, fielded);
    if (!placed) return placed.error();
    sc.placements = std::move(*placed);
  }
  Map out = std::move(sc);
  if (auto refused = engine_refusal(out)) return *refused;
  return out;
}

}  // namespace

rules::Checked<Map> battle_scenario(const BattleNode& node, const std::array<Roster, 2>& rosters,
                                    const std::array<Selection, 2>& fielded) {
  const bool optio_map = std::holds_alternative<optio::Scenario>(node.map);
  for (const Roster& r : rosters) {
    if ((r.optio() != nullptr) != optio_map) {
      return rules::refuse("campaign.battle.form", "a roster is not of the map's rule set");
    }
  }
  if (const auto* o = std::get_if<optio::Scenario>(&node.map)) {
    return optio_battle(*o, rosters, fielded);
  }
  return stand_battle(std::get<stand::Scenario>(node.map), rosters, fielded);
}

std::optional<rules::RuleError> engine_refusal(const Map& map) {
  if (const auto* o = std::get_if<optio::Scenario>(&map)) {
    auto s = optio::Game::initial_state(*o, *optio::find_ruleset(optio::kCurrentVersion));
    if (!s) return s.error();
    return std::nullopt;
  }
  using stand::Game;
  auto s =
      Game::initial_state(std::get<stand::Scenario>(map), *Game::ruleset(Game::current_version()));
  if (!s) return s.error();
  return std::nullopt;
}

}  // namespace castra::campaign
