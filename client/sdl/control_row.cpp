#include "client/sdl/control_row.hpp"

#include <algorithm>

namespace castra::client {

namespace {

constexpr int kGap = 8;
constexpr int kCompactFont = 13;

int compact_width(Painter& p, const RowButton& b) {
  const std::string& s = b.short_label.empty() ? b.label : b.short_label;
  return std::min(b.width, p.text_width(s, kCompactFont) + 20);
}

}  // namespace

RowLayout lay_out_row(Painter& p, const SDL_Rect& r, int y, int h,
                      const std::vector<RowButton>& left, const std::vector<RowButton>& pinned) {
  const auto sum = [&](const std::vector<RowButton>& bs, bool compact, bool drop_optional) {
    int total = 0;
    for (const auto& b : bs) {
      if (drop_optional && b.optional) continue;
      total += (compact ? compact_width(p, b) : b.width) + kGap;
    }
    return total;
  };
  const int room = r.w - 12 - 4;
  RowLayout out;
  bool drop = false;
  if (sum(left, false, false) + sum(pinned, false, false) <= room) {
    out.compact = false;
  } else if (sum(left, true, false) + sum(pinned, true, false) <= room) {
    out.compact = true;
  } else {
    out.compact = true;
    drop = true;
  }
  int right = r.x + r.w - 4;
  for (const auto& b : pinned) {
    if (drop && b.optional) {
      out.pinned.push_back(SDL_Rect{right, y, 0, h});
      continue;
    }
    const int w = out.compact ? compact_width(p, b) : b.width;
    right -= w;
    out.pinned.push_back(SDL_Rect{right, y, w, h});
    right -= kGap;
  }
  out.pinned_start = right + kGap;
  int x = r.x + 12;
  for (const auto& b : left) {
    const int w = out.compact ? compact_width(p, b) : b.width;
    // Never under a pinned button: what finds no room is not drawn (at widths below the
    // window's minimum only).
    if (x + w > right) {
      out.left.push_back(SDL_Rect{x, y, 0, h});
      continue;
    }
    out.left.push_back(SDL_Rect{x, y, w, h});
    x += w + kGap;
  }
  out.left_end = x;
  return out;
}

}  // namespace castra::client
