#include "client/sdl/optio_board.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "client/sdl/labels.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace o = v1::optio;

namespace {

// A fixed pseudo-random value per square and salt, so terrain details never flicker.
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

SDL_Color terrain_color(o::Terrain t) {
  switch (t) {
    case o::TERRAIN_HILL:
      return theme::kOptioHill;
    case o::TERRAIN_WOODS:
      return theme::kOptioWoods;
    case o::TERRAIN_MARSH:
      return theme::kOptioMarsh;
    case o::TERRAIN_RIVER:
      return theme::kOptioRiver;
    case o::TERRAIN_FORD:
      return theme::kOptioFord;
    case o::TERRAIN_CAMP:
      return theme::kOptioCamp;
    default:
      return theme::kOptioOpen;
  }
}

void draw_terrain(Painter& p, const SDL_FRect& r, int col, int row, o::Terrain t) {
  const float c = r.w;
  SDL_Color base = terrain_color(t);
  // Open ground in a faint checker so squares read without heavy grid lines.
  if (t == o::TERRAIN_OPEN && (col + row) % 2 == 0) base = shade(base, 0.95f);
  p.fill_polygon({{r.x, r.y}, {r.x + c, r.y}, {r.x + c, r.y + c}, {r.x, r.y + c}}, base);
  const PointF mid{r.x + c / 2, r.y + c / 2};
  switch (t) {
    case o::TERRAIN_HILL: {
      // Contours.
      for (int k = 1; k <= 3; ++k) {
        const float inset = c * 0.1f * static_cast<float>(k);
        const SDL_Rect ring{static_cast<int>(r.x + inset), static_cast<int>(r.y + inset),
                            static_cast<int>(c - 2 * inset), static_cast<int>(c - 2 * inset)};
        p.stroke_rect(ring, shade(base, 0.82f - 0.04f * static_cast<float>(k)),
                      std::max(1, static_cast<int>(c / 60)));
      }
      p.fill_circle(mid, c * 0.08f, shade(base, 0.75f));
      break;
    }
    case o::TERRAIN_WOODS: {
      for (int k = 0; k < 7; ++k) {
        const PointF at{r.x + c * (0.15f + 0.7f * jitter(col, row, k)),
                        r.y + c * (0.15f + 0.7f * jitter(col, row, k + 17))};
        const float rad = c * (0.09f + 0.05f * jitter(col, row, k + 31));
        p.fill_circle({at.x + c * 0.02f, at.y + c * 0.025f}, rad, shade(base, 0.6f));
        p.fill_circle(at, rad, shade(base, 1.25f));
        p.fill_circle({at.x - rad * 0.3f, at.y - rad * 0.3f}, rad * 0.45f, shade(base, 1.45f));
      }
      break;
    }
    case o::TERRAIN_MARSH: {
      for (int k = 0; k < 9; ++k) {
        const float x = r.x + c * (0.1f + 0.75f * jitter(col, row, k));
        const float y = r.y + c * (0.12f + 0.76f * jitter(col, row, k + 40));
        p.line({x, y}, {x + c * 0.16f, y}, std::max(1.0f, c / 45), theme::rgb(0x4F7F8F));
        if (k % 2 == 0) {
          p.line({x + c * 0.08f, y}, {x + c * 0.05f, y - c * 0.08f}, 1.5f, theme::rgb(0x3E5E34));
          p.line({x + c * 0.08f, y}, {x + c * 0.11f, y - c * 0.08f}, 1.5f, theme::rgb(0x3E5E34));
        }
      }
      break;
    }
    case o::TERRAIN_RIVER:
    case o::TERRAIN_FORD: {
      const SDL_Color wave = shade(base, 1.25f);
      for (int k = 0; k < 3; ++k) {
        const float y = r.y + c * (0.25f + 0.25f * static_cast<float>(k));
        std::vector<PointF> pts;
        for (int i = 0; i <= 8; ++i) {
          const float x = r.x + c * 0.1f + c * 0.8f * static_cast<float>(i) / 8;
          pts.push_back({x, y + c * 0.03f * std::sin(static_cast<float>(i) * 1.6f)});
        }
        p.stroke_polyline(pts, std::max(1.0f, c / 50), wave);
      }
      if (t == o::TERRAIN_FORD) {
        for (int k = 0; k < 5; ++k) {
          const PointF at{r.x + c * (0.18f + 0.16f * static_cast<float>(k)),
                          mid.y + c * (0.12f * jitter(col, row, k) - 0.06f)};
          p.fill_circle(at, c * 0.055f, theme::rgb(0x8C7A5B));
          p.fill_circle({at.x - c * 0.015f, at.y - c * 0.015f}, c * 0.03f, theme::rgb(0xB9A781));
        }
      }
      break;
    }
    case o::TERRAIN_CAMP: {
      const float in = c * 0.1f;
      std::vector<PointF> pal{{r.x + in, r.y + in},
                              {r.x + c - in, r.y + in},
                              {r.x + c - in, r.y + c - in},
                              {r.x + in, r.y + c - in}};
      p.stroke_polyline(pal, std::max(2.0f, c / 22), theme::rgb(0x7A5230), true);
      p.fill_polygon({{mid.x, mid.y - c * 0.2f},
                      {mid.x + c * 0.18f, mid.y + c * 0.14f},
                      {mid.x - c * 0.18f, mid.y + c * 0.14f}},
                     theme::rgb(0xF2E8D0));
      p.line({mid.x, mid.y - c * 0.2f}, {mid.x, mid.y + c * 0.14f}, 1.5f, theme::rgb(0x7A5230));
      break;
    }
    default:
      break;
  }
}

// The unit's counter: a block of its bases, its front edge bright on the side it faces.
void draw_counter(Painter& p, const SquareGeometry& g, const o::Unit& u, bool selected) {
  const float c = g.cell();
  const PointF m = g.centre(u.at().col(), u.at().row());
  const bool column = u.formation() == o::FORMATION_COLUMN;
  const int bases = u.bases() == 0 ? 2 : u.bases();
  float along = column ? 0.42f : 0.80f;  // length of the front edge
  float depth = column ? 0.80f : (bases == 1 ? 0.30f : bases == 4 ? 0.64f : 0.46f);
  along *= c;
  depth *= c;
  // Unit vectors: f points to the front, s along the front.
  const int facing = ((u.facing() % 4) + 4) % 4;
  const float fx[4] = {0, 1, 0, -1};
  const float fy[4] = {-1, 0, 1, 0};
  const PointF f{fx[facing], fy[facing]};
  const PointF s{-f.y, f.x};
  auto at = [&](float a, float d) {  // a along the front, d toward the front, from the middle
    return PointF{m.x + s.x * a + f.x * d, m.y + s.y * a + f.y * d};
  };
  const bool a_side = u.side() == v1::SIDE_A;
  const SDL_Color fill = a_side ? theme::kSideA : theme::kSideB;
  const SDL_Color dark = a_side ? theme::kSideADark : theme::kSideBDark;
  const SDL_Color light = a_side ? theme::kSideALight : theme::kSideBLight;
  const float ha = along / 2;
  const float hd = depth / 2;
  // Shadow, body, border.
  const PointF sh{c * 0.03f, c * 0.04f};
  p.fill_polygon({{at(-ha, hd).x + sh.x, at(-ha, hd).y + sh.y},
                  {at(ha, hd).x + sh.x, at(ha, hd).y + sh.y},
                  {at(ha, -hd).x + sh.x, at(ha, -hd).y + sh.y},
                  {at(-ha, -hd).x + sh.x, at(-ha, -hd).y + sh.y}},
                 SDL_Color{0, 0, 0, 90});
  std::vector<PointF> body{at(-ha, hd), at(ha, hd), at(ha, -hd), at(-ha, -hd)};
  p.fill_polygon(body, fill);
  // Bases: lines splitting the block (columns split along their depth).
  const float lw = std::max(1.0f, c / 70);
  if (column) {
    for (int k = 1; k < bases; ++k) {
      const float d = -hd + depth * static_cast<float>(k) / static_cast<float>(bases);
      p.line(at(-ha, d), at(ha, d), lw, shade(dark, 1.3f));
    }
  } else if (bases == 2) {
    p.line(at(0, -hd), at(0, hd), lw, shade(dark, 1.3f));
  } else if (bases == 4) {
    p.line(at(0, -hd), at(0, hd), lw, shade(dark, 1.3f));
    p.line(at(-ha, 0), at(ha, 0), lw, shade(dark, 1.3f));
  }
  // Disorder: dark hatching over the body.
  if (u.disordered()) {
    const int n = 6;
    for (int k = 0; k <= n; ++k) {
      const float t = -ha + along * static_cast<float>(k) / n;
      const PointF a0 = at(t, -hd);
      const PointF a1 = at(std::min(ha, t + depth * 0.8f), std::min(hd, -hd + (ha - t) * 1.2f));
      p.line(a0, a1, std::max(1.0f, c / 45), SDL_Color{30, 20, 10, 120});
    }
  }
  // The front: a bright band and a notch pointing the way the unit faces.
  const float band = std::max(3.0f, c * 0.1f);
  p.fill_polygon({at(-ha, hd), at(ha, hd), at(ha, hd - band), at(-ha, hd - band)}, light);
  const std::vector<PointF> notch{at(-c * 0.11f, hd), at(c * 0.11f, hd), at(0, hd + c * 0.12f)};
  p.fill_polygon(notch, light);
  p.stroke_polyline(notch, 1.5f, dark, true);
  p.stroke_polyline(body, std::max(1.5f, c / 40), selected ? theme::kSelection : dark, true);
  // Type and number: the number the log names the unit by. A line takes both on one line
  // ("HI 16"), as large as fits; a column, narrow, the number behind the type.
  const int size = std::max(8, static_cast<int>(c * (column ? 0.20f : 0.22f)));
  const PointF label = at(0, -band / 2);
  const std::string type = optio_type_abbrev(u.type());
  const std::string number = std::to_string(u.id());
  if (column) {
    p.text_centered(type, label.x, label.y, size, theme::kCounterText, Weight::kBold);
    const PointF behind = at(0, -band / 2 - static_cast<float>(size) * 1.1f);
    p.text_centered(number, behind.x, behind.y, std::max(7, size - 1), theme::kCounterText,
                    Weight::kBold);
  } else {
    const std::string text = type + " " + number;
    int fit = size;
    while (fit > 7 && static_cast<float>(p.text_width(text, fit, Weight::kBold)) > along * 0.92f)
      --fit;
    p.text_centered(text, label.x, label.y, fit, theme::kCounterText, Weight::kBold);
  }
}

// A polyline in dashes of `on` and `off` pixels (on 0: solid), each dash stretched by `cap`
// at both ends (an outline under a dash).
void stroke_dashed(Painter& p, const std::vector<PointF>& pts, float width, SDL_Color c, float on,
                   float off, float cap) {
  if (on <= 0) {
    p.stroke_polyline(pts, width, c);
    return;
  }
  float phase = 0;  // along the current dash (or gap) so far
  bool drawing = true;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const float dx = pts[i + 1].x - pts[i].x;
    const float dy = pts[i + 1].y - pts[i].y;
    const float len = std::hypot(dx, dy);
    if (len <= 0) continue;
    float at = 0;
    while (at < len) {
      const float step = std::min(len - at, (drawing ? on : off) - phase);
      if (drawing) {
        const float a = std::max(0.0f, at - cap) / len;
        const float b = std::min(len, at + step + cap) / len;
        p.line({pts[i].x + dx * a, pts[i].y + dy * a}, {pts[i].x + dx * b, pts[i].y + dy * b},
               width, c);
      }
      at += step;
      phase += step;
      if (phase >= (drawing ? on : off)) {
        phase = 0;
        drawing = !drawing;
      }
    }
  }
}

void draw_badges(Painter& p, const SquareGeometry& g, const o::State& s, const o::Unit& u) {
  const float c = g.cell();
  const SDL_FRect r = g.rect(u.at().col(), u.at().row());
  const int small = std::max(7, static_cast<int>(c * 0.15f));
  // Morale: bottom right, blue while firm, amber once shaken.
  const bool shaken = optio_is_shaken(u);
  const PointF mb{r.x + c * 0.83f, r.y + c * 0.83f};
  const float rad = c * 0.12f;
  p.fill_circle(mb, rad + 1.5f, theme::rgb(0x111111));
  p.fill_circle(mb, rad, shaken ? theme::kMoraleShaken : theme::kMoraleFirm);
  p.text_centered(std::to_string(u.morale()), mb.x, mb.y, small, theme::kCounterText,
                  Weight::kBold);
  // Disordered: a yellow "D" top left.
  if (u.disordered()) {
    const SDL_Rect d{static_cast<int>(r.x + c * 0.04f), static_cast<int>(r.y + c * 0.04f),
                     static_cast<int>(c * 0.2f), static_cast<int>(c * 0.2f)};
    p.fill_rect(d, theme::rgb(0x111111));
    p.fill_rect(SDL_Rect{d.x + 1, d.y + 1, d.w - 2, d.h - 2}, theme::rgb(0xF2C230));
    p.text_centered("D", d.x + d.w / 2.0f, d.y + d.h / 2.0f, small, theme::kTextDark,
                    Weight::kBold);
  }
  // Missile hits: one black dot each, bottom left.
  for (int k = 0; k < std::min(u.missile_hits(), 4); ++k) {
    const PointF dot{r.x + c * (0.12f + 0.11f * static_cast<float>(k)), r.y + c * 0.88f};
    p.fill_circle(dot, c * 0.045f + 1, theme::rgb(0xFFFFFF));
    p.fill_circle(dot, c * 0.045f, theme::rgb(0x111111));
  }
  // Leaders with this unit: top right, a gold star for the general, a silver disc with the
  // leader's number for a subcommander; red rim when wounded.
  int k = 0;
  for (const auto& l : s.leaders()) {
    if (l.unit() != u.id() || l.status() != o::Leader::ACTIVE) continue;
    const PointF at{r.x + c * (0.84f - 0.2f * static_cast<float>(k)), r.y + c * 0.16f};
    const float lr = c * 0.12f;
    p.fill_circle(at, lr + 2, l.wounded() ? theme::rgb(0xE0302A) : theme::rgb(0x111111));
    if (l.general()) {
      std::vector<PointF> star;
      for (int i = 0; i < 10; ++i) {
        const double a = -std::numbers::pi / 2 + i * std::numbers::pi / 5;
        const float rr = (i % 2 == 0 ? lr : lr * 0.45f);
        star.push_back({at.x + rr * static_cast<float>(std::cos(a)),
                        at.y + rr * static_cast<float>(std::sin(a))});
      }
      p.fill_circle(at, lr, theme::rgb(0x3A2A05));
      // A star is not convex: fan from the centre.
      for (int i = 0; i < 10; ++i)
        p.fill_polygon({at, star[i], star[(i + 1) % 10]}, theme::kGold);
    } else {
      p.fill_circle(at, lr, theme::rgb(0xD9DDE3));
      p.text_centered(std::to_string(l.id()), at.x, at.y, std::max(7, static_cast<int>(lr * 1.3f)),
                      theme::kTextDark, Weight::kBold);
    }
    ++k;
  }
}

}  // namespace

const o::Unit* optio_unit_at(const o::State& s, int col, int row) {
  for (const auto& u : s.units()) {
    if (u.placed() && !u.routed() && u.at().col() == col && u.at().row() == row) return &u;
  }
  return nullptr;
}

const o::Unit* optio_unit(const o::State& s, int id) {
  for (const auto& u : s.units())
    if (u.id() == id) return &u;
  return nullptr;
}

o::Terrain optio_terrain_at(const o::State& s, int col, int row) {
  const int i = (row - 1) * s.cols() + (col - 1);
  if (col < 1 || row < 1 || col > s.cols() || row > s.rows() || i >= s.terrain_size())
    return o::TERRAIN_OPEN;
  return s.terrain(i);
}

void draw_optio_board(Painter& p, const SDL_Rect& area, const SquareGeometry& g, const o::State& s,
                      const OptioOverlay& ov) {
  p.set_clip(&area);
  const float c = g.cell();
  const SDL_FRect b = g.bounds();
  // A dark frame round the field.
  p.fill_rect(SDL_Rect{static_cast<int>(b.x) - 4, static_cast<int>(b.y) - 4,
                       static_cast<int>(b.w) + 8, static_cast<int>(b.h) + 8},
              theme::rgb(0x1A1C1F));
  for (int row = 1; row <= s.rows(); ++row) {
    for (int col = 1; col <= s.cols(); ++col)
      draw_terrain(p, g.rect(col, row), col, row, optio_terrain_at(s, col, row));
  }
  // Grid.
  for (int col = 0; col <= s.cols(); ++col) {
    const float x = b.x + c * static_cast<float>(col);
    p.line({x, b.y}, {x, b.y + b.h}, 1, theme::kGridLine);
  }
  for (int row = 0; row <= s.rows(); ++row) {
    const float y = b.y + c * static_cast<float>(row);
    p.line({b.x, y}, {b.x + b.w, y}, 1, theme::kGridLine);
  }
  // Deployment zone.
  if (ov.zone_side) {
    const o::Zone& z = *ov.zone_side == v1::SIDE_A ? s.zone_a() : s.zone_b();
    const SDL_Color tint =
        with_alpha(*ov.zone_side == v1::SIDE_A ? theme::kSideA : theme::kSideB, 55);
    for (int row = z.min_row(); row <= z.max_row(); ++row) {
      for (int col = z.min_col(); col <= z.max_col(); ++col) {
        const SDL_FRect r = g.rect(col, row);
        p.fill_polygon({{r.x, r.y}, {r.x + c, r.y}, {r.x + c, r.y + c}, {r.x, r.y + c}}, tint);
      }
    }
  }
  // Coordinates on all four edges.
  const int coord_size = std::clamp(static_cast<int>(c * 0.22f), 10, 16);
  for (int col = 1; col <= s.cols(); ++col) {
    const PointF m = g.centre(col, 1);
    p.text_centered(std::to_string(col), m.x, b.y - 13, coord_size, theme::kCoordText);
    p.text_centered(std::to_string(col), m.x, b.y + b.h + 13, coord_size, theme::kCoordText);
  }
  for (int row = 1; row <= s.rows(); ++row) {
    const PointF m = g.centre(1, row);
    p.text_centered(std::to_string(row), b.x - 14, m.y, coord_size, theme::kCoordText);
    p.text_centered(std::to_string(row), b.x + b.w + 14, m.y, coord_size, theme::kCoordText);
  }
  // The last move's trail, under the counters.
  if (ov.trail.size() >= 2) {
    std::vector<PointF> pts;
    for (const auto& t : ov.trail)
      pts.push_back(g.centre(t.col, t.row));
    for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
      if (i + 2 == pts.size()) {
        p.arrow(pts[i], pts[i + 1], std::max(2.0f, c * 0.05f), c * 0.2f, theme::kLastMove);
      } else {
        p.line(pts[i], pts[i + 1], std::max(2.0f, c * 0.05f), theme::kLastMove);
      }
    }
  }
  for (const auto& f : ov.flashes) {
    const PointF m = g.centre(f.col, f.row);
    p.ring(m, c * 0.46f, std::max(2.0f, c * 0.05f), theme::rgb(0xFF3B30, 200));
  }
  // The corridor the subcommander being drawn for will have to stay in.
  for (const auto& sq : ov.corridor) {
    const SDL_FRect r = g.rect(sq.col, sq.row);
    p.fill_polygon({{r.x, r.y}, {r.x + c, r.y}, {r.x + c, r.y + c}, {r.x, r.y + c}},
                   SDL_Color{255, 255, 255, 38});
  }
  // Orders paths.
  for (const auto& path : ov.paths) {
    if (path.squares.empty()) continue;
    std::vector<PointF> pts;
    for (const auto& sq : path.squares)
      pts.push_back(g.centre(sq.col, sq.row));
    const float w = std::max(3.0f, c * (path.active ? 0.09f : 0.06f));
    const theme::Dash dash =
        theme::kPathDashes[static_cast<std::size_t>(path.style) % std::size(theme::kPathDashes)];
    stroke_dashed(p, pts, w + 3, SDL_Color{0, 0, 0, 140}, dash.on * w, dash.off * w, 1.5f);
    stroke_dashed(p, pts, w, path.color, dash.on * w, dash.off * w, 0);
    for (const auto& pt : pts)
      p.fill_circle(pt, w * 1.2f, path.color);
    p.ring(pts.front(), c * 0.22f, std::max(2.0f, w * 0.6f), path.color);
    if (!path.label.empty() && pts.size() > 1) {
      // The label sits under the path's last square, clear of the counters' badges.
      const int size = std::max(10, static_cast<int>(c * 0.16f));
      const std::string& label = path.label;
      const float tw = static_cast<float>(p.text_width(label, size, Weight::kBold)) + 8;
      const PointF at{pts.back().x, pts.back().y + c * 0.3f};
      // A dark path's label sits on a light box.
      const bool dark = path.color.r + path.color.g + path.color.b < 3 * 80;
      p.fill_round_rect(
          SDL_Rect{static_cast<int>(at.x - tw / 2), static_cast<int>(at.y) - size / 2 - 3,
                   static_cast<int>(tw), size + 6},
          4, dark ? SDL_Color{235, 235, 235, 200} : SDL_Color{0, 0, 0, 160});
      p.text_centered(label, at.x, at.y, size, path.color, Weight::kBold);
    }
  }
  for (const auto& sq : ov.path_next) {
    const PointF m = g.centre(sq.col, sq.row);
    p.ring(m, c * 0.12f, 2, theme::kHighlight);
  }
  // Deployment squares and destinations.
  for (const auto& sq : ov.placements) {
    const SDL_FRect r = g.rect(sq.col, sq.row);
    p.fill_polygon({{r.x, r.y}, {r.x + c, r.y}, {r.x + c, r.y + c}, {r.x, r.y + c}},
                   with_alpha(theme::kHighlight, 70));
    p.fill_circle(g.centre(sq.col, sq.row), std::max(4.0f, c * 0.09f), theme::kHighlight);
  }
  for (const auto& d : ov.destinations) {
    const SDL_FRect r = g.rect(d.at.col, d.at.row);
    const SDL_Color col = d.charge ? theme::kChargeHighlight : theme::kHighlight;
    p.fill_polygon({{r.x, r.y}, {r.x + c, r.y}, {r.x + c, r.y + c}, {r.x, r.y + c}},
                   with_alpha(col, 80));
    p.stroke_rect(SDL_Rect{static_cast<int>(r.x) + 2, static_cast<int>(r.y) + 2,
                           static_cast<int>(c) - 3, static_cast<int>(c) - 3},
                  col, 2);
  }
  // Counters.
  for (const auto& u : s.units()) {
    if (!u.placed() || u.routed()) continue;
    draw_counter(p, g, u, ov.selected_unit && *ov.selected_unit == u.id());
    if (ov.badges) draw_badges(p, g, s, u);
  }
  // Markers over the counters: each path's progress (where its subcommander has got to, most
  // often under his own unit), destination dots, targets, selection.
  for (const auto& path : ov.paths) {
    if (path.progress < 0 || path.progress >= static_cast<int>(path.squares.size())) continue;
    const Cell& at = path.squares[static_cast<std::size_t>(path.progress)];
    const PointF m = g.centre(at.col, at.row);
    const float width = std::max(3.0f, c * 0.06f);
    p.ring(m, c * 0.3f, width + 3, SDL_Color{0, 0, 0, 170});
    p.ring(m, c * 0.3f, width, path.color);
  }
  for (const auto& d : ov.destinations) {
    const PointF m = g.centre(d.at.col, d.at.row);
    const SDL_Color col = d.charge ? theme::kChargeHighlight : theme::kHighlight;
    const float rad = std::max(4.0f, c * 0.09f);
    if (d.charge) {
      // A charge is a diamond, a plain move a dot: the shape says it without colour.
      const float k = rad * 1.5f;
      p.fill_polygon(
          {{m.x, m.y - k - 2}, {m.x + k + 2, m.y}, {m.x, m.y + k + 2}, {m.x - k - 2, m.y}},
          theme::rgb(0x222222));
      p.fill_polygon({{m.x, m.y - k}, {m.x + k, m.y}, {m.x, m.y + k}, {m.x - k, m.y}}, col);
    } else {
      p.fill_circle(m, rad + 1.5f, theme::rgb(0x222222));
      p.fill_circle(m, rad, col);
    }
  }
  for (int id : ov.shoot_targets) {
    const o::Unit* u = optio_unit(s, id);
    if (u == nullptr) continue;
    const PointF m = g.centre(u->at().col(), u->at().row());
    p.ring(m, c * 0.44f, std::max(3.0f, c * 0.06f), theme::kTarget);
    p.line({m.x - c * 0.5f, m.y}, {m.x - c * 0.3f, m.y}, 3, theme::kTarget);
    p.line({m.x + c * 0.3f, m.y}, {m.x + c * 0.5f, m.y}, 3, theme::kTarget);
  }
  for (int id : ov.leader_targets) {
    const o::Unit* u = optio_unit(s, id);
    if (u == nullptr) continue;
    const SDL_FRect r = g.rect(u->at().col(), u->at().row());
    p.stroke_rect(SDL_Rect{static_cast<int>(r.x) + 3, static_cast<int>(r.y) + 3,
                           static_cast<int>(c) - 5, static_cast<int>(c) - 5},
                  theme::kHighlight, 3);
  }
  if (ov.selected_unit) {
    if (const o::Unit* u = optio_unit(s, *ov.selected_unit);
        u != nullptr && u->placed() && !u->routed()) {
      const SDL_FRect r = g.rect(u->at().col(), u->at().row());
      p.stroke_rect(SDL_Rect{static_cast<int>(r.x), static_cast<int>(r.y), static_cast<int>(c) + 1,
                             static_cast<int>(c) + 1},
                    theme::kSelection, std::max(3, static_cast<int>(c * 0.05f)));
    }
  }
  if (ov.hover) {
    const SDL_FRect r = g.rect(ov.hover->col, ov.hover->row);
    p.stroke_rect(SDL_Rect{static_cast<int>(r.x), static_cast<int>(r.y), static_cast<int>(c) + 1,
                           static_cast<int>(c) + 1},
                  SDL_Color{255, 255, 255, 110}, 2);
    // The unit under the cursor by number, type and scenario name, above its square.
    if (!ov.hover_text.empty()) {
      const int size = 13;
      const int tw = p.text_width(ov.hover_text, size, Weight::kBold) + 14;
      const int th = p.line_height(size, Weight::kBold) + 6;
      const SDL_Rect box{static_cast<int>(r.x + c / 2) - tw / 2, static_cast<int>(r.y) - th - 4, tw,
                         th};
      p.fill_round_rect(box, 4, SDL_Color{20, 22, 26, 230});
      p.text_centered(ov.hover_text, box.x + tw / 2.0f, box.y + th / 2.0f, size, theme::kText,
                      Weight::kBold);
    }
  }
  p.set_clip(nullptr);
}

}  // namespace castra::client
