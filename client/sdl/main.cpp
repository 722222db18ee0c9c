// castra-client: the SDL2 program. It renders what the server sends and submits the
// player's choices; it links no rules engine (tests/walls checks).
#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

namespace {

constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

struct Options {
  std::string server = "ws://127.0.0.1:8080/ws";
  std::string screenshot;
  int width = 1280;
  int height = 800;
};

// Writes the renderer's current picture as a PNG.
bool save_screenshot(SDL_Renderer* renderer, int w, int h, const std::string& path) {
  SDL_Surface* surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
  if (surface == nullptr) return false;
  const bool ok = SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_RGBA32, surface->pixels,
                                       surface->pitch) == 0 &&
                  IMG_SavePNG(surface, path.c_str()) == 0;
  SDL_FreeSurface(surface);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  CLI::App app{"castra-client: play Optio and Ancient STAND! on a Castra server"};
  app.add_option("--server", options.server, "Server address (ws://HOST:PORT/ws)")
      ->capture_default_str();
  app.add_option("--screenshot", options.screenshot,
                 "Write a PNG of the first frame to FILE and exit");
  app.add_option("--width", options.width)->capture_default_str();
  app.add_option("--height", options.height)->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  if (SDL_Init(SDL_INIT_VIDEO) != 0 || TTF_Init() != 0) {
    std::fprintf(stderr, "castra-client: SDL: %s\n", SDL_GetError());
    return 1;
  }
  SDL_Window* window = SDL_CreateWindow("Castra", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                        options.width, options.height, SDL_WINDOW_RESIZABLE);
  SDL_Renderer* renderer =
      window != nullptr ? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE) : nullptr;
  TTF_Font* font = TTF_OpenFont(kFontPath, 28);
  if (renderer == nullptr || font == nullptr) {
    std::fprintf(stderr, "castra-client: %s\n", SDL_GetError());
    return 1;
  }

  bool running = true;
  while (running) {
    SDL_Event event;
    while (SDL_PollEvent(&event) != 0) {
      if (event.type == SDL_QUIT) running = false;
    }
    int w = 0;
    int h = 0;
    SDL_GetRendererOutputSize(renderer, &w, &h);
    SDL_SetRenderDrawColor(renderer, 38, 42, 48, 255);
    SDL_RenderClear(renderer);
    const std::string title = "Castra  -  " + options.server;
    SDL_Surface* text = TTF_RenderUTF8_Blended(font, title.c_str(), SDL_Color{236, 228, 206, 255});
    if (text != nullptr) {
      SDL_Texture* tex = SDL_CreateTextureFromSurface(renderer, text);
      SDL_Rect dst{(w - text->w) / 2, (h - text->h) / 2, text->w, text->h};
      SDL_RenderCopy(renderer, tex, nullptr, &dst);
      SDL_DestroyTexture(tex);
      SDL_FreeSurface(text);
    }
    if (!options.screenshot.empty()) {
      const bool ok = save_screenshot(renderer, w, h, options.screenshot);
      running = false;
      if (!ok) std::fprintf(stderr, "castra-client: screenshot: %s\n", SDL_GetError());
    }
    SDL_RenderPresent(renderer);
    SDL_Delay(16);
  }
  TTF_CloseFont(font);
  SDL_DestroyRenderer(renderer);
  SDL_DestroyWindow(window);
  TTF_Quit();
  SDL_Quit();
  return 0;
}
