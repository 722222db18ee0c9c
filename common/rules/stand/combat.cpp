#include "common/rules/stand/combat.hpp"

#include <algorithm>

namespace castra::rules::stand {

std::vector<AttackTerm> attack_terms(const Ruleset& rs, const Figures& attackers, Posture posture,
                                     bool cover, bool rear) {
  std::vector<AttackTerm> terms;
  for (Troop t : kAllTroops) {
    if (attackers[t] == 0) continue;
    const auto ti = static_cast<std::size_t>(index(t));
    AttackTerm term;
    term.troop = t;
    term.figures = attackers[t];
    term.chance = rs.chance[ti][static_cast<std::size_t>(index(posture))][cover ? 1 : 0];
    term.rear_bonus = rear ? rs.rear_bonus[ti] : 0;
    term.total = term.figures * (term.chance + term.rear_bonus);
    terms.push_back(term);
  }
  return terms;
}

Tenths attack_total(const Ruleset& rs, const Figures& attackers, Posture posture, bool cover,
                    bool rear) {
  Tenths total = 0;
  for (const AttackTerm& term : attack_terms(rs, attackers, posture, cover, rear))
    total += term.total;
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
