// The real castra-client under Xvfb: it starts, draws its first frame and writes it as a PNG.
#include <SDL.h>
#include <SDL_image.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/support/server_process.hpp"

namespace castra {
namespace {

// The colour of the pixel at (x, y) of a PNG, as 0xRRGGBB.
Uint32 pixel_at(const std::string& path, int x, int y) {
  SDL_Surface* loaded = IMG_Load(path.c_str());
  if (loaded == nullptr) return 0xFFFFFFFF;
  SDL_Surface* rgba = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_RGBA32, 0);
  SDL_FreeSurface(loaded);
  const auto* p = static_cast<const Uint8*>(rgba->pixels) + y * rgba->pitch + x * 4;
  const Uint32 rgb = (Uint32{p[0]} << 16) | (Uint32{p[1]} << 8) | p[2];
  SDL_FreeSurface(rgba);
  return rgb;
}

TEST(ClientUnderXvfb, WritesAScreenshotOfItsFirstFrame) {
  const std::string dir = testing::make_temp_dir("castra-client");
  const std::string png = dir + "/first.png";
  const std::string command = "xvfb-run -a -s '-screen 0 1280x800x24' " + testing::binary_dir() +
                              "/client/sdl/castra-client --width 640 --height 400 --screenshot " +
                              png + " > " + dir + "/client.log 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << "see " << dir << "/client.log";
  EXPECT_EQ(pixel_at(png, 5, 5), 0x262A30u);      // the background colour, not a blank picture
  EXPECT_NE(pixel_at(png, 320, 200), 0x262A30u);  // the title drawn in the middle
}

}  // namespace
}  // namespace castra
