// Hex geometry of Ancient STAND!: pointy-topped hexes addressed in offset coordinates
// (col, row), odd rows shifted right ("odd-r", rulings section 7), with axial coordinates
// inside for distance and neighbours. Pure constexpr values; any thread may use them.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>

#include "common/rules/types.hpp"

namespace castra::rules::stand {

// A hex as the scenario, the protocol and the screen name it. Off-map values are valid
// coordinates (a command may name one); the map decides whether a hex exists.
struct Hex {
  int col = 0;
  int row = 0;
  friend constexpr auto operator<=>(const Hex&, const Hex&) = default;
};

// Axial coordinates: q = col - (row - (row & 1)) / 2, r = row.
struct Axial {
  int q = 0;
  int r = 0;
  friend constexpr bool operator==(const Axial&, const Axial&) = default;
};

constexpr Axial to_axial(Hex h) {
  return {h.col - (h.row - (h.row & 1)) / 2, h.row};
}
constexpr Hex to_hex(Axial a) {
  return {a.q + (a.r - (a.r & 1)) / 2, a.r};
}

// The six directions, each the next side round the hex: E, NE, NW, W, SW, SE. A facing is
// a direction; hexside d of a hex is the side its neighbour in direction d lies across.
inline constexpr int kDirections = 6;
inline constexpr std::array<Axial, kDirections> kAxialSteps = {
    {{+1, 0}, {+1, -1}, {0, -1}, {-1, 0}, {-1, +1}, {0, +1}}};
inline constexpr std::array<const char*, kDirections> kDirectionNames = {"E", "NE", "NW",
                                                                         "W", "SW", "SE"};

constexpr bool valid_direction(int d) {
  return d >= 0 && d < kDirections;
}
constexpr int turn(int d, int by) {
  return ((d + by) % kDirections + kDirections) % kDirections;
}
constexpr int opposite(int d) {
  return turn(d, 3);
}

constexpr Hex neighbour(Hex h, int direction) {
  const Axial a = to_axial(h);
  const Axial step = kAxialSteps[static_cast<std::size_t>(direction)];
  return to_hex({a.q + step.q, a.r + step.r});
}

constexpr int distance(Hex from, Hex to) {
  const Axial a = to_axial(from);
  const Axial b = to_axial(to);
  const int dq = a.q - b.q;
  const int dr = a.r - b.r;
  const int ds = dq + dr;
  return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
}

constexpr bool adjacent(Hex a, Hex b) {
  return distance(a, b) == 1;
}

// The direction from `from` to its neighbour `to`, or nothing if they are not neighbours.
constexpr std::optional<int> direction_to(Hex from, Hex to) {
  for (int d = 0; d < kDirections; ++d) {
    if (neighbour(from, d) == to) return d;
  }
  return std::nullopt;
}

// A hex facing `facing` has its rear on hexsides facing+2, facing+3, facing+4: the three
// that neither are the facing hexside nor touch it.
constexpr bool is_rear_hexside(int facing, int hexside) {
  const int rel = turn(hexside, -facing);
  return rel >= 2 && rel <= 4;
}

// A side's first `count` rows of a map `height` rows high, rows `first`..`last`
// inclusive: side A's edge is row 0, side B's is row height-1.
struct RowSpan {
  int first = 0;
  int last = -1;
  constexpr bool contains(int row) const { return row >= first && row <= last; }
  friend constexpr bool operator==(const RowSpan&, const RowSpan&) = default;
};

constexpr RowSpan first_rows(Side side, int count, int height) {
  return side == Side::kA ? RowSpan{0, count - 1} : RowSpan{height - count, height - 1};
}

// "(4,2)": how every message names a hex.
std::string to_string(Hex h);

}  // namespace castra::rules::stand
