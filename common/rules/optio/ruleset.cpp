#include "common/rules/optio/ruleset.hpp"

#include <algorithm>

namespace castra::rules::optio {
namespace {

using enum UnitClass;
using enum Drill;

// optio-1: shared/rules/optio.md sections 1, 3, 4, 6, 7, 8 and 9.
constexpr Ruleset kOptio1{
    .version = "optio-1",
    .units = {{
        // name               class      drill      mv ch ml sh rg firm shaken
        {"heavy_infantry", kFoot, kDrilled, 1, 2, 3, 0, 0, 2, 2},
        {"pikes", kFoot, kUnwieldy, 1, 2, 4, 0, 0, 2, 2},
        {"warband", kFoot, kUnwieldy, 1, 4, 2, 0, 0, 2, 1},
        {"light_infantry", kFoot, kAgile, 2, 2, 2, 1, 1, 2, 1},
        {"skirmishers", kFoot, kAgile, 2, 1, 1, 1, 2, 1, 1},
        {"archers", kFoot, kDrilled, 1, 1, 1, 2, 2, 1, 2},
        {"elephants", kElephant, kUnwieldy, 2, 4, 3, 0, 0, 2, 1},
        {"light_cavalry", kMounted, kAgile, 3, 2, 1, 2, 1, 1, 1},
        {"cavalry", kMounted, kDrilled, 3, 3, 2, 1, 1, 2, 1},
        {"heavy_cavalry", kMounted, kUnwieldy, 3, 4, 3, 0, 0, 2, 2},
        {"chariots", kMounted, kUnwieldy, 3, 4, 2, 0, 0, 2, 1},
    }},
    .modifiers = {.leader = 1,
                  .deep_line = 1,
                  .hill = 1,
                  .defend = 1,
                  .thin_line = -1,
                  .shaken = -1,
                  .disordered = -1,
                  .rough = -1,
                  .column = -2,
                  .flank = -2,
                  .rear = -3,
                  .min_shift = -4,
                  .max_shift = 4,
                  .shoot_target_woods = -1,
                  .shoot_disordered = -1,
                  .shoot_thin_line = -1},
    // base \ shift: -4 -3 -2 -1  0 +1 +2 +3 +4
    .hits = {{
        {0, 0, 0, 0, 0, 0, 0, 0, 0},
        {0, 0, 0, 1, 1, 1, 2, 2, 3},
        {0, 0, 1, 1, 2, 3, 4, 5, 6},
        {0, 1, 1, 2, 3, 4, 6, 7, 9},
        {0, 1, 2, 3, 4, 6, 8, 10, 12},
        {0, 1, 2, 4, 5, 7, 10, 12, 15},
        {0, 1, 3, 4, 6, 9, 12, 15, 18},
    }},
    .disorder_recovery_turns = {1, 2, 3},  // agile, drilled, unwieldy
    .break_half = 2,
    .break_third = 3,
    .missile_hits_per_interval = 4,
    .leader_move = 3,
    .default_range = 2,
    .default_turn_limit = 12,
    .default_cols = 16,
    .default_rows = 8,
    .default_zone_rows = 2,
    .max_path_squares = 64,
    .max_board_side = 64,
    .max_id = 255,
    .leader_die_wound = 6,
    .leader_die_kill = 6,
    .leaving_leader_rolls = false,
};

// optio-2: optio-1 and the ruling that a leader carried out of the game by his unit's rout
// still rolls for that fight (shared/rules/optio.md, "Leader dice").
constexpr Ruleset optio2() {
  Ruleset r = kOptio1;
  r.version = "optio-2";
  r.leaving_leader_rolls = true;
  return r;
}
constexpr Ruleset kOptio2 = optio2();

constexpr std::array<const Ruleset*, 2> kReleased{&kOptio1, &kOptio2};

}  // namespace

int Ruleset::clamp_shift(int shift) const {
  return std::clamp(shift, modifiers.min_shift, modifiers.max_shift);
}

int Ruleset::shifted_hits(int base, int shift) const {
  const int b = std::clamp(base, 0, kHitsBases - 1);
  const int col = clamp_shift(shift) - modifiers.min_shift;
  return hits[static_cast<std::size_t>(b)][static_cast<std::size_t>(col)];
}

const Ruleset* find_ruleset(std::string_view version) {
  for (const Ruleset* r : kReleased) {
    if (r->version == version) return r;
  }
  return nullptr;
}

std::string_view terrain_name(Terrain t) {
  constexpr std::array<std::string_view, kTerrains> kNames{"open",  "hill", "woods", "marsh",
                                                           "river", "ford", "camp"};
  return kNames[static_cast<std::size_t>(t)];
}

std::string_view drill_name(Drill d) {
  constexpr std::array<std::string_view, kDrills> kNames{"agile", "drilled", "unwieldy"};
  return kNames[static_cast<std::size_t>(d)];
}

}  // namespace castra::rules::optio
