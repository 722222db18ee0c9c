#include "common/campaign/army.hpp"

#include <algorithm>

namespace castra::campaign {

namespace {

bool has_unit_of(const OptioRoster& r, int command) {
  return std::any_of(r.units.begin(), r.units.end(),
                     [&](const OptioUnit& u) { return u.command == command; });
}

}  // namespace

Roster arrive(const BattleNode& node, rules::Side side, Roster roster) {
  for (const Reinforcement& r : node.reinforcements) {
    if (r.side != side) continue;
    if (auto* o = std::get_if<OptioRoster>(&roster.game)) {
      o->units.insert(o->units.end(), r.units.begin(), r.units.end());
      o->leaders.insert(o->leaders.end(), r.leaders.begin(), r.leaders.end());
    } else {
      auto& f = std::get<StandRoster>(roster.game).figures;
      for (stand::Troop t : stand::kAllTroops)
        f[t] += r.figures[t];
    }
  }
  if (auto* o = std::get_if<OptioRoster>(&roster.game)) serve_under_general(*o);
  return roster;
}

Selection whole_roster(const Roster& roster) {
  Selection s;
  if (const StandRoster* st = roster.stand()) {
    s.figures = st->figures;
    return s;
  }
  const OptioRoster& o = *roster.optio();
  for (const OptioUnit& u : o.units)
    s.units.push_back(u.id);
  for (const OptioLeader& l : o.leaders) {
    if (has_unit_of(o, l.command)) s.leaders.push_back(l.id);
  }
  return s;
}

bool can_field(const Roster& roster) {
  if (const StandRoster* st = roster.stand()) return st->figures.total() > 0;
  const OptioRoster& o = *roster.optio();
  const OptioLeader* g = o.general();
  return g != nullptr && has_unit_of(o, g->command);
}

void serve_under_general(OptioRoster& roster) {
  const OptioLeader* g = roster.general();
  if (g == nullptr) return;
  for (OptioUnit& u : roster.units) {
    const bool led = std::any_of(roster.leaders.begin(), roster.leaders.end(),
                                 [&](const OptioLeader& l) { return l.command == u.command; });
    if (!led) u.command = g->command;
  }
}

}  // namespace castra::campaign
