// Ancient STAND! forecasts: what a legal attack will do before it is made (section 4): the
// figures attacking, the chance each adds, the rear bonus, the total T, the casualties it
// makes for sure and the chance of one more on the d10. Worked out by the functions
// Game::decide resolves attacks with (combat.hpp). Plain values; pure; any thread.
#pragma once

#include <vector>

#include "common/rules/stand/hex.hpp"
#include "common/rules/stand/ruleset.hpp"
#include "common/rules/stand/state.hpp"

namespace castra::rules::stand {

// One troop type of the attacking hex: how many figures attack, the chance per figure
// against this defender, the rear bonus per figure (0 unless struck from the rear), and
// what they add to T: figures x (chance + rear bonus).
struct AttackTerm {
  Troop troop = Troop::kInfantry;
  int figures = 0;
  Tenths chance = 0;
  Tenths rear_bonus = 0;
  Tenths total = 0;
  friend bool operator==(const AttackTerm&, const AttackTerm&) = default;
};

struct AttackForecast {
  Hex from;
  Hex target;
  Posture posture = Posture::kFallingBack;  // the defender's
  bool cover = false;
  bool rear = false;
  std::vector<AttackTerm> terms;  // the attacking types, in troop order
  Tenths total = 0;               // T
  int sure = 0;                   // casualties without a die
  Tenths fraction = 0;            // what is left of T after the sure casualties
  bool roll = false;              // the fraction die is rolled
  int extra_faces = 0;            // faces of it that take one more figure
  int die_faces = 0;
  Figures lost;            // the figures the sure casualties take
  int strength = 0;        // their strength
  Figures lost_extra;      // the figures taken with the extra casualty (when rolled)
  int strength_extra = 0;  // their strength
  friend bool operator==(const AttackForecast&, const AttackForecast&) = default;
};

}  // namespace castra::rules::stand
