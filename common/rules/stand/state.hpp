// The scenario and the state of an Ancient STAND! battle: the map of hexes with the troops
// in them, the phase, and the tallies the end of the game reads. Plain values; the engine
// (game.hpp) makes and changes them, anyone may read them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/rules/stand/hex.hpp"
#include "common/rules/stand/ruleset.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::stand {

// One hex the scenario describes; hexes it does not list are open with default capacity.
struct HexSpec {
  Hex hex;
  Terrain terrain = Terrain::kOpen;
  Crossing crossing = Crossing::kNone;
  std::optional<int> capacity;  // overrides the terrain's default
  friend bool operator==(const HexSpec&, const HexSpec&) = default;
};

struct Army {
  std::string name;
  Figures figures;
  friend bool operator==(const Army&, const Army&) = default;
};

// One body of troops of a fixed deployment: a hex, its figures, facing and posture.
struct Placement {
  Side side = Side::kA;
  Hex hex;
  Figures figures;
  int facing = 0;
  Posture posture = Posture::kFallingBack;
  friend bool operator==(const Placement&, const Placement&) = default;
};

struct Scenario {
  std::string name;
  int width = 0;
  int height = 0;
  std::vector<HexSpec> hexes;
  std::array<Army, 2> armies;  // indexed by Side
  int turn_limit = 0;          // game turns; 0 takes the ruleset's default
  // The rulings' "Scenario deployment". A fixed deployment places every body of troops of
  // both armies and replaces the roll-off and deployment; an army with no figures takes the
  // sum of its placements, one with figures must equal it. Empty: section 2's deployment.
  std::vector<Placement> placements;
  Side first_side = Side::kA;  // with placements: the side that moves first
  // Deployment zones other than the default rows, by side: both or neither, never with
  // placements. They keep the roll-off and the order of deployment.
  std::array<std::vector<Hex>, 2> zones;
  friend bool operator==(const Scenario&, const Scenario&) = default;
};

// kRollOff waits for begin() (which rolls off, or with a fixed deployment begins the
// battle); kOver once the outcome is known.
enum class Phase : std::uint8_t { kRollOff = 0, kDeploy = 1, kMove = 2, kFight = 3, kOver = 4 };
std::string_view name(Phase p);  // "roll-off", "deploy", "move", "fight", "over"

struct Tile {
  Terrain terrain = Terrain::kOpen;
  Crossing crossing = Crossing::kNone;
  int capacity = 0;
  // The troops in the hex. An empty hex keeps every field below at its default.
  Side side = Side::kA;
  Figures figures;
  // Figures that may still move in the current move phase (rulings: each moves once).
  Figures unmoved;
  int facing = 0;
  Posture posture = Posture::kFallingBack;
  bool attacked = false;  // this hex has made its attack of the current fight phase

  bool occupied() const { return !figures.empty(); }
  bool held_by(Side s) const { return occupied() && side == s; }
  friend bool operator==(const Tile&, const Tile&) = default;
};

struct State {
  std::string version;  // the Ruleset this battle is played with
  std::string name;
  int width = 0;
  int height = 0;
  std::vector<Tile> tiles;  // row-major: index = row * width + col
  int turn_limit = 0;
  std::array<std::string, 2> army_names;

  Phase phase = Phase::kRollOff;
  Side active = Side::kA;  // the side that deploys, moves or fights now
  // The roll-off's winner, who moves first; set by the roll-off, or by a fixed deployment.
  Side first = Side::kA;
  std::array<int, 2> roll_off{};  // the last roll-off faces, 0 before any
  int game_turn = 0;              // 1.. once the battle has begun
  RowSpan zone;                   // the deploying side's rows; empty with listed zones
  // The scenario's deployment zones by side, sorted row by row; empty: the default rows.
  std::array<std::vector<Hex>, 2> zones;
  std::array<Figures, 2> to_deploy;
  std::array<int, 2> start_strength{};
  std::array<int, 2> lost_strength{};
  std::array<Figures, 2> losses;
  std::optional<Outcome> outcome;

  bool on_map(Hex h) const { return h.col >= 0 && h.col < width && h.row >= 0 && h.row < height; }
  const Tile& at(Hex h) const { return tiles[static_cast<std::size_t>(h.row * width + h.col)]; }
  Tile& at(Hex h) { return tiles[static_cast<std::size_t>(h.row * width + h.col)]; }
  Hex hex_of(std::size_t i) const {
    return {static_cast<int>(i) % width, static_cast<int>(i) / width};
  }
  bool listed_zones() const { return !zones[0].empty(); }
  friend bool operator==(const State&, const State&) = default;
};

// Scenario limits that keep hostile input from exhausting memory.
inline constexpr int kMaxMapSide = 64;
inline constexpr int kMaxFiguresPerType = 10000;
inline constexpr int kMaxCapacity = 10000;
inline constexpr int kMaxTurnLimit = 1000;
// The most strength a side can have on the largest map at the largest capacities.
inline constexpr int kMaxStrength = kMaxMapSide * kMaxMapSide * kMaxCapacity;

}  // namespace castra::rules::stand
