#include "common/campaign/check.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/campaign/army.hpp"
#include "common/campaign/battle.hpp"

namespace castra::campaign {

namespace {

using rules::RuleError;
using rules::Side;
using Problem = std::optional<RuleError>;

RuleError bad(std::string message) {
  return rules::refuse("campaign.definition", std::move(message));
}
RuleError bad(const std::string& part, std::string message) {
  return rules::refuse("campaign.definition." + part, std::move(message));
}

const char* side_name(Side s) {
  return s == Side::kA ? "side A" : "side B";
}

bool slug(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// Every roster a side can have is at most its starting roster and every reinforcement.
std::array<Roster, 2> largest_rosters(const Definition& d) {
  std::array<Roster, 2> out = d.rosters;
  for (const BattleNode& b : d.battles) {
    for (Side side : {Side::kA, Side::kB}) {
      auto& r = out[static_cast<std::size_t>(rules::index(side))];
      r = arrive(b, side, std::move(r));
    }
  }
  return out;
}

// Whether `to` can be fought after `from`. Runs after check_graph: the graph has no cycle.
bool leads_to(const Definition& d, const BattleNode& from, const std::string& to) {
  std::set<std::string> seen;
  std::vector<const BattleNode*> stack{&from};
  while (!stack.empty()) {
    const BattleNode* node = stack.back();
    stack.pop_back();
    for (const std::string& next : node->next) {
      if (next.empty() || !seen.insert(next).second) continue;
      if (next == to) return true;
      stack.push_back(d.battle(next));
    }
  }
  return false;
}

// The most each side can bring to `battle`: its starting roster with the reinforcements of
// `battle` and of every battle that can be fought before it. A reinforcement that arrives
// only later is never on the field there, so a fixed deployment need not place it.
std::array<Roster, 2> largest_rosters_at(const Definition& d, const BattleNode& battle) {
  std::array<Roster, 2> out = d.rosters;
  for (const BattleNode& b : d.battles) {
    if (b.id != battle.id && !leads_to(d, b, battle.id)) continue;
    for (Side side : {Side::kA, Side::kB}) {
      auto& r = out[static_cast<std::size_t>(rules::index(side))];
      r = arrive(b, side, std::move(r));
    }
  }
  return out;
}

Problem check_graph(const Definition& d) {
  if (d.battles.empty()) return bad("a campaign has at least one battle");
  std::set<std::string> ids;
  for (const BattleNode& b : d.battles) {
    if (!slug(b.id)) return bad("battle id \"" + b.id + "\" is not made of a-z, 0-9, _ and -");
    if (!ids.insert(b.id).second) return bad("battle " + b.id + " is listed twice");
    if (b.selection_limit < 0) return bad("battle " + b.id + ": a negative selection limit");
    for (const std::string& next : b.next) {
      if (!next.empty() && d.battle(next) == nullptr) {
        return bad("battle " + b.id + " leads to " + next + ", which is no battle");
      }
    }
  }
  if (d.battle(d.first_battle) == nullptr) {
    return bad("the first battle \"" + d.first_battle + "\" is no battle");
  }
  // Depth first from the first battle: an edge back to a battle on the current path is a
  // cycle (a campaign that might never end); a battle never reached is dead data.
  std::map<std::string, int> state;  // 1 on the path, 2 done
  std::vector<std::pair<const BattleNode*, std::size_t>> stack{{d.battle(d.first_battle), 0}};
  state[d.first_battle] = 1;
  while (!stack.empty()) {
    auto& [node, edge] = stack.back();
    if (edge == node->next.size()) {
      state[node->id] = 2;
      stack.pop_back();
      continue;
    }
    const std::string& next = node->next[edge++];
    if (next.empty()) continue;
    if (state[next] == 1) return bad("the battles " + node->id + " and " + next + " form a cycle");
    if (state[next] == 0) {
      state[next] = 1;
      stack.push_back({d.battle(next), 0});
    }
  }
  for (const BattleNode& b : d.battles) {
    if (state[b.id] != 2) return bad("battle " + b.id + " cannot be reached from the first");
  }
  return std::nullopt;
}

Problem check_optio_unit(const optio::Ruleset& rs, const OptioUnit& u, std::set<int>& ids) {
  const std::string who = "unit " + std::to_string(u.id);
  if (u.id < 1 || u.id > rs.max_id)
    return bad("roster", "unit ids are 1.." + std::to_string(rs.max_id));
  if (!ids.insert(u.id).second)
    return bad("roster", who + " is listed twice (ids are unique across both sides)");
  if (u.bases != 1 && u.bases != 2 && u.bases != 4)
    return bad("roster", who + ": a unit is 1, 2 or 4 bases");
  const int max = max_morale(rs, u.type);
  if (u.morale < 0 || u.morale > max) {
    return bad("roster", who + ": morale is 1.." + std::to_string(max) + ", or 0 for full");
  }
  return std::nullopt;
}

// The units and leaders of both sides, reinforcements included: ids unique across both sides,
// one general a side (in its starting roster), a command per leader, a leader per command.
Problem check_optio_rosters(const Definition& d) {
  const optio::Ruleset& rs = *optio::find_ruleset(optio::kCurrentVersion);
  std::set<int> unit_ids, leader_ids, commands;  // unique across both sides, as the engine wants
  for (Side side : {Side::kA, Side::kB}) {
    const OptioRoster& start = *d.rosters[static_cast<std::size_t>(rules::index(side))].optio();
    std::vector<const OptioUnit*> units;
    std::vector<const OptioLeader*> leaders;
    for (const OptioUnit& u : start.units)
      units.push_back(&u);
    for (const OptioLeader& l : start.leaders)
      leaders.push_back(&l);
    for (const BattleNode& b : d.battles) {
      for (const Reinforcement& r : b.reinforcements) {
        if (r.side != side) continue;
        for (const OptioLeader& l : r.leaders) {
          if (l.general) {
            return bad("roster", "battle " + b.id + ": a reinforcement brings no general (a " +
                                     "side has one, from the start)");
          }
          leaders.push_back(&l);
        }
        for (const OptioUnit& u : r.units)
          units.push_back(&u);
      }
    }
    int generals = 0;
    std::set<int> own;
    for (const OptioLeader* l : leaders) {
      const std::string who = "leader " + std::to_string(l->id);
      if (l->id < 1 || l->id > rs.max_id) {
        return bad("roster", "leader ids are 1.." + std::to_string(rs.max_id));
      }
      if (!leader_ids.insert(l->id).second) {
        return bad("roster", who + " is listed twice (ids are unique across both sides)");
      }
      if (l->command < 1 || l->command > rs.max_id) {
        return bad("roster", who + ": command ids are 1.." + std::to_string(rs.max_id));
      }
      if (!commands.insert(l->command).second) {
        return bad("roster", "command " + std::to_string(l->command) +
                                 " has two leaders (command ids are unique across both sides)");
      }
      own.insert(l->command);
      if (l->range < 0) return bad("roster", who + " has a negative range");
      generals += l->general ? 1 : 0;
    }
    if (generals != 1) {
      return bad("roster", std::string(side_name(side)) + " needs exactly one general");
    }
    for (const OptioUnit* u : units) {
      if (auto p = check_optio_unit(rs, *u, unit_ids)) return p;
      if (own.count(u->command) == 0) {
        return bad("roster", "unit " + std::to_string(u->id) + ": command " +
                                 std::to_string(u->command) + " has no leader of its side");
      }
    }
    if (!can_field(d.rosters[static_cast<std::size_t>(rules::index(side))])) {
      return bad("roster",
                 std::string(side_name(side)) + "'s general starts with no unit of his command");
    }
  }
  return std::nullopt;
}

Problem check_carry_over(const OptioCarryOver& c) {
  if (c.morale_recovery < 0) return bad("carry_over", "morale recovery is 0 or more");
  if (c.general.kind != LeaderReplacement::Kind::kPromoted) {
    return bad("carry_over",
               "a killed general must be replaced (PROMOTED): Optio's battles "
               "need a general on each side");
  }
  if (c.general.range < 0 || c.subcommander.range < 0) {
    return bad("carry_over", "a replacement's range is 0 or more");
  }
  return std::nullopt;
}

Problem check_stand_rosters(const Definition& d) {
  auto non_negative = [](const stand::Figures& f) {
    return std::all_of(f.n.begin(), f.n.end(), [](int n) { return n >= 0; });
  };
  for (Side side : {Side::kA, Side::kB}) {
    const Roster& r = d.rosters[static_cast<std::size_t>(rules::index(side))];
    if (!non_negative(r.stand()->figures)) return bad("roster", "a figure count is negative");
    if (!can_field(r))
      return bad("roster", std::string(side_name(side)) + " starts with no figure");
  }
  for (const BattleNode& b : d.battles) {
    for (const Reinforcement& r : b.reinforcements) {
      if (!non_negative(r.figures)) {
        return bad("roster", "battle " + b.id + ": a reinforcement's figure count is negative");
      }
    }
  }
  return std::nullopt;
}

// Each part of the definition is of its rule set.
Problem check_kinds(const Definition& d) {
  const bool optio = d.game == Game::kOptio;
  for (const Roster& r : d.rosters) {
    if ((r.optio() != nullptr) != optio) {
      return bad("a roster is not of the campaign's rule set, " + std::string(game_name(d.game)));
    }
  }
  for (const BattleNode& b : d.battles) {
    if (std::holds_alternative<optio::Scenario>(b.map) != optio) {
      return bad("battle " + b.id + ": the map is not of the campaign's rule set");
    }
    for (const Reinforcement& r : b.reinforcements) {
      const bool has_units = !r.units.empty() || !r.leaders.empty();
      if (optio ? !r.figures.empty() : has_units) {
        return bad("battle " + b.id + ": a reinforcement is not of the campaign's rule set");
      }
    }
  }
  return std::nullopt;
}

// An Optio map's own units and leaders are places (fixed deployment) for roster ids only.
Problem check_optio_places(const BattleNode& b, const std::array<Roster, 2>& largest) {
  const auto& map = std::get<optio::Scenario>(b.map);
  if (map.deployment == optio::DeploymentMode::kZones) {
    if (map.units.empty() && map.leaders.empty()) return std::nullopt;
    return bad("map", "battle " + b.id + ": with deployment zones the map places no units");
  }
  auto in_rosters = [&](auto find) {
    return std::any_of(largest.begin(), largest.end(),
                       [&](const Roster& r) { return find(*r.optio()) != nullptr; });
  };
  for (const optio::ScenarioUnit& u : map.units) {
    if (!in_rosters([&](const OptioRoster& r) { return r.unit(u.id); })) {
      return bad("map", "battle " + b.id + ": the map places unit " + std::to_string(u.id) +
                            ", which no roster has");
    }
  }
  for (const optio::ScenarioLeader& l : map.leaders) {
    if (!in_rosters([&](const OptioRoster& r) { return r.leader(l.id); })) {
      return bad("map", "battle " + b.id + ": the map places leader " + std::to_string(l.id) +
                            ", whom no roster has");
    }
  }
  return std::nullopt;
}

Problem check_maps(const Definition& d) {
  const std::array<Roster, 2> largest = largest_rosters(d);
  for (const BattleNode& b : d.battles) {
    if (d.game == Game::kOptio) {
      if (auto p = check_optio_places(b, largest)) return p;
    }
    const std::array<Roster, 2> here = largest_rosters_at(d, b);
    const std::array<Selection, 2> all = {whole_roster(here[0]), whole_roster(here[1])};
    auto sc = battle_scenario(b, here, all);
    if (!sc) {
      return bad("map", "battle " + b.id + " with all the campaign can bring to it: " +
                            sc.error().message + " (" + sc.error().rule + ")");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<RuleError> check_definition(const Definition& d) {
  if (!slug(d.name)) return bad("the name \"" + d.name + "\" is not made of a-z, 0-9, _ and -");
  if (auto p = check_kinds(d)) return p;
  if (auto p = check_graph(d)) return p;
  if (d.game == Game::kOptio) {
    if (auto p = check_optio_rosters(d)) return p;
    if (auto p = check_carry_over(d.optio)) return p;
  } else if (auto p = check_stand_rosters(d)) {
    return p;
  }
  return check_maps(d);
}

}  // namespace castra::campaign
