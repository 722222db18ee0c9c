// Optio forecasts: what the rules say a legal charge or shot will do, before it is given.
// Game::forecast works them out from the same code decide() runs, so a forecast is never
// a second opinion. Plain values compared with ==; pure functions; any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/rules/types.hpp"

namespace castra::rules::optio {

// One modifier of a score, named as the rules' tables name it ("deep line", "in column").
struct ShiftTerm {
  std::string name;
  int shift = 0;
  friend bool operator==(const ShiftTerm&, const ShiftTerm&) = default;
};

// How one unit's score comes out: its base value, the modifiers that apply, their sum
// (`raw_shift`), the sum clamped to the table (`shift`), and the hits the table gives.
struct Score {
  int unit = 0;
  int base = 0;
  std::vector<ShiftTerm> terms;
  int raw_shift = 0;
  int shift = 0;
  int hits = 0;
  friend bool operator==(const Score&, const Score&) = default;
};

// A shot: the shooter's score, and the missile-hit count of the target before and after
// (every 4th hit costs an interval).
struct ShotForecast {
  Score shooter;
  int target = 0;
  int missile_before = 0;
  int missile_after = 0;
  int intervals = 0;
  friend bool operator==(const ShotForecast&, const ShotForecast&) = default;
};

// Charge combat: both scores (a is the charger) and the intervals each loses.
struct FightForecast {
  Score a;
  Score b;
  int loss_a = 0;
  int loss_b = 0;
  friend bool operator==(const FightForecast&, const FightForecast&) = default;
};

// A unit's morale before the command and once it is over (regains after a rout included).
struct MoraleForecast {
  int unit = 0;
  int before = 0;
  int after = 0;
  bool routs = false;
  friend bool operator==(const MoraleForecast&, const MoraleForecast&) = default;
};

// A leader who will roll his d6 after the fight, and what its faces do: a first die at or
// above `wound_from` wounds him (kills him if he is `wounded` already); a wounded leader's
// second die at or above `kill_from` kills him. `leaves` marks a leader whose unit routs
// with no unit of his command left to join: he rolls, then leaves the game.
struct LeaderDieForecast {
  int leader = 0;
  bool wounded = false;
  bool leaves = false;
  int wound_from = 0;
  int kill_from = 0;
  friend bool operator==(const LeaderDieForecast&, const LeaderDieForecast&) = default;
};

// What a charge (an advance that ends facing an enemy) or a shot will do. For a charge,
// `fire` is the target's defensive fire at the charger and `fight` the charge combat (absent
// when that fire routs the charger); for a shot, `fire` is the shot and there is no fight.
struct Forecast {
  int unit = 0;
  int target = 0;
  bool charge = false;
  std::optional<ShotForecast> fire;
  std::optional<FightForecast> fight;
  MoraleForecast unit_morale;
  MoraleForecast target_morale;
  std::vector<LeaderDieForecast> leaders;  // in the order they roll
  friend bool operator==(const Forecast&, const Forecast&) = default;
};

// The forecasts of one unit's listed options, parallel to its UnitLegal: advances[i] for
// its i-th advance option (nothing when that advance charges no one), shots[i] for its i-th
// shoot target.
struct UnitForecasts {
  int unit = 0;
  std::vector<std::optional<Forecast>> advances;
  std::vector<std::optional<Forecast>> shots;
  friend bool operator==(const UnitForecasts&, const UnitForecasts&) = default;
};

}  // namespace castra::rules::optio
