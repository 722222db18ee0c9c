#include "common/campaign/carry_over.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <variant>

#include "common/campaign/army.hpp"

namespace castra::campaign {

namespace {

rules::RuleError contradiction(std::string message) {
  return rules::refuse("campaign.carry_over", std::move(message));
}

bool listed(const std::vector<int>& ids, int id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::string replaced_name(const std::string& pattern, const std::string& killed) {
  std::string out = pattern;
  const std::string_view key = "{name}";
  for (std::size_t at = out.find(key); at != std::string::npos;
       at = out.find(key, at + killed.size())) {
    out.replace(at, key.size(), killed);
  }
  return out;
}

// What the battle did to one side's fielded units and leaders, read from its events.
struct Fate {
  std::map<int, int> morale;  // fielded unit -> its morale at the end
  std::set<int> routed;
  std::set<int> killed;
};

// Folds the events that concern roster `r`; an event naming a unit or leader of `r` that was
// not fielded contradicts the selection.
rules::Checked<Fate> fate_of(const optio::Ruleset& rs, const OptioRoster& r,
                             const Selection& fielded, const std::vector<optio::Event>& events) {
  Fate fate;
  for (int id : fielded.units) {
    const OptioUnit* u = r.unit(id);
    if (u == nullptr) return contradiction("unit " + std::to_string(id) + " is not in the roster");
    fate.morale[id] = start_morale(rs, *u);
  }
  for (int id : fielded.leaders) {
    if (r.leader(id) == nullptr) {
      return contradiction("leader " + std::to_string(id) + " is not in the roster");
    }
  }
  auto own_unit = [&](int id) -> rules::Checked<bool> {
    if (r.unit(id) == nullptr) return false;  // the other side's
    if (!listed(fielded.units, id)) {
      return contradiction("the battle names unit " + std::to_string(id) +
                           ", which was not fielded");
    }
    return true;
  };
  for (const optio::Event& e : events) {
    if (const auto* m = std::get_if<optio::ev::MoraleChanged>(&e)) {
      auto own = own_unit(m->unit);
      if (!own) return own.error();
      if (*own) fate.morale[m->unit] = m->to;
    } else if (const auto* rt = std::get_if<optio::ev::Routed>(&e)) {
      auto own = own_unit(rt->unit);
      if (!own) return own.error();
      if (*own) fate.routed.insert(rt->unit);
    } else if (const auto* roll = std::get_if<optio::ev::LeaderRoll>(&e)) {
      if (r.leader(roll->leader) == nullptr) continue;
      if (!listed(fielded.leaders, roll->leader)) {
        return contradiction("the battle names leader " + std::to_string(roll->leader) +
                             ", who was not fielded");
      }
      if (roll->fate == optio::LeaderFate::kKilled) fate.killed.insert(roll->leader);
    }
  }
  return fate;
}

}  // namespace

rules::Checked<Roster> carry_over(const OptioCarryOver& data, const optio::Ruleset& rs,
                                  const Roster& before, const Selection& fielded,
                                  const std::vector<optio::Event>& events) {
  const OptioRoster* r = before.optio();
  if (r == nullptr) return contradiction("the roster is not an Optio roster");
  auto fate = fate_of(rs, *r, fielded, events);
  if (!fate) return fate.error();
  Roster after = before;
  OptioRoster& out = std::get<OptioRoster>(after.game);
  std::erase_if(out.units, [&](const OptioUnit& u) { return fate->routed.count(u.id) != 0; });
  for (OptioUnit& u : out.units) {
    auto end = fate->morale.find(u.id);
    if (end == fate->morale.end()) continue;
    if (end->second < 1) {
      return contradiction("unit " + std::to_string(u.id) + " ends at morale " +
                           std::to_string(end->second) + " without routing");
    }
    u.morale = std::min(max_morale(rs, u.type), end->second + data.morale_recovery);
  }
  std::vector<OptioLeader> leaders;
  for (const OptioLeader& l : out.leaders) {
    if (fate->killed.count(l.id) == 0) {
      leaders.push_back(l);
      continue;
    }
    const LeaderReplacement& rep = l.general ? data.general : data.subcommander;
    if (rep.kind == LeaderReplacement::Kind::kNone) continue;
    leaders.push_back({l.id, l.general, l.command, rep.range, replaced_name(rep.name, l.name)});
  }
  out.leaders = std::move(leaders);
  serve_under_general(out);
  return after;
}

rules::Checked<Roster> carry_over(rules::Side side, const Roster& before, const Selection& fielded,
                                  const std::vector<stand::Event>& events) {
  const StandRoster* r = before.stand();
  if (r == nullptr) return contradiction("the roster is not an Ancient STAND! roster");
  stand::Figures lost;
  for (const stand::Event& e : events) {
    const auto* c = std::get_if<stand::ev::Casualties>(&e);
    if (c == nullptr || c->side != side) continue;
    for (stand::Troop t : stand::kAllTroops)
      lost[t] += c->lost[t];
  }
  Roster after = before;
  stand::Figures& out = std::get<StandRoster>(after.game).figures;
  for (stand::Troop t : stand::kAllTroops) {
    const std::string what(stand::name(t));
    if (fielded.figures[t] < 0 || fielded.figures[t] > r->figures[t]) {
      return contradiction("the selection fields " + std::to_string(fielded.figures[t]) + " " +
                           what + " of " + std::to_string(r->figures[t]));
    }
    if (lost[t] < 0 || lost[t] > fielded.figures[t]) {
      return contradiction("the battle loses " + std::to_string(lost[t]) + " " + what + " of " +
                           std::to_string(fielded.figures[t]) + " fielded");
    }
    out[t] -= lost[t];
  }
  return after;
}

}  // namespace castra::campaign
