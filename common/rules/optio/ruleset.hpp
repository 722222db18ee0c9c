// Optio's rules data: every number the rules use (unit values, modifiers, the combat hits
// table, disorder recovery, break thresholds, ranges, limits), versioned. A match keeps the
// version it began with; every released version stays here so old matches resume.
// Immutable static data; any thread may read it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace castra::rules::optio {

enum class UnitType : std::uint8_t {
  kHeavyInfantry = 0,
  kPikes,
  kWarband,
  kLightInfantry,
  kSkirmishers,
  kArchers,
  kElephants,
  kLightCavalry,
  kCavalry,
  kHeavyCavalry,
  kChariots,
};
constexpr int kUnitTypes = 11;

enum class UnitClass : std::uint8_t { kFoot = 0, kMounted, kElephant };
enum class Drill : std::uint8_t { kAgile = 0, kDrilled, kUnwieldy };
constexpr int kDrills = 3;

enum class Terrain : std::uint8_t { kOpen = 0, kHill, kWoods, kMarsh, kRiver, kFord, kCamp };
constexpr int kTerrains = 7;

struct UnitStats {
  std::string_view name;  // as the rules write it: "heavy_infantry"
  UnitClass unit_class;
  Drill drill;
  int move;
  int charge;
  int melee;
  int shoot;  // 0: cannot shoot
  int range;
  int firm;
  int shaken;  // shaken when morale <= shaken
};

// Shifts on the combat hits table (section 6) and for shooting (section 7).
struct Modifiers {
  int leader;     // a leader is with the unit
  int deep_line;  // 4 bases in line
  int hill;       // on a hill, the opponent is not
  int defend;     // defending a ford or a camp
  int thin_line;  // 1 base
  int shaken;     // ignored by a deep line
  int disordered;
  int rough;  // in woods or marsh, unless agile foot
  int column;
  int flank;
  int rear;
  int min_shift;  // the sum is clamped to min_shift..max_shift
  int max_shift;
  int shoot_target_woods;
  int shoot_disordered;
  int shoot_thin_line;
};

constexpr int kHitsBases = 7;   // base values 0..6
constexpr int kHitsShifts = 9;  // shifts -4..+4

struct Ruleset {
  std::string_view version;
  std::array<UnitStats, kUnitTypes> units;
  Modifiers modifiers;
  // hits[base][shift - min_shift]: the combat hits table of section 6.
  std::array<std::array<int, kHitsShifts>, kHitsBases> hits;
  std::array<int, kDrills> disorder_recovery_turns;  // by Drill
  int break_half;   // broken when routed * break_half >= starting units
  int break_third;  // or, general killed, routed * break_third >= starting units
  int missile_hits_per_interval;
  int leader_move;    // king steps a leader moves in his phase
  int default_range;  // a subcommander's orders range
  int default_turn_limit;
  int default_cols;
  int default_rows;
  int default_zone_rows;  // a side's deployment zone: the rows at its edge
  int max_path_squares;   // longest orders path (canonical bytes count squares in a u8)
  int max_board_side;     // squares are written as u8 in canonical bytes
  int max_id;             // unit, leader and command ids are 1..max_id
  int leader_die_wound;   // a leader's d6 at or above this wounds (or kills if wounded)
  int leader_die_kill;    // the second d6 at or above this kills
  // optio-2 on: a leader whose unit routs and who has no unit of his command left to join
  // still rolls his d6 for that fight before he leaves the game (the "Leader dice" ruling).
  bool leaving_leader_rolls;

  const UnitStats& stats(UnitType t) const { return units[static_cast<std::size_t>(t)]; }
  int disorder_turns(Drill d) const { return disorder_recovery_turns[static_cast<std::size_t>(d)]; }
  // Hits for a base value after a summed shift; the shift is clamped here.
  int shifted_hits(int base, int shift) const;
  int clamp_shift(int shift) const;
};

// Every released version, newest last.
const Ruleset* find_ruleset(std::string_view version);
constexpr std::string_view kCurrentVersion = "optio-2";

std::string_view terrain_name(Terrain t);
std::string_view drill_name(Drill d);

}  // namespace castra::rules::optio
