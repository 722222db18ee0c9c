#include "client/sdl/painter.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace castra::client {

namespace {

constexpr std::size_t kMaxCachedTexts = 1500;
constexpr int kMinFont = 6;
constexpr int kMaxFont = 96;

SDL_Vertex vertex(PointF p, SDL_Color c) {
  return SDL_Vertex{SDL_FPoint{p.x, p.y}, c, SDL_FPoint{0, 0}};
}

std::uint32_t pack(SDL_Color c) {
  return (std::uint32_t{c.r} << 24) | (std::uint32_t{c.g} << 16) | (std::uint32_t{c.b} << 8) | c.a;
}

}  // namespace

bool Painter::open(SDL_Renderer* renderer, const std::string& font_dir, std::string* error) {
  renderer_ = renderer;
  SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_BLEND);
  font_paths_[0] = font_dir + "/DejaVuSans.ttf";
  font_paths_[1] = font_dir + "/DejaVuSans-Bold.ttf";
  font_paths_[2] = font_dir + "/DejaVuSansMono.ttf";
  if (font(14, Weight::kRegular) == nullptr) {
    *error = "cannot open the font " + font_paths_[0] + ": " + TTF_GetError();
    return false;
  }
  return true;
}

Painter::~Painter() {
  for (auto& [key, t] : texts_)
    SDL_DestroyTexture(t.texture);
  for (auto& [key, f] : fonts_)
    if (f != nullptr) TTF_CloseFont(f);
}

void Painter::set_scale(float scale) {
  if (scale == scale_) return;
  scale_ = scale;
  SDL_RenderSetScale(renderer_, scale, scale);
  for (auto& [key, t] : texts_)
    SDL_DestroyTexture(t.texture);
  texts_.clear();
  for (auto& [key, f] : fonts_)
    if (f != nullptr) TTF_CloseFont(f);
  fonts_.clear();
}

TTF_Font* Painter::font(int size, Weight weight) {
  size = std::clamp(size, kMinFont, kMaxFont);
  const auto key = std::make_pair(size, weight);
  if (auto it = fonts_.find(key); it != fonts_.end()) return it->second;
  // Opened at the pixel size it will show at: text is never stretched.
  const int pixels = std::max(1, static_cast<int>(std::lround(static_cast<float>(size) * scale_)));
  TTF_Font* f = TTF_OpenFont(font_paths_[static_cast<int>(weight)].c_str(), pixels);
  // A missing bold or mono face falls back to the regular one.
  if (f == nullptr && weight != Weight::kRegular) f = TTF_OpenFont(font_paths_[0].c_str(), pixels);
  if (f != nullptr) TTF_SetFontHinting(f, TTF_HINTING_LIGHT);
  fonts_[key] = f;
  return f;
}

void Painter::clear(SDL_Color c) {
  SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
  SDL_RenderClear(renderer_);
}

void Painter::fill_rect(const SDL_Rect& r, SDL_Color c) {
  SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
  SDL_RenderFillRect(renderer_, &r);
}

void Painter::stroke_rect(const SDL_Rect& r, SDL_Color c, int width) {
  for (int i = 0; i < width; ++i) {
    SDL_Rect k{r.x + i, r.y + i, r.w - 2 * i, r.h - 2 * i};
    if (k.w <= 0 || k.h <= 0) break;
    SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
    SDL_RenderDrawRect(renderer_, &k);
  }
}

void Painter::fill_round_rect(const SDL_Rect& r, int radius, SDL_Color c) {
  radius = std::min({radius, r.w / 2, r.h / 2});
  if (radius <= 1) return fill_rect(r, c);
  std::vector<PointF> pts;
  const float x0 = static_cast<float>(r.x);
  const float y0 = static_cast<float>(r.y);
  const float x1 = static_cast<float>(r.x + r.w);
  const float y1 = static_cast<float>(r.y + r.h);
  const float rr = static_cast<float>(radius);
  const PointF corners[4] = {
      {x1 - rr, y0 + rr}, {x0 + rr, y0 + rr}, {x0 + rr, y1 - rr}, {x1 - rr, y1 - rr}};
  constexpr int kSteps = 5;
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i <= kSteps; ++i) {
      const float a =
          static_cast<float>(std::numbers::pi / 2 * (k + static_cast<double>(i) / kSteps));
      pts.push_back({corners[k].x + rr * std::cos(a), corners[k].y - rr * std::sin(a)});
    }
  }
  fill_polygon(pts, c);
}

void Painter::fill_polygon(const std::vector<PointF>& points, SDL_Color c) {
  if (points.size() < 3) return;
  std::vector<SDL_Vertex> v;
  v.reserve(points.size());
  for (const auto& p : points)
    v.push_back(vertex(p, c));
  std::vector<int> idx;
  idx.reserve((points.size() - 2) * 3);
  for (std::size_t i = 1; i + 1 < points.size(); ++i) {
    idx.push_back(0);
    idx.push_back(static_cast<int>(i));
    idx.push_back(static_cast<int>(i + 1));
  }
  SDL_RenderGeometry(renderer_, nullptr, v.data(), static_cast<int>(v.size()), idx.data(),
                     static_cast<int>(idx.size()));
}

void Painter::line(PointF a, PointF b, float width, SDL_Color c) {
  const float dx = b.x - a.x;
  const float dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 0.01f) return;
  if (width <= 1.01f) {
    SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
    SDL_RenderDrawLineF(renderer_, a.x, a.y, b.x, b.y);
    return;
  }
  const float nx = -dy / len * width / 2;
  const float ny = dx / len * width / 2;
  fill_polygon(
      {{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}}, c);
}

void Painter::stroke_polyline(const std::vector<PointF>& points, float width, SDL_Color c,
                              bool closed) {
  const std::size_t n = points.size();
  if (n < 2) return;
  const std::size_t segments = closed ? n : n - 1;
  for (std::size_t i = 0; i < segments; ++i)
    line(points[i], points[(i + 1) % n], width, c);
  // Round joints so thick bends have no notches.
  if (width > 2.5f) {
    for (std::size_t i = closed ? 0 : 1; i < (closed ? n : n - 1); ++i)
      fill_circle(points[i], width / 2, c);
  }
}

void Painter::fill_circle(PointF centre, float radius, SDL_Color c) {
  if (radius <= 0.5f) return;
  const int steps = std::clamp(static_cast<int>(radius * 1.5f), 12, 64);
  std::vector<PointF> pts;
  pts.reserve(steps);
  for (int i = 0; i < steps; ++i) {
    const double a = 2 * std::numbers::pi * i / steps;
    pts.push_back({centre.x + radius * static_cast<float>(std::cos(a)),
                   centre.y + radius * static_cast<float>(std::sin(a))});
  }
  fill_polygon(pts, c);
}

void Painter::ring(PointF centre, float radius, float width, SDL_Color c) {
  const int steps = std::clamp(static_cast<int>(radius * 1.5f), 16, 72);
  std::vector<SDL_Vertex> v;
  std::vector<int> idx;
  const float inner = std::max(0.0f, radius - width / 2);
  const float outer = radius + width / 2;
  for (int i = 0; i < steps; ++i) {
    const double a = 2 * std::numbers::pi * i / steps;
    const float cx = static_cast<float>(std::cos(a));
    const float sy = static_cast<float>(std::sin(a));
    v.push_back(vertex({centre.x + inner * cx, centre.y + inner * sy}, c));
    v.push_back(vertex({centre.x + outer * cx, centre.y + outer * sy}, c));
  }
  for (int i = 0; i < steps; ++i) {
    const int a0 = 2 * i;
    const int a1 = 2 * i + 1;
    const int b0 = 2 * ((i + 1) % steps);
    const int b1 = b0 + 1;
    idx.insert(idx.end(), {a0, a1, b1, a0, b1, b0});
  }
  SDL_RenderGeometry(renderer_, nullptr, v.data(), static_cast<int>(v.size()), idx.data(),
                     static_cast<int>(idx.size()));
}

void Painter::arrow(PointF a, PointF b, float width, float head, SDL_Color c) {
  const float dx = b.x - a.x;
  const float dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1) return;
  const float ux = dx / len;
  const float uy = dy / len;
  const PointF base{b.x - ux * head, b.y - uy * head};
  line(a, base, width, c);
  fill_polygon({b,
                {base.x - uy * head * 0.6f, base.y + ux * head * 0.6f},
                {base.x + uy * head * 0.6f, base.y - ux * head * 0.6f}},
               c);
}

SDL_Texture* Painter::text_texture(const std::string& s, int size, SDL_Color c, Weight weight,
                                   int* w, int* h) {
  const auto key = std::make_tuple(s, size, pack(c), weight);
  if (auto it = texts_.find(key); it != texts_.end()) {
    it->second.used = frame_;
    *w = it->second.w;
    *h = it->second.h;
    return it->second.texture;
  }
  TTF_Font* f = font(size, weight);
  if (f == nullptr || s.empty()) return nullptr;
  SDL_Surface* surface = TTF_RenderUTF8_Blended(f, s.c_str(), c);
  if (surface == nullptr) return nullptr;
  SDL_Texture* t = SDL_CreateTextureFromSurface(renderer_, surface);
  *w = surface->w;
  *h = surface->h;
  SDL_FreeSurface(surface);
  if (t == nullptr) return nullptr;
  texts_[key] = CachedText{t, *w, *h, frame_};
  return t;
}

// Copies a text texture of w x h pixels with its top left at (x, y) in UI units.
SDL_Rect Painter::place(SDL_Texture* t, const std::string& s, float x, float y, int w, int h) {
  const SDL_FRect dst{x, y, static_cast<float>(w) / scale_, static_cast<float>(h) / scale_};
  SDL_RenderCopyF(renderer_, t, nullptr, &dst);
  const SDL_Rect box{static_cast<int>(std::lround(dst.x)), static_cast<int>(std::lround(dst.y)),
                     static_cast<int>(std::lround(dst.w)), static_cast<int>(std::lround(dst.h))};
  drawn_.emplace_back(s, box);
  return box;
}

SDL_Rect Painter::text(const std::string& s, int x, int y, int size, SDL_Color c, Align align,
                       Weight weight) {
  int w = 0;
  int h = 0;
  SDL_Texture* t = text_texture(s, size, c, weight, &w, &h);
  if (t == nullptr) return SDL_Rect{x, y, 0, 0};
  float left = static_cast<float>(x);
  if (align == Align::kCenter) left -= static_cast<float>(w) / scale_ / 2;
  if (align == Align::kRight) left -= static_cast<float>(w) / scale_;
  return place(t, s, std::round(left), static_cast<float>(y), w, h);
}

SDL_Rect Painter::text_centered(const std::string& s, float cx, float cy, int size, SDL_Color c,
                                Weight weight) {
  int w = 0;
  int h = 0;
  SDL_Texture* t = text_texture(s, size, c, weight, &w, &h);
  if (t == nullptr) return SDL_Rect{static_cast<int>(cx), static_cast<int>(cy), 0, 0};
  return place(t, s, std::round(cx - static_cast<float>(w) / scale_ / 2),
               std::round(cy - static_cast<float>(h) / scale_ / 2), w, h);
}

int Painter::text_width(const std::string& s, int size, Weight weight) {
  TTF_Font* f = font(size, weight);
  int w = 0;
  if (f != nullptr && !s.empty()) TTF_SizeUTF8(f, s.c_str(), &w, nullptr);
  return static_cast<int>(std::lround(static_cast<float>(w) / scale_));
}

int Painter::line_height(int size, Weight weight) {
  TTF_Font* f = font(size, weight);
  return f != nullptr
             ? static_cast<int>(std::lround(static_cast<float>(TTF_FontLineSkip(f)) / scale_))
             : size + 4;
}

std::vector<std::string> Painter::wrap(const std::string& s, int size, int width, Weight weight) {
  std::vector<std::string> lines;
  std::string current;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    const std::string word = s.substr(i, j - i);
    const std::string candidate = current.empty() ? word : current + " " + word;
    if (!current.empty() && text_width(candidate, size, weight) > width) {
      lines.push_back(current);
      current = word;
    } else {
      current = candidate;
    }
    i = j + 1;
  }
  if (!current.empty() || lines.empty()) lines.push_back(current);
  return lines;
}

void Painter::set_clip(const SDL_Rect* r) {
  SDL_RenderSetClipRect(renderer_, r);
}

void Painter::end_frame() {
  ++frame_;
  drawn_.clear();
  if (texts_.size() <= kMaxCachedTexts) return;
  // Keep what the last two frames used; the rest is rebuilt on demand.
  for (auto it = texts_.begin(); it != texts_.end();) {
    if (it->second.used + 2 < frame_) {
      SDL_DestroyTexture(it->second.texture);
      it = texts_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace castra::client
