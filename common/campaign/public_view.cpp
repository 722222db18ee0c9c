#include "common/campaign/public_view.hpp"

#include <algorithm>
#include <set>

namespace castra::campaign {

namespace {

PublicRoster optio_view(const Roster& now, const std::vector<Fought>& history) {
  std::set<int> units, leaders;
  for (const Fought& f : history) {
    units.insert(f.fielded.units.begin(), f.fielded.units.end());
    leaders.insert(f.fielded.leaders.begin(), f.fielded.leaders.end());
  }
  const OptioRoster& all = *now.optio();
  OptioRoster shown;
  for (const OptioUnit& u : all.units) {
    if (units.count(u.id) != 0) shown.units.push_back(u);
  }
  for (const OptioLeader& l : all.leaders) {
    if (leaders.count(l.id) != 0) shown.leaders.push_back(l);
  }
  PublicRoster out;
  out.hidden_units = static_cast<int>(all.units.size() - shown.units.size());
  out.roster = {now.army, std::move(shown)};
  return out;
}

// Of each type: what battle k fielded, less everything lost from battle k on, is known still to
// be there; the most such over the battles is shown.
PublicRoster stand_view(const Roster& now, const std::vector<Fought>& history) {
  const stand::Figures& all = now.stand()->figures;
  stand::Figures shown;
  for (std::size_t k = 0; k < history.size(); ++k) {
    stand::Figures known = history[k].fielded.figures;
    for (std::size_t j = k; j < history.size(); ++j) {
      for (stand::Troop t : stand::kAllTroops)
        known[t] -= history[j].before.stand()->figures[t] - history[j].after.stand()->figures[t];
    }
    for (stand::Troop t : stand::kAllTroops)
      shown[t] = std::max(shown[t], std::min(known[t], all[t]));
  }
  PublicRoster out;
  out.hidden_figures = all.total() - shown.total();
  out.roster = {now.army, StandRoster{shown}};
  return out;
}

}  // namespace

PublicRoster public_roster(const Roster& now, const std::vector<Fought>& history) {
  if (now.optio() != nullptr) return optio_view(now, history);
  return stand_view(now, history);
}

}  // namespace castra::campaign
