#include "common/rules/stand/ruleset.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace castra::rules::stand {
namespace {

constexpr int kInf = index(Troop::kInfantry);
constexpr int kArc = index(Troop::kArchers);
constexpr int kCav = index(Troop::kCavalry);
constexpr int kCha = index(Troop::kChariots);
constexpr int kFb = index(Posture::kFallingBack);
constexpr int kSt = index(Posture::kStanding);

// shared/rules/ancient-stand.md sections 1 to 7; [seed] and [castra] marks are there.
constexpr Ruleset make_stand_1() {
  Ruleset r{};
  r.version = "stand-1";
  r.space = {1, 1, 2, 4};
  r.strength = {1, 1, 2, 4};
  r.reach = {2, 2, 5, 5};
  r.share_group = {0, 0, 1, 1};

  //            open woods swamp town hill steep water
  r.capacity = {12, 8, 8, 8, 12, 8, 0};
  r.crossing_capacity = 12;
  r.cover = {false, true, false, true, false, false, false};
  r.may_enter[kInf] = {true, true, true, true, true, true, false};
  r.may_enter[kArc] = {true, true, true, true, true, true, false};
  r.may_enter[kCav] = {true, true, true, true, true, false, false};
  r.may_enter[kCha] = {true, false, false, true, true, false, false};

  // [defender posture][in cover]
  r.chance[kInf][kSt] = {4, 2};
  r.chance[kInf][kFb] = {2, 0};
  r.chance[kCav][kSt] = {6, 2};
  r.chance[kCav][kFb] = {8, 4};
  r.chance[kCha][kSt] = {13, 2};
  r.chance[kCha][kFb] = {16, 4};
  r.chance[kArc][kSt] = {4, 2};
  r.chance[kArc][kFb] = {3, 1};
  r.rear_bonus = {2, 2, 4, 9};
  r.sure_fraction = 5;
  r.fraction_die = Die::kD10;
  r.casualty_order = {Troop::kInfantry, Troop::kArchers, Troop::kCavalry, Troop::kChariots};

  r.roll_off_die = Die::kD6;
  r.loser_rows = 3;
  r.winner_rows = 2;
  r.default_turn_limit = 12;
  r.break_factor = 2;
  return r;
}

constexpr Ruleset kStand1 = make_stand_1();

}  // namespace

const Ruleset& stand_1() {
  return kStand1;
}

std::string_view name(Troop t) {
  switch (t) {
    case Troop::kInfantry:
      return "infantry";
    case Troop::kArchers:
      return "archers";
    case Troop::kCavalry:
      return "cavalry";
    case Troop::kChariots:
      return "chariots";
  }
  return "?";
}

std::string_view name(Terrain t) {
  switch (t) {
    case Terrain::kOpen:
      return "open";
    case Terrain::kWoods:
      return "woods";
    case Terrain::kSwamp:
      return "swamp";
    case Terrain::kTown:
      return "town";
    case Terrain::kHill:
      return "hill";
    case Terrain::kSteep:
      return "steep";
    case Terrain::kWater:
      return "water";
  }
  return "?";
}

std::string_view name(Crossing c) {
  switch (c) {
    case Crossing::kNone:
      return "none";
    case Crossing::kFord:
      return "ford";
    case Crossing::kBridge:
      return "bridge";
  }
  return "?";
}

std::string_view name(Posture p) {
  return p == Posture::kStanding ? "Standing" : "Falling back";
}

std::string to_string(const Figures& f) {
  std::vector<std::string> parts;
  for (Troop t : kAllTroops) {
    if (f[t] == 0) continue;
    // "1 chariot", "1 archer"; infantry and cavalry are the same for one or many.
    std::string word(name(t));
    if (f[t] == 1 && (t == Troop::kChariots || t == Troop::kArchers)) word.pop_back();
    parts.push_back(std::to_string(f[t]) + " " + word);
  }
  if (parts.empty()) return "no figures";
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

std::string mask_name(TroopMask m) {
  std::vector<std::string_view> parts;
  for (Troop t : kAllTroops) {
    if (has(m, t)) parts.push_back(name(t));
  }
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

int Ruleset::space_of(const Figures& f) const {
  int sum = 0;
  for (Troop t : kAllTroops)
    sum += f[t] * space_of(t);
  return sum;
}

int Ruleset::strength_of(const Figures& f) const {
  int sum = 0;
  for (Troop t : kAllTroops)
    sum += f[t] * strength[static_cast<std::size_t>(index(t))];
  return sum;
}

int Ruleset::reach_of(TroopMask m) const {
  int best = 0;
  bool any = false;
  for (Troop t : kAllTroops) {
    if (!has(m, t)) continue;
    best = any ? std::min(best, reach_of(t)) : reach_of(t);
    any = true;
  }
  return best;
}

bool Ruleset::shareable(TroopMask m) const {
  int group = -1;
  for (Troop t : kAllTroops) {
    if (!has(m, t)) continue;
    if (group >= 0 && group != group_of(t)) return false;
    group = group_of(t);
  }
  return true;
}

bool Ruleset::may_enter_terrain(Troop t, Terrain terrain, Crossing crossing) const {
  if (terrain == Terrain::kWater && crossing != Crossing::kNone) return true;
  return may_enter[static_cast<std::size_t>(index(t))][static_cast<std::size_t>(index(terrain))];
}

int Ruleset::default_capacity(Terrain t, Crossing c) const {
  if (t == Terrain::kWater && c != Crossing::kNone) return crossing_capacity;
  return capacity[static_cast<std::size_t>(index(t))];
}

}  // namespace castra::rules::stand
