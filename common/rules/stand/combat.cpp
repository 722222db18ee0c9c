#include "common/rules/stand/combat.hpp"

#include <algorithm>

namespace castra::rules::stand {

Tenths attack_total(const Ruleset& rs, const Figures& attackers, Posture posture, bool cover,
                    bool rear) {
  Tenths total = 0;
  for (Troop t : kAllTroops) {
    const auto ti = static_cast<std::size_t>(index(t));
    Tenths per_figure = rs.chance[ti][static_cast<std::size_t>(index(posture))][cover ? 1 : 0];
    if (rear) per_figure += rs.rear_bonus[ti];
    total += attackers[t] * per_figure;
  }
  return total;
}

Casualty casualties_of(const Ruleset& rs, Tenths total, int defenders) {
  Casualty c;
  const int whole = total / 10;
  c.fraction = total % 10;
  c.sure = std::min(whole, defenders);
  if (whole >= defenders || c.fraction == 0) return c;
  if (c.fraction >= rs.sure_fraction) {
    ++c.sure;
  } else {
    c.roll = true;
  }
  return c;
}

Figures take_casualties(const Ruleset& rs, const Figures& defenders, int count) {
  Figures lost;
  for (Troop t : rs.casualty_order) {
    const int take = std::min(count, defenders[t]);
    lost[t] = take;
    count -= take;
  }
  return lost;
}

}  // namespace castra::rules::stand
