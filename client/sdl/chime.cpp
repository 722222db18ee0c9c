#include "client/sdl/chime.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace castra::client {

namespace {

constexpr int kRate = 22050;

// Two bell-like notes (E6 then B5), each fading out.
std::vector<std::int16_t> make_chime() {
  std::vector<std::int16_t> samples;
  const double notes[] = {1318.5, 987.8};
  for (double freq : notes) {
    const int n = kRate * 22 / 100;
    for (int i = 0; i < n; ++i) {
      const double t = static_cast<double>(i) / kRate;
      const double env = std::exp(-t * 9.0);
      const double v = env * (std::sin(2 * std::numbers::pi * freq * t) +
                              0.3 * std::sin(4 * std::numbers::pi * freq * t));
      samples.push_back(static_cast<std::int16_t>(v * 7000));
    }
  }
  return samples;
}

}  // namespace

Chime::~Chime() {
  if (device_ != 0) SDL_CloseAudioDevice(device_);
}

bool Chime::open() {
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) return false;
  SDL_AudioSpec want{};
  want.freq = kRate;
  want.format = AUDIO_S16SYS;
  want.channels = 1;
  want.samples = 1024;
  device_ = SDL_OpenAudioDevice(nullptr, 0, &want, nullptr, 0);
  if (device_ == 0) return false;
  SDL_PauseAudioDevice(device_, 0);
  return true;
}

void Chime::play() {
  if (device_ == 0) return;
  static const std::vector<std::int16_t> kSamples = make_chime();
  SDL_ClearQueuedAudio(device_);
  SDL_QueueAudio(device_, kSamples.data(),
                 static_cast<Uint32>(kSamples.size() * sizeof(std::int16_t)));
}

}  // namespace castra::client
