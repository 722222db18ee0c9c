#include "client/sdl/stand_board.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "client/sdl/labels.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace s = v1::stand;

namespace {

float jitter(int col, int row, int salt) {
  std::uint32_t h = static_cast<std::uint32_t>(col) * 73856093u ^
                    static_cast<std::uint32_t>(row) * 19349663u ^
                    static_cast<std::uint32_t>(salt) * 83492791u;
  h ^= h >> 13;
  h *= 0x5bd1e995;
  h ^= h >> 15;
  return static_cast<float>(h % 1000) / 1000.0f;
}

SDL_Color shade(SDL_Color c, float k) {
  auto f = [k](std::uint8_t v) {
    return static_cast<std::uint8_t>(std::clamp(static_cast<float>(v) * k, 0.0f, 255.0f));
  };
  return SDL_Color{f(c.r), f(c.g), f(c.b), c.a};
}

SDL_Color with_alpha(SDL_Color c, std::uint8_t a) {
  return SDL_Color{c.r, c.g, c.b, a};
}

SDL_Color terrain_color(s::Terrain t) {
  switch (t) {
    case s::TERRAIN_WOODS:
      return theme::kStandWoods;
    case s::TERRAIN_SWAMP:
      return theme::kStandSwamp;
    case s::TERRAIN_TOWN:
      return theme::kStandTown;
    case s::TERRAIN_HILL:
      return theme::kStandHill;
    case s::TERRAIN_STEEP:
      return theme::kStandSteep;
    case s::TERRAIN_WATER:
      return theme::kStandWater;
    default:
      return theme::kStandOpen;
  }
}

std::vector<PointF> hex_points(const HexGeometry& g, PointF c, float scale = 1.0f) {
  std::vector<PointF> pts;
  pts.reserve(6);
  for (int i = 0; i < 6; ++i)
    pts.push_back(g.corner(c, i, scale));
  return pts;
}

void draw_terrain(Painter& p, const HexGeometry& g, const s::Tile& t) {
  const int col = t.hex().col();
  const int row = t.hex().row();
  const PointF m = g.centre(col, row);
  const float z = g.size();
  const SDL_Color base = terrain_color(t.terrain());
  p.fill_polygon(hex_points(g, m), base);
  switch (t.terrain()) {
    case s::TERRAIN_HILL:
      p.fill_polygon(hex_points(g, m, 0.72f), shade(base, 1.06f));
      p.stroke_polyline(hex_points(g, m, 0.72f), std::max(1.0f, z / 30), shade(base, 0.8f), true);
      p.stroke_polyline(hex_points(g, m, 0.42f), std::max(1.0f, z / 30), shade(base, 0.76f), true);
      break;
    case s::TERRAIN_STEEP:
      p.stroke_polyline(hex_points(g, m, 0.75f), std::max(1.0f, z / 25), shade(base, 0.7f), true);
      for (int k = 0; k < 7; ++k) {
        const float x = m.x - z * 0.6f + z * 0.2f * static_cast<float>(k);
        p.line({x, m.y - z * 0.35f}, {x + z * 0.12f, m.y + z * 0.35f}, std::max(1.5f, z / 22),
               shade(base, 0.65f));
      }
      break;
    case s::TERRAIN_WOODS:
      for (int k = 0; k < 7; ++k) {
        const float a = 6.283f * jitter(col, row, k);
        const float d = z * 0.55f * std::sqrt(jitter(col, row, k + 11));
        const PointF at{m.x + d * std::cos(a), m.y + d * std::sin(a) * 0.9f};
        const float rad = z * (0.14f + 0.06f * jitter(col, row, k + 23));
        p.fill_circle({at.x + z * 0.03f, at.y + z * 0.04f}, rad, shade(base, 0.6f));
        p.fill_circle(at, rad, shade(base, 1.25f));
        p.fill_circle({at.x - rad * 0.3f, at.y - rad * 0.3f}, rad * 0.45f, shade(base, 1.45f));
      }
      break;
    case s::TERRAIN_SWAMP:
      for (int k = 0; k < 8; ++k) {
        const float x = m.x + z * (jitter(col, row, k) * 1.1f - 0.7f);
        const float y = m.y + z * (jitter(col, row, k + 40) * 1.0f - 0.5f);
        p.line({x, y}, {x + z * 0.28f, y}, std::max(1.0f, z / 30), theme::rgb(0x4F7F8F));
        if (k % 2 == 0) {
          p.line({x + z * 0.14f, y}, {x + z * 0.08f, y - z * 0.14f}, 1.5f, theme::rgb(0x3E5E34));
          p.line({x + z * 0.14f, y}, {x + z * 0.2f, y - z * 0.14f}, 1.5f, theme::rgb(0x3E5E34));
        }
      }
      break;
    case s::TERRAIN_TOWN: {
      const SDL_Color roof = theme::rgb(0xA0522D);
      const SDL_Color wall = theme::rgb(0xEDE3CF);
      const PointF spots[4] = {{-0.35f, -0.3f}, {0.2f, -0.35f}, {-0.25f, 0.25f}, {0.3f, 0.2f}};
      for (const auto& sp : spots) {
        const float x = m.x + sp.x * z;
        const float y = m.y + sp.y * z;
        const float w = z * 0.34f;
        p.fill_rect(SDL_Rect{static_cast<int>(x - w / 2), static_cast<int>(y - w / 3),
                             static_cast<int>(w), static_cast<int>(w * 0.66f)},
                    wall);
        p.fill_polygon({{x - w * 0.6f, y - w / 3}, {x + w * 0.6f, y - w / 3}, {x, y - w * 0.85f}},
                       roof);
      }
      p.stroke_polyline(hex_points(g, m, 0.9f), std::max(1.5f, z / 20), theme::rgb(0x6B5B45), true);
      break;
    }
    case s::TERRAIN_WATER: {
      const SDL_Color wave = shade(base, 1.25f);
      for (int k = -1; k <= 1; ++k) {
        std::vector<PointF> pts;
        for (int i = 0; i <= 8; ++i) {
          const float x = m.x - z * 0.55f + z * 1.1f * static_cast<float>(i) / 8;
          pts.push_back({x, m.y + z * 0.35f * static_cast<float>(k) +
                                z * 0.05f * std::sin(static_cast<float>(i) * 1.6f)});
        }
        p.stroke_polyline(pts, std::max(1.0f, z / 30), wave);
      }
      if (t.crossing() == s::CROSSING_FORD) {
        for (int k = 0; k < 5; ++k) {
          const PointF at{m.x - z * 0.56f + z * 0.28f * static_cast<float>(k),
                          m.y + z * (0.16f * jitter(col, row, k) - 0.08f)};
          p.fill_circle(at, z * 0.1f, theme::rgb(0x8C7A5B));
          p.fill_circle({at.x - z * 0.03f, at.y - z * 0.03f}, z * 0.05f, theme::rgb(0xB9A781));
        }
      } else if (t.crossing() == s::CROSSING_BRIDGE) {
        const float hw = z * 0.75f;
        const float hh = z * 0.22f;
        p.fill_rect(SDL_Rect{static_cast<int>(m.x - hw), static_cast<int>(m.y - hh),
                             static_cast<int>(2 * hw), static_cast<int>(2 * hh)},
                    theme::rgb(0x8B5A2B));
        for (int k = 1; k < 6; ++k) {
          const float x = m.x - hw + 2 * hw * static_cast<float>(k) / 6;
          p.line({x, m.y - hh}, {x, m.y + hh}, 1, theme::rgb(0x5C3A1A));
        }
      }
      break;
    }
    default:
      break;
  }
}

void draw_troops(Painter& p, const HexGeometry& g, const s::Tile& t, bool selected, bool dim) {
  const s::Troops& tr = t.troops();
  const PointF m = g.centre(t.hex().col(), t.hex().row());
  const float z = g.size();
  const bool a_side = tr.side() == v1::SIDE_A;
  SDL_Color fill = a_side ? theme::kSideA : theme::kSideB;
  const SDL_Color dark = a_side ? theme::kSideADark : theme::kSideBDark;
  const SDL_Color light = a_side ? theme::kSideALight : theme::kSideBLight;
  if (dim) fill = shade(fill, 0.72f);
  const bool standing = tr.posture() == s::POSTURE_STANDING;
  const int f = ((tr.facing() % 6) + 6) % 6;
  // Corners run clockwise on screen from the upper right (HexGeometry::corner) while
  // directions run counter-clockwise from east, so hexside f lies between corners 6 - f and
  // the next one. That hexside is drawn bright: the troops face it.
  const int c0 = (6 - f) % 6;
  const int c1 = (c0 + 1) % 6;
  p.line(g.corner(m, c0, 0.94f), g.corner(m, c1, 0.94f), std::max(3.0f, z * 0.11f), light);
  // The counter: figure counts above, the posture in a band below.
  const int w = static_cast<int>(z * 1.16f);
  const int h = static_cast<int>(z * 0.98f);
  const SDL_Rect r{static_cast<int>(m.x) - w / 2, static_cast<int>(m.y) - h / 2, w, h};
  const int radius = static_cast<int>(z * 0.14f);
  p.fill_round_rect(SDL_Rect{r.x + 2, r.y + 3, r.w, r.h}, radius, SDL_Color{0, 0, 0, 90});
  p.fill_round_rect(SDL_Rect{r.x - 2, r.y - 2, r.w + 4, r.h + 4}, radius + 2,
                    selected ? theme::kSelection : dark);
  p.fill_round_rect(r, radius, fill);
  const int band_h = std::max(9, static_cast<int>(z * 0.3f));
  const SDL_Rect band{r.x + 3, r.y + r.h - band_h - 3, r.w - 6, band_h};
  p.fill_round_rect(band, 3, standing ? theme::kGold : shade(dark, 0.8f));
  const int tag_size = std::max(8, static_cast<int>(z * 0.19f));
  // Small hexes get the short words; the panel says them in full.
  const char* tag =
      z >= 40 ? (standing ? "STANDING" : "FALLING BACK") : (standing ? "STAND" : "BACK");
  p.text_centered(tag, m.x, static_cast<float>(band.y) + band.h / 2.0f, tag_size,
                  standing ? theme::kTextDark : theme::kText, Weight::kBold);
  // Figures: at most two types share a hex (foot, or mounted).
  struct Line {
    int n;
    const char* what;
  };
  std::vector<Line> lines;
  const auto& fg = tr.figures();
  if (fg.infantry() > 0) lines.push_back({fg.infantry(), "inf"});
  if (fg.archers() > 0) lines.push_back({fg.archers(), "arc"});
  if (fg.cavalry() > 0) lines.push_back({fg.cavalry(), "cav"});
  if (fg.chariots() > 0) lines.push_back({fg.chariots(), "chr"});
  const int big = std::max(8, static_cast<int>(z * (lines.size() > 1 ? 0.27f : 0.36f)));
  const float top = static_cast<float>(r.y);
  const float bottom = static_cast<float>(band.y);
  const float step = (bottom - top) / static_cast<float>(lines.size() + 1);
  float y = top + step + (lines.size() > 1 ? z * 0.02f : 0.0f);
  for (const auto& l : lines) {
    p.text_centered(std::to_string(l.n) + " " + l.what, m.x, y, big, theme::kCounterText,
                    Weight::kBold);
    y += step;
  }
  // A wedge on the faced hexside, over the counter's edge.
  {
    const PointF tip = g.side_point(m, f, 1.0f);
    const PointF base = g.side_point(m, f, 0.66f);
    const float dx = tip.x - base.x;
    const float dy = tip.y - base.y;
    const std::vector<PointF> wedge{tip,
                                    {base.x - dy * 0.75f, base.y + dx * 0.75f},
                                    {base.x + dy * 0.75f, base.y - dx * 0.75f}};
    p.fill_polygon(wedge, light);
    p.stroke_polyline(wedge, 1.5f, dark, true);
  }
  // Attacked this fight phase: crossed strokes at the counter's corner.
  if (tr.attacked()) {
    const float cx = static_cast<float>(r.x + r.w) - z * 0.12f;
    const float cy = static_cast<float>(r.y + r.h) - z * 0.12f;
    const float k = z * 0.1f;
    p.line({cx - k, cy - k}, {cx + k, cy + k}, 2.5f, theme::kGold);
    p.line({cx - k, cy + k}, {cx + k, cy - k}, 2.5f, theme::kGold);
  }
}

}  // namespace

const s::Tile* stand_tile(const s::State& st, int col, int row) {
  const int i = row * st.width() + col;
  if (col < 0 || row < 0 || col >= st.width() || row >= st.height() || i >= st.tiles_size())
    return nullptr;
  const s::Tile& t = st.tiles(i);
  if (t.hex().col() == col && t.hex().row() == row) return &t;
  for (const auto& other : st.tiles())
    if (other.hex().col() == col && other.hex().row() == row) return &other;
  return nullptr;
}

void draw_stand_board(Painter& p, const SDL_Rect& area, const HexGeometry& g, const s::State& st,
                      const StandOverlay& ov) {
  p.set_clip(&area);
  const float z = g.size();
  for (const auto& t : st.tiles())
    draw_terrain(p, g, t);
  for (const auto& t : st.tiles()) {
    const PointF m = g.centre(t.hex().col(), t.hex().row());
    p.stroke_polyline(hex_points(g, m), 1.2f, theme::rgb(0x2B2B22, 130), true);
  }
  if (ov.show_zone) {
    const SDL_Color tint =
        with_alpha(ov.zone_side == v1::SIDE_A ? theme::kSideA : theme::kSideB, 60);
    for (int row = st.zone().first(); row <= st.zone().last(); ++row) {
      for (int col = 0; col < st.width(); ++col)
        p.fill_polygon(hex_points(g, g.centre(col, row)), tint);
    }
    // A scenario that lists its zones hex by hex leaves the rows empty.
    for (const auto& h : ov.zone_side == v1::SIDE_A ? st.zone_a() : st.zone_b())
      p.fill_polygon(hex_points(g, g.centre(h.col(), h.row())), tint);
  }
  // Coordinates: columns above row 0 and below the last row, rows on both sides.
  const int coord_size = std::clamp(static_cast<int>(z * 0.34f), 10, 16);
  for (int col = 0; col < st.width(); ++col) {
    const PointF top = g.centre(col, 0);
    p.text_centered(std::to_string(col), top.x, top.y - z - 11, coord_size, theme::kCoordText);
    const PointF bottom = g.centre(col, st.height() - 1);
    p.text_centered(std::to_string(col), bottom.x, bottom.y + z + 11, coord_size,
                    theme::kCoordText);
  }
  for (int row = 0; row < st.height(); ++row) {
    const PointF left = g.centre(0, row);
    p.text_centered(std::to_string(row), left.x - g.width() * 0.5f - 14, left.y, coord_size,
                    theme::kCoordText);
    const PointF right = g.centre(st.width() - 1, row);
    p.text_centered(std::to_string(row), right.x + g.width() * 0.5f + 14, right.y, coord_size,
                    theme::kCoordText);
  }
  // Last move, fights.
  if (ov.trail.size() >= 2) {
    std::vector<PointF> pts;
    for (const auto& c : ov.trail)
      pts.push_back(g.centre(c.col, c.row));
    for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
      if (i + 2 == pts.size()) {
        p.arrow(pts[i], pts[i + 1], std::max(2.0f, z * 0.08f), z * 0.35f, theme::kLastMove);
      } else {
        p.line(pts[i], pts[i + 1], std::max(2.0f, z * 0.08f), theme::kLastMove);
      }
    }
  }
  for (const auto& f : ov.flashes)
    p.stroke_polyline(hex_points(g, g.centre(f.col, f.row), 0.9f), std::max(2.0f, z * 0.08f),
                      theme::rgb(0xFF3B30, 210), true);
  // Destinations under the counters; their dots over them.
  for (const auto& d : ov.destinations) {
    const PointF m = g.centre(d.col, d.row);
    p.fill_polygon(hex_points(g, m, 0.96f), with_alpha(theme::kHighlight, 80));
    p.stroke_polyline(hex_points(g, m, 0.9f), 2.5f, theme::kHighlight, true);
  }
  if (ov.path.size() >= 2) {
    std::vector<PointF> pts;
    for (const auto& c : ov.path)
      pts.push_back(g.centre(c.col, c.row));
    p.stroke_polyline(pts, std::max(2.0f, z * 0.07f), theme::kHighlight);
  }
  for (const auto& t : st.tiles()) {
    if (!t.has_troops() || stand_figure_total(t.troops().figures()) == 0) continue;
    const bool selected =
        ov.selected && ov.selected->col == t.hex().col() && ov.selected->row == t.hex().row();
    const bool dim = ov.dim_moved && t.troops().side() == ov.dim_side &&
                     stand_figure_total(t.troops().unmoved()) == 0;
    draw_troops(p, g, t, selected, dim);
  }
  for (const auto& d : ov.destinations) {
    const PointF m = g.centre(d.col, d.row);
    const s::Tile* t = stand_tile(st, d.col, d.row);
    // On an occupied friendly hex the dot sits low, clear of the figure counts.
    const bool occupied =
        t != nullptr && t->has_troops() && stand_figure_total(t->troops().figures()) > 0;
    const PointF at{m.x, occupied ? m.y + z * 0.62f : m.y};
    p.fill_circle(at, std::max(4.0f, z * 0.14f) + 1.5f, theme::rgb(0x222222));
    p.fill_circle(at, std::max(4.0f, z * 0.14f), theme::kHighlight);
  }
  for (const auto& t : ov.targets) {
    const PointF m = g.centre(t.col, t.row);
    p.stroke_polyline(hex_points(g, m, 0.95f), std::max(3.0f, z * 0.1f), theme::kTarget, true);
  }
  if (ov.selected) {
    const PointF m = g.centre(ov.selected->col, ov.selected->row);
    p.stroke_polyline(hex_points(g, m, 0.97f), std::max(3.0f, z * 0.09f), theme::kSelection, true);
  }
  if (ov.hover) {
    const PointF m = g.centre(ov.hover->col, ov.hover->row);
    p.stroke_polyline(hex_points(g, m, 0.98f), 2, SDL_Color{255, 255, 255, 120}, true);
  }
  p.set_clip(nullptr);
}

}  // namespace castra::client
