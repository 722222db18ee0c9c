// The arithmetic of an attack (section 4 of the rules): the total chance T in tenths, the
// casualties it makes for sure, whether the fraction calls for the d10, and which figures
// a hex loses. Engine-internal helpers, pure; Game::decide and the tests call them.
#pragma once

#include <vector>

#include "common/rules/stand/forecast.hpp"
#include "common/rules/stand/ruleset.hpp"

namespace castra::rules::stand {

// What each attacking type adds to T, in troop order (types with no figure left out).
std::vector<AttackTerm> attack_terms(const Ruleset& rs, const Figures& attackers, Posture posture,
                                     bool cover, bool rear);

// T: the chance of every attacking figure against a defender of `posture`, in cover or
// not, struck across one of its rear hexsides or not.
Tenths attack_total(const Ruleset& rs, const Figures& attackers, Posture posture, bool cover,
                    bool rear);

// What T does to a hex of `defenders` figures before any die: `sure` casualties, and
// whether the leftover `fraction` rolls the fraction die. The die is rolled only when the
// hex still has a figure left after the sure casualties.
struct Casualty {
  int sure = 0;
  Tenths fraction = 0;
  bool roll = false;
};
Casualty casualties_of(const Ruleset& rs, Tenths total, int defenders);

// The fraction die gives one more casualty when its face is at most the fraction.
constexpr bool fraction_hits(int face, Tenths fraction) {
  return face <= fraction;
}

// Which figures `count` casualties take from `defenders`, cheaper types first.
Figures take_casualties(const Ruleset& rs, const Figures& defenders, int count);

// Everything an attack from `from` on `target` does before the d10, for an attack decide
// accepts: decide resolves attacks with it, and forecasts are it.
AttackForecast attack_forecast(const State& s, const Ruleset& rs, Hex from, Hex target);

}  // namespace castra::rules::stand
