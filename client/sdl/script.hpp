// ScriptRunner: plays a --script file of UI steps (log in, click a button or a board cell,
// type, press keys, wait for a condition, take a screenshot) by pushing synthetic SDL mouse
// and keyboard events, so the client's own input path handles them as a person's. The step
// language is documented in docs/client.md. Render thread only.
#pragma once

#include <SDL.h>

#include <chrono>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "client/sdl/client.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/ui.hpp"

namespace castra::client {

class ScriptRunner {
 public:
  enum class Status { kRunning, kDone, kFailed };

  struct Context {
    Client& client;
    Ui& ui;
    MatchScreen& match;
    CampaignScreen& campaign;
    Uint32 window_id;
    // Writes the frame just drawn to a PNG; false on failure.
    std::function<bool(const std::string&)> screenshot;
    // Window coordinates (what mouse events carry) per UI unit (what the steps and the layout
    // speak): the pushed events are scaled as a real mouse's would be.
    float window_per_unit = 1;
  };

  bool load(const std::string& path, std::string* error);
  // Runs after each drawn frame: checks the current wait, or starts the next step.
  Status step(Context& ctx);
  const std::string& error() const { return error_; }
  // Whether a condition holds now (also used by --screenshot-when).
  static bool holds(const std::string& condition, Context& ctx, std::string* error);

 private:
  bool start(const std::string& line, Context& ctx);
  // After `follow`: the complete lines appended to the file since it was last read.
  void read_appended();
  void push_click(Context& ctx, int x, int y, Uint8 button);
  void push_motion(Context& ctx, int x, int y, Uint32 state);
  void push_button(Context& ctx, int x, int y, Uint8 button, bool down);
  void push_key(const std::string& name);
  void push_text(const std::string& text);

  std::vector<std::string> lines_;
  std::size_t next_ = 0;
  std::size_t line_number_ = 0;
  std::string path_;
  std::string error_;
  // `follow`: at the end of the file, wait for more lines (a test writing the steps as the
  // match goes) until `quit`.
  bool follow_ = false;
  bool quit_ = false;
  // A wait in progress.
  std::string waiting_for_;
  std::chrono::steady_clock::time_point deadline_{};
  int frames_to_wait_ = 0;
  std::chrono::steady_clock::time_point sleep_until_{};
  // Multi-frame gestures (a drag): one batch of events per frame.
  std::deque<std::function<void()>> gesture_;
};

}  // namespace castra::client
