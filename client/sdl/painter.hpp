// Painter: the drawing primitives castra-client builds everything from (filled and stroked
// polygons, circles, text in DejaVu at any size) over one SDL_Renderer, with a cache of
// fonts and rendered text. Everything is laid out in UI units; set_scale() says how many
// pixels one unit takes (HiDPI screens, --ui-scale), and text is rasterised at that scale so it
// stays sharp. Render thread only.
#pragma once

#include <SDL.h>
#include <SDL_ttf.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace castra::client {

struct PointF {
  float x = 0;
  float y = 0;
};

enum class Align { kLeft, kCenter, kRight };
enum class Weight { kRegular, kBold, kMono };

class Painter {
 public:
  // Opens the fonts under `font_dir` (DejaVuSans.ttf and its bold and mono faces); false and
  // `error` when the regular face is missing.
  bool open(SDL_Renderer* renderer, const std::string& font_dir, std::string* error);
  ~Painter();

  SDL_Renderer* renderer() const { return renderer_; }
  // Pixels per UI unit (1 by default); changing it drops the cached fonts and text.
  void set_scale(float scale);
  float scale() const { return scale_; }

  void clear(SDL_Color c);
  void fill_rect(const SDL_Rect& r, SDL_Color c);
  void stroke_rect(const SDL_Rect& r, SDL_Color c, int width = 1);
  void fill_round_rect(const SDL_Rect& r, int radius, SDL_Color c);
  // A convex polygon, filled as a fan.
  void fill_polygon(const std::vector<PointF>& points, SDL_Color c);
  // A polyline `width` pixels wide (closed: the last point joins the first).
  void stroke_polyline(const std::vector<PointF>& points, float width, SDL_Color c,
                       bool closed = false);
  void line(PointF a, PointF b, float width, SDL_Color c);
  void fill_circle(PointF centre, float radius, SDL_Color c);
  void ring(PointF centre, float radius, float width, SDL_Color c);
  // An arrow from a to b with a head of `head` pixels.
  void arrow(PointF a, PointF b, float width, float head, SDL_Color c);

  // Text at pixel size `size`; the box it took. Align is relative to x.
  SDL_Rect text(const std::string& s, int x, int y, int size, SDL_Color c,
                Align align = Align::kLeft, Weight weight = Weight::kRegular);
  // Text centred on (cx, cy).
  SDL_Rect text_centered(const std::string& s, float cx, float cy, int size, SDL_Color c,
                         Weight weight = Weight::kRegular);
  int text_width(const std::string& s, int size, Weight weight = Weight::kRegular);
  int line_height(int size, Weight weight = Weight::kRegular);
  // Splits `s` into lines no wider than `width`.
  std::vector<std::string> wrap(const std::string& s, int size, int width,
                                Weight weight = Weight::kRegular);

  void set_clip(const SDL_Rect* r);
  // Drops the cached text textures (kept bounded between frames) and the frame's texts.
  void end_frame();
  // Every text drawn since the last end_frame() and where: written beside screenshots so
  // tests can read what the screen says.
  const std::vector<std::pair<std::string, SDL_Rect>>& frame_texts() const { return drawn_; }

 private:
  TTF_Font* font(int size, Weight weight);
  SDL_Texture* text_texture(const std::string& s, int size, SDL_Color c, Weight weight, int* w,
                            int* h);

  SDL_Rect place(SDL_Texture* t, const std::string& s, float x, float y, int w, int h);

  SDL_Renderer* renderer_ = nullptr;
  float scale_ = 1;
  std::vector<std::pair<std::string, SDL_Rect>> drawn_;
  std::string font_paths_[3];
  std::map<std::pair<int, Weight>, TTF_Font*> fonts_;
  struct CachedText {
    SDL_Texture* texture = nullptr;
    int w = 0;
    int h = 0;
    std::uint64_t used = 0;
  };
  std::map<std::tuple<std::string, int, std::uint32_t, Weight>, CachedText> texts_;
  std::uint64_t frame_ = 0;
};

}  // namespace castra::client
