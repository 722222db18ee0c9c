// Board geometry: where each square (Optio) or pointy-top odd-r hex (Ancient STAND!) is drawn
// inside the board's area, under the player's zoom and pan, and which cell a pixel picks.
// Plain values; any thread.
#pragma once

#include <SDL.h>

#include <cmath>
#include <optional>

#include "client/sdl/painter.hpp"

namespace castra::client {

struct Cell {
  int col = 0;
  int row = 0;
  bool operator==(const Cell&) const = default;
};

// Zoom (1 = the whole board fits) and pan (pixels) the player chose.
struct Camera {
  float zoom = 1.0f;
  float pan_x = 0;
  float pan_y = 0;
  static constexpr float kMinZoom = 0.5f;
  static constexpr float kMaxZoom = 6.0f;
  void reset() { *this = Camera{}; }
};

// Squares numbered from 1 (Optio: column 1..cols from the left, row 1..rows from the top).
class SquareGeometry {
 public:
  SquareGeometry(const SDL_Rect& area, int cols, int rows, const Camera& camera, int margin);
  float cell() const { return cell_; }
  PointF centre(int col, int row) const;
  SDL_FRect rect(int col, int row) const;
  std::optional<Cell> pick(int x, int y) const;
  // The board's outer box.
  SDL_FRect bounds() const;
  // Zooms by `factor` keeping the board point under (x, y) still.
  static void zoom_at(Camera* camera, const SDL_Rect& area, float factor, int x, int y);

 private:
  int cols_;
  int rows_;
  float cell_;
  float x0_;
  float y0_;
};

// Hexes numbered from 0 in odd-r offset coordinates (STAND!: odd rows shifted half a hex to
// the right); `size` is the centre-to-corner distance.
class HexGeometry {
 public:
  HexGeometry(const SDL_Rect& area, int cols, int rows, const Camera& camera, int margin);
  float size() const { return size_; }
  float width() const { return size_ * kSqrt3; }
  PointF centre(int col, int row) const;
  // Corner i (0..5) of a pointy-top hex, going round it; `scale` shrinks the hex.
  PointF corner(PointF centre, int i, float scale = 1.0f) const;
  // The midpoint of the hexside in STAND! direction d (0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE).
  PointF side_point(PointF centre, int direction, float scale = 1.0f) const;
  std::optional<Cell> pick(int x, int y) const;
  SDL_FRect bounds() const;

  static constexpr float kSqrt3 = 1.7320508f;

 private:
  int cols_;
  int rows_;
  float size_;
  float x0_;
  float y0_;
};

}  // namespace castra::client
