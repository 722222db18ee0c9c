// App: castra-client's window and main loop. Each frame it drains SDL events into the Ui's
// input, lets the Client handle what the network brought (never waiting on it), draws the
// current screen, and serves the test hooks: --script steps and --screenshot. Render (main)
// thread only.
#pragma once

#include <SDL.h>

#include <memory>
#include <optional>
#include <string>

#include "client/sdl/chime.hpp"
#include "client/sdl/client.hpp"
#include "client/sdl/painter.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/script.hpp"
#include "client/sdl/ui.hpp"

namespace castra::client {

struct AppOptions {
  std::string server = "ws://127.0.0.1:8080/ws";
  std::string ca_file;
  bool insecure = false;
  std::string snapshot;      // offline: render this saved Snapshot / Subscribed JSON
  std::string campaign;      // offline: render this saved CampaignView JSON
  std::string commands_out;  // offline: append the commands the player makes here
  std::string screenshot;    // write a PNG of the first frame that shows a match state, then exit
  std::string screenshot_when;  // ... or of the first frame where this script condition holds
  std::string script;
  std::string font_dir = "/usr/share/fonts/truetype/dejavu";
  std::string name;  // log in (or register with --register) at start
  std::string password;
  bool register_account = false;
  bool guest = false;
  std::string open_match;     // then open this match (play or spectate)
  std::string open_campaign;  // ... or this campaign
  int width = 1280;
  int height = 800;
  // How big the UI is drawn: 1 is the screen's own size (on a 2x HiDPI screen one UI unit is
  // two pixels), 1.5 half as big again.
  float ui_scale = 1;
  double exit_after_seconds = 0;  // a safety net for tests: give up after this long
  bool sound = true;
};

class App {
 public:
  explicit App(AppOptions options);
  ~App();
  // Runs until the window closes, the script ends or the screenshot is written; the exit code.
  int run();

 private:
  bool init(std::string* error);
  Input collect_input(bool* quit);
  // Sets the painter's pixels per UI unit from the window's pixel density and --ui-scale; the
  // UI's size in units.
  SDL_Point apply_scale();
  void draw_frame();
  void draw_status_bar();
  bool write_png(const std::string& path);

  AppOptions options_;
  SDL_Window* window_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  std::unique_ptr<Painter> painter_;
  std::unique_ptr<Ui> ui_;
  std::unique_ptr<Client> client_;
  std::unique_ptr<LoginScreen> login_;
  LobbyScreen lobby_;
  MatchScreen match_;
  CampaignScreen campaign_;
  PlayerScreen player_;
  Chime chime_;
  ScriptRunner script_;
  std::unique_ptr<ScriptRunner::Context> context_;
  bool has_script_ = false;
  bool auto_signed_in_ = false;
  bool auto_opened_ = false;
  // Window coordinates (mouse events) per UI unit, as apply_scale() last found it.
  float window_per_unit_ = 1;
  // Input state carried between frames, in UI units.
  int mouse_x_ = 0;
  int mouse_y_ = 0;
  bool left_held_ = false;
  bool right_held_ = false;
  bool middle_held_ = false;
};

}  // namespace castra::client
