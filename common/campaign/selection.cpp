#include "common/campaign/selection.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "common/campaign/army.hpp"

namespace castra::campaign {

namespace {

using rules::RuleError;

RuleError refuse(const std::string& part, std::string message) {
  return rules::refuse("campaign.selection." + part, std::move(message));
}

std::string count_of(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool selected(const std::vector<int>& ids, int id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::optional<RuleError> check_optio(const BattleNode& node, const OptioRoster& r,
                                     const Selection& s) {
  if (!s.figures.empty()) return refuse("form", "an Optio selection names units, not figures");
  std::set<int> seen;
  for (int id : s.units) {
    if (r.unit(id) == nullptr)
      return refuse("roster", "unit " + std::to_string(id) + " is not in the roster");
    if (!seen.insert(id).second)
      return refuse("roster", "unit " + std::to_string(id) + " is selected twice");
  }
  seen.clear();
  for (int id : s.leaders) {
    if (r.leader(id) == nullptr) {
      return refuse("roster", "leader " + std::to_string(id) + " is not in the roster");
    }
    if (!seen.insert(id).second) {
      return refuse("roster", "leader " + std::to_string(id) + " is selected twice");
    }
  }
  const int limit = node.selection_limit;
  if (static_cast<int>(s.units.size()) > limit) {
    return refuse("limit", "this battle takes at most " + count_of(limit, "unit", "units") +
                               "; the selection has " + std::to_string(s.units.size()));
  }
  const OptioLeader* g = r.general();
  if (g == nullptr || !selected(s.leaders, g->id)) {
    return refuse("general", "the army's general must fight every battle");
  }
  for (int id : s.leaders) {
    const OptioLeader& l = *r.leader(id);
    const bool leads = std::any_of(s.units.begin(), s.units.end(),
                                   [&](int u) { return r.unit(u)->command == l.command; });
    if (!leads) {
      return refuse("leader", "leader " + std::to_string(id) +
                                  " needs a selected unit of his command " +
                                  std::to_string(l.command));
    }
  }
  for (int id : s.units) {
    const int command = r.unit(id)->command;
    const bool led = std::any_of(s.leaders.begin(), s.leaders.end(),
                                 [&](int l) { return r.leader(l)->command == command; });
    if (!led) {
      return refuse("command", "unit " + std::to_string(id) + " of command " +
                                   std::to_string(command) + " needs its leader selected");
    }
  }
  return std::nullopt;
}

std::optional<RuleError> check_stand(const BattleNode& node, const StandRoster& r,
                                     const Selection& s) {
  if (!s.units.empty() || !s.leaders.empty()) {
    return refuse("form", "an Ancient STAND! selection names figures, not units or leaders");
  }
  for (stand::Troop t : stand::kAllTroops) {
    if (s.figures[t] < 0) return refuse("roster", "a figure count is negative");
    if (s.figures[t] > r.figures[t]) {
      return refuse("roster", "the roster has " + std::to_string(r.figures[t]) + " " +
                                  std::string(stand::name(t)) + "; the selection takes " +
                                  std::to_string(s.figures[t]));
    }
  }
  const int total = s.figures.total();
  if (total > node.selection_limit) {
    return refuse("limit", "this battle takes at most " +
                               count_of(node.selection_limit, "figure", "figures") +
                               "; the selection has " + std::to_string(total));
  }
  if (total == 0) return refuse("empty", "a selection fields at least one figure");
  return std::nullopt;
}

// Largest remainder: each type's exact share of `limit` rounded down, then the figures left
// over to the largest fractions (ties: the earlier type).
stand::Figures shares(const stand::Figures& all, int limit) {
  const int total = all.total();
  stand::Figures out;
  std::array<long long, stand::kTroopTypes> remainder{};
  int given = 0;
  for (stand::Troop t : stand::kAllTroops) {
    const long long exact = static_cast<long long>(all[t]) * limit;
    out[t] = static_cast<int>(exact / total);
    remainder[static_cast<std::size_t>(stand::index(t))] = exact % total;
    given += out[t];
  }
  while (given < limit) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < remainder.size(); ++i) {
      if (remainder[i] > remainder[best]) best = i;
    }
    ++out.n[best];
    remainder[best] = -1;
    ++given;
  }
  return out;
}

Selection default_optio(const OptioRoster& r, int limit) {
  std::vector<int> chosen;
  const OptioLeader* g = r.general();
  if (g != nullptr) {
    auto first = std::find_if(r.units.begin(), r.units.end(),
                              [&](const OptioUnit& u) { return u.command == g->command; });
    if (first != r.units.end()) chosen.push_back(first->id);
  }
  for (const OptioUnit& u : r.units) {
    if (static_cast<int>(chosen.size()) >= limit) break;
    if (!selected(chosen, u.id)) chosen.push_back(u.id);
  }
  Selection s;
  for (const OptioUnit& u : r.units) {
    if (selected(chosen, u.id)) s.units.push_back(u.id);
  }
  for (const OptioLeader& l : r.leaders) {
    const bool leads = std::any_of(s.units.begin(), s.units.end(),
                                   [&](int u) { return r.unit(u)->command == l.command; });
    if (leads) s.leaders.push_back(l.id);
  }
  return s;
}

}  // namespace

std::optional<RuleError> check_selection(const BattleNode& node, const Roster& roster,
                                         const Selection& s) {
  if (node.selection_limit == 0) {
    if (normalized(s) == normalized(whole_roster(roster))) return std::nullopt;
    return refuse("whole", "battle " + node.id + " is fought by the whole roster");
  }
  if (const OptioRoster* o = roster.optio()) return check_optio(node, *o, s);
  return check_stand(node, *roster.stand(), s);
}

Selection default_selection(const BattleNode& node, const Roster& roster) {
  const int limit = node.selection_limit;
  if (limit == 0) return whole_roster(roster);
  if (const OptioRoster* o = roster.optio()) {
    if (static_cast<int>(o->units.size()) <= limit) return whole_roster(roster);
    return default_optio(*o, limit);
  }
  const stand::Figures& all = roster.stand()->figures;
  if (all.total() <= limit) return whole_roster(roster);
  Selection s;
  s.figures = shares(all, limit);
  return s;
}

Selection normalized(Selection s) {
  std::sort(s.units.begin(), s.units.end());
  std::sort(s.leaders.begin(), s.leaders.end());
  return s;
}

}  // namespace castra::campaign
