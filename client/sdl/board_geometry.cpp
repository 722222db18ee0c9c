#include "client/sdl/board_geometry.hpp"

#include <algorithm>
#include <numbers>

namespace castra::client {

SquareGeometry::SquareGeometry(const SDL_Rect& area, int cols, int rows, const Camera& camera,
                               int margin)
    : cols_(std::max(cols, 1)), rows_(std::max(rows, 1)) {
  const float fit =
      std::max(4.0f, std::min(static_cast<float>(area.w - 2 * margin) / static_cast<float>(cols_),
                              static_cast<float>(area.h - 2 * margin) / static_cast<float>(rows_)));
  cell_ = fit * camera.zoom;
  x0_ = static_cast<float>(area.x) + area.w / 2.0f - cell_ * cols_ / 2.0f + camera.pan_x;
  y0_ = static_cast<float>(area.y) + area.h / 2.0f - cell_ * rows_ / 2.0f + camera.pan_y;
}

PointF SquareGeometry::centre(int col, int row) const {
  return {x0_ + (static_cast<float>(col) - 0.5f) * cell_,
          y0_ + (static_cast<float>(row) - 0.5f) * cell_};
}

SDL_FRect SquareGeometry::rect(int col, int row) const {
  return {x0_ + static_cast<float>(col - 1) * cell_, y0_ + static_cast<float>(row - 1) * cell_,
          cell_, cell_};
}

std::optional<Cell> SquareGeometry::pick(int x, int y) const {
  const float fx = (static_cast<float>(x) - x0_) / cell_;
  const float fy = (static_cast<float>(y) - y0_) / cell_;
  if (fx < 0 || fy < 0) return std::nullopt;
  const int col = static_cast<int>(fx) + 1;
  const int row = static_cast<int>(fy) + 1;
  if (col > cols_ || row > rows_) return std::nullopt;
  return Cell{col, row};
}

SDL_FRect SquareGeometry::bounds() const {
  return {x0_, y0_, cell_ * cols_, cell_ * rows_};
}

void SquareGeometry::zoom_at(Camera* camera, const SDL_Rect& area, float factor, int x, int y) {
  const float old_zoom = camera->zoom;
  camera->zoom = std::clamp(camera->zoom * factor, Camera::kMinZoom, Camera::kMaxZoom);
  const float k = camera->zoom / old_zoom;
  // The point under the cursor, relative to the area's centre, scales with the board.
  const float cx = static_cast<float>(area.x) + area.w / 2.0f;
  const float cy = static_cast<float>(area.y) + area.h / 2.0f;
  const float px = static_cast<float>(x) - cx;
  const float py = static_cast<float>(y) - cy;
  camera->pan_x = px - (px - camera->pan_x) * k;
  camera->pan_y = py - (py - camera->pan_y) * k;
}

HexGeometry::HexGeometry(const SDL_Rect& area, int cols, int rows, const Camera& camera, int margin)
    : cols_(std::max(cols, 1)), rows_(std::max(rows, 1)) {
  // Board extent in units of `size`: width sqrt3 * (cols + 1/2), height 1.5 * rows + 0.5.
  const float w_units = kSqrt3 * (static_cast<float>(cols_) + (rows_ > 1 ? 0.5f : 0.0f));
  const float h_units = 1.5f * static_cast<float>(rows_) + 0.5f;
  const float fit = std::max(3.0f, std::min(static_cast<float>(area.w - 2 * margin) / w_units,
                                            static_cast<float>(area.h - 2 * margin) / h_units));
  size_ = fit * camera.zoom;
  x0_ = static_cast<float>(area.x) + area.w / 2.0f - size_ * w_units / 2.0f + camera.pan_x;
  y0_ = static_cast<float>(area.y) + area.h / 2.0f - size_ * h_units / 2.0f + camera.pan_y;
}

PointF HexGeometry::centre(int col, int row) const {
  const float w = width();
  return {x0_ + w * (static_cast<float>(col) + 0.5f * static_cast<float>(row & 1)) + w / 2,
          y0_ + size_ * (1.5f * static_cast<float>(row) + 1.0f)};
}

PointF HexGeometry::corner(PointF c, int i, float scale) const {
  // Pointy-top: corners at 30 + 60 i degrees.
  const double a = std::numbers::pi / 180.0 * (60.0 * i - 30.0);
  return {c.x + size_ * scale * static_cast<float>(std::cos(a)),
          c.y + size_ * scale * static_cast<float>(std::sin(a))};
}

PointF HexGeometry::side_point(PointF c, int direction, float scale) const {
  // Direction 0 is east, each next one 60 degrees counter-clockwise (screen y grows down).
  const double a = std::numbers::pi / 180.0 * (60.0 * direction);
  const float r = size_ * scale * kSqrt3 / 2;
  return {c.x + r * static_cast<float>(std::cos(a)), c.y - r * static_cast<float>(std::sin(a))};
}

std::optional<Cell> HexGeometry::pick(int x, int y) const {
  // Pixel to axial (pointy-top), cube rounding, axial to odd-r offset.
  const float w = width();
  const float px = static_cast<float>(x) - (x0_ + w / 2);
  const float py = static_cast<float>(y) - (y0_ + size_);
  const float q = (kSqrt3 / 3 * px - 1.0f / 3 * py) / size_;
  const float r = (2.0f / 3 * py) / size_;
  const float s = -q - r;
  float rq = std::round(q);
  float rr = std::round(r);
  const float rs = std::round(s);
  const float dq = std::abs(rq - q);
  const float dr = std::abs(rr - r);
  const float ds = std::abs(rs - s);
  if (dq > dr && dq > ds) {
    rq = -rr - rs;
  } else if (dr > ds) {
    rr = -rq - rs;
  }
  const int row = static_cast<int>(rr);
  const int col = static_cast<int>(rq) + (row - (row & 1)) / 2;
  if (col < 0 || row < 0 || col >= cols_ || row >= rows_) return std::nullopt;
  return Cell{col, row};
}

SDL_FRect HexGeometry::bounds() const {
  return {x0_, y0_, size_ * kSqrt3 * (static_cast<float>(cols_) + 0.5f),
          size_ * (1.5f * static_cast<float>(rows_) + 0.5f)};
}

}  // namespace castra::client
