// Optio's square grid: squares, facings and the king's-move geometry every rule uses.
// Columns 1..W from the left, rows 1..H from the top; facing 0 is north (toward row 1),
// 1 east, 2 south, 3 west. Pure constexpr values; any thread.
#pragma once

#include <array>
#include <cstdlib>

namespace castra::rules::optio {

struct Square {
  int col = 0;
  int row = 0;
  friend constexpr bool operator==(Square, Square) = default;
  friend constexpr auto operator<=>(Square, Square) = default;
};

// Reading order: smallest row, then smallest column (the rulings' tie-break).
constexpr bool reading_before(Square a, Square b) {
  return a.row != b.row ? a.row < b.row : a.col < b.col;
}

constexpr int kFacings = 4;
constexpr bool valid_facing(int f) {
  return f >= 0 && f < kFacings;
}
constexpr int turn(int facing, int quarter_turns) {
  return ((facing + quarter_turns) % kFacings + kFacings) % kFacings;
}

// The unit vector of a facing: north is toward row 1.
constexpr Square step_of(int facing) {
  constexpr std::array<Square, kFacings> kSteps{{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}};
  return kSteps[static_cast<std::size_t>(turn(facing, 0))];
}
constexpr Square plus(Square a, Square b) {
  return {a.col + b.col, a.row + b.row};
}

constexpr Square ahead(Square s, int facing) {
  return plus(s, step_of(facing));
}
constexpr Square behind(Square s, int facing) {
  return plus(s, step_of(turn(facing, 2)));
}
// The two squares diagonally ahead: ahead-left first, then ahead-right.
constexpr std::array<Square, 2> diagonally_ahead(Square s, int facing) {
  const Square a = ahead(s, facing);
  return {plus(a, step_of(turn(facing, -1))), plus(a, step_of(turn(facing, 1)))};
}
// The two squares beside a unit: its left flank, then its right flank.
constexpr std::array<Square, 2> flanks(Square s, int facing) {
  return {plus(s, step_of(turn(facing, -1))), plus(s, step_of(turn(facing, 1)))};
}

// King's-move distance: the number of king steps (diagonals included) between squares.
constexpr int distance(Square a, Square b) {
  const int dc = std::abs(a.col - b.col);
  const int dr = std::abs(a.row - b.row);
  return dc > dr ? dc : dr;
}
constexpr bool king_adjacent(Square a, Square b) {
  return distance(a, b) == 1;
}
constexpr bool orthogonally_adjacent(Square a, Square b) {
  return std::abs(a.col - b.col) + std::abs(a.row - b.row) == 1;
}
// Whether `to` is one step straight or diagonally ahead of `from` for `facing`.
constexpr bool is_forward_step(Square from, int facing, Square to) {
  if (to == ahead(from, facing)) return true;
  const auto d = diagonally_ahead(from, facing);
  return to == d[0] || to == d[1];
}

// Where `other` stands relative to a unit at `s` facing `facing`, for orthogonal neighbours.
enum class Side4 { kFront, kFlank, kRear, kNone };
constexpr Side4 relative_side(Square s, int facing, Square other) {
  if (other == ahead(s, facing)) return Side4::kFront;
  if (other == behind(s, facing)) return Side4::kRear;
  const auto f = flanks(s, facing);
  if (other == f[0] || other == f[1]) return Side4::kFlank;
  return Side4::kNone;
}

// A shooter's arc: every square reachable in 1..range steps straight or diagonally ahead.
// At facing north from (c,r) that is the rows r-1..r-range, k columns either side at row
// r-k: 3 squares at range 1, 8 at range 2.
constexpr bool in_arc(Square from, int facing, int range, Square to) {
  const Square f = step_of(facing);
  const int dc = to.col - from.col;
  const int dr = to.row - from.row;
  const int forward = dc * f.col + dr * f.row;   // steps along the facing
  const int sideways = dc * f.row - dr * f.col;  // perpendicular offset
  return forward >= 1 && forward <= range && std::abs(sideways) <= forward;
}

}  // namespace castra::rules::optio
