// The vocabulary of Ancient STAND! (troop types, terrain, posture, figure counts) and the
// Ruleset: every number and table of the rules in one versioned value. A match keeps the
// version it began with; released versions are never edited. Pure data, any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/rules/types.hpp"

namespace castra::rules::stand {

enum class Troop : std::uint8_t { kInfantry = 0, kArchers = 1, kCavalry = 2, kChariots = 3 };
inline constexpr int kTroopTypes = 4;
inline constexpr std::array<Troop, kTroopTypes> kAllTroops = {Troop::kInfantry, Troop::kArchers,
                                                              Troop::kCavalry, Troop::kChariots};

enum class Terrain : std::uint8_t {
  kOpen = 0,
  kWoods = 1,
  kSwamp = 2,
  kTown = 3,
  kHill = 4,
  kSteep = 5,
  kWater = 6,
};
inline constexpr int kTerrains = 7;

enum class Crossing : std::uint8_t { kNone = 0, kFord = 1, kBridge = 2 };
inline constexpr int kCrossings = 3;

// Falling back is the default: a hex without a Standing marker falls back under pressure.
enum class Posture : std::uint8_t { kFallingBack = 0, kStanding = 1 };

constexpr int index(Troop t) {
  return static_cast<int>(t);
}
constexpr int index(Terrain t) {
  return static_cast<int>(t);
}
constexpr int index(Posture p) {
  return static_cast<int>(p);
}

std::string_view name(Troop t);     // "infantry", "archers", "cavalry", "chariots"
std::string_view name(Terrain t);   // "open", "woods", ...
std::string_view name(Crossing c);  // "none", "ford", "bridge"
std::string_view name(Posture p);   // "Falling back", "Standing"

// A count of figures of each troop type.
struct Figures {
  std::array<int, kTroopTypes> n{};

  constexpr int& operator[](Troop t) { return n[static_cast<std::size_t>(t)]; }
  constexpr int operator[](Troop t) const { return n[static_cast<std::size_t>(t)]; }
  constexpr int total() const { return n[0] + n[1] + n[2] + n[3]; }
  constexpr bool empty() const { return n[0] == 0 && n[1] == 0 && n[2] == 0 && n[3] == 0; }
  friend constexpr bool operator==(const Figures&, const Figures&) = default;
};

// "3 infantry and 2 archers"; "no figures" when empty.
std::string to_string(const Figures& f);

// A set of troop types, one bit per type.
using TroopMask = std::uint8_t;
constexpr TroopMask bit(Troop t) {
  return static_cast<TroopMask>(1u << index(t));
}
constexpr bool has(TroopMask m, Troop t) {
  return (m & bit(t)) != 0;
}
constexpr TroopMask mask_of(const Figures& f) {
  TroopMask m = 0;
  for (Troop t : kAllTroops) {
    if (f[t] != 0) m |= bit(t);
  }
  return m;
}
// "infantry and archers"
std::string mask_name(TroopMask m);

// Tenths of a casualty: every chance of the rules is a whole number of tenths.
using Tenths = int;

// The rules data of one released version. Indexed by the enums above.
struct Ruleset {
  std::string_view version;

  // Space one figure takes in a hex; a figure's strength for army break is the same number.
  std::array<int, kTroopTypes> space;
  std::array<int, kTroopTypes> strength;
  // Hexes a type may enter in one move.
  std::array<int, kTroopTypes> reach;
  // Types with the same group may share a hex: foot (0) or mounted (1).
  std::array<int, kTroopTypes> share_group;

  // Default capacity of a hex in space points, by terrain; water without a crossing is 0.
  std::array<int, kTerrains> capacity;
  // Default capacity of a water hex with a ford or a bridge.
  int crossing_capacity;
  std::array<bool, kTerrains> cover;
  // may_enter[troop][terrain]; a water hex with a crossing may be entered by every type.
  std::array<std::array<bool, kTerrains>, kTroopTypes> may_enter;

  // chance[attacker][defender posture][defender in cover], per attacking figure.
  std::array<std::array<std::array<Tenths, 2>, 2>, kTroopTypes> chance;
  // Added per attacking figure when it strikes across one of the defender's rear hexsides.
  std::array<Tenths, kTroopTypes> rear_bonus;
  // A leftover fraction of at least this many tenths is one more casualty; a smaller one
  // above zero rolls `fraction_die` and takes one more on a roll at most the fraction.
  Tenths sure_fraction;
  Die fraction_die;
  // Casualties leave a mixed hex in this order (the cheaper type first).
  std::array<Troop, kTroopTypes> casualty_order;

  Die roll_off_die;
  // Rows of the deployment zones: the roll-off's loser deploys first in more rows.
  int loser_rows;
  int winner_rows;
  int default_turn_limit;
  // An army breaks when lost strength x break_factor >= starting strength.
  int break_factor;

  constexpr int space_of(Troop t) const { return space[static_cast<std::size_t>(index(t))]; }
  constexpr int reach_of(Troop t) const { return reach[static_cast<std::size_t>(index(t))]; }
  constexpr int group_of(Troop t) const { return share_group[static_cast<std::size_t>(index(t))]; }
  int space_of(const Figures& f) const;
  int strength_of(const Figures& f) const;
  // The smallest reach of the types in m; 0 for an empty set.
  int reach_of(TroopMask m) const;
  // All types of m may share a hex (one share group).
  bool shareable(TroopMask m) const;
  // Figures of mask a and mask b may share a hex.
  bool shareable(TroopMask a, TroopMask b) const {
    return shareable(static_cast<TroopMask>(a | b));
  }
  bool may_enter_terrain(Troop t, Terrain terrain, Crossing crossing) const;
  bool is_cover(Terrain t) const { return cover[static_cast<std::size_t>(index(t))]; }
  int default_capacity(Terrain t, Crossing c) const;
};

// Version "stand-1": the rules of shared/rules/ancient-stand.md.
const Ruleset& stand_1();

}  // namespace castra::rules::stand
