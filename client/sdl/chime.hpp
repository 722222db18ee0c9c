// Chime: the short two-note sound castra-client plays when it becomes the player's move.
// Without an audio device (a server, Xvfb) it stays silent. Render thread only.
#pragma once

#include <SDL.h>

namespace castra::client {

class Chime {
 public:
  ~Chime();
  // Opens the default audio device; false (and silence) when there is none.
  bool open();
  void play();

 private:
  SDL_AudioDeviceID device_ = 0;
};

}  // namespace castra::client
