#include "common/campaign/roster.hpp"

#include <algorithm>

namespace castra::campaign {

const OptioUnit* OptioRoster::unit(int id) const {
  auto it =
      std::find_if(units.begin(), units.end(), [&](const OptioUnit& u) { return u.id == id; });
  return it == units.end() ? nullptr : &*it;
}

const OptioLeader* OptioRoster::leader(int id) const {
  auto it = std::find_if(leaders.begin(), leaders.end(),
                         [&](const OptioLeader& l) { return l.id == id; });
  return it == leaders.end() ? nullptr : &*it;
}

const OptioLeader* OptioRoster::general() const {
  auto it =
      std::find_if(leaders.begin(), leaders.end(), [](const OptioLeader& l) { return l.general; });
  return it == leaders.end() ? nullptr : &*it;
}

int max_morale(const optio::Ruleset& rs, optio::UnitType type) {
  const optio::UnitStats& st = rs.stats(type);
  return st.firm + st.shaken;
}

int start_morale(const optio::Ruleset& rs, const OptioUnit& u) {
  return u.morale == 0 ? max_morale(rs, u.type) : u.morale;
}

}  // namespace castra::campaign
