// castra-client: the SDL2 program. It renders what the server sends and submits the
// player's choices; it links no rules engine (tests/walls checks). Flags: docs/client.md.
#include <CLI/CLI.hpp>

#include "client/sdl/app.hpp"

int main(int argc, char** argv) {
  castra::client::AppOptions o;
  CLI::App app{"castra-client: play Optio and Ancient STAND! on a Castra server"};
  app.add_option("--server", o.server, "Server address (ws://HOST:PORT/ws or wss://...)")
      ->capture_default_str();
  app.add_option("--ca", o.ca_file, "wss:// only: also trust the certificates in this PEM file");
  app.add_flag("--insecure", o.insecure, "wss:// only: accept any certificate (testing only)");
  app.add_option("--name", o.name, "Log in with this name at start");
  app.add_option("--password", o.password, "... and this password");
  app.add_flag("--register", o.register_account, "Register --name instead of logging in");
  app.add_flag("--guest", o.guest, "Sign in as a guest (to watch) at start");
  app.add_option("--open", o.open_match, "Then open this match (play it, or watch it)");
  app.add_option("--open-campaign", o.open_campaign, "Then open this campaign (play or follow it)");
  app.add_option("--snapshot", o.snapshot,
                 "Offline: render a saved castra.v1.Snapshot or Subscribed JSON (or castra-sim "
                 "run --state output) instead of connecting");
  app.add_option("--campaign", o.campaign,
                 "Offline: render a saved castra.v1.CampaignView JSON (or JSON lines: the view, "
                 "then the exported CampaignRecord) instead of connecting");
  app.add_option("--commands-out", o.commands_out,
                 "Offline: append the commands the player makes to this file (JSON lines)");
  app.add_option("--screenshot", o.screenshot,
                 "Write a PNG of the first frame that shows a match state or a campaign (the "
                 "first frame when none is coming), then exit unless a --script runs");
  app.add_option("--screenshot-when", o.screenshot_when,
                 "Take the --screenshot at the first frame where this script condition holds");
  app.add_option("--script", o.script, "Run the UI steps of this file (docs/client.md)");
  app.add_option("--font-dir", o.font_dir, "Where DejaVuSans.ttf is")->capture_default_str();
  app.add_option("--width", o.width)->capture_default_str();
  app.add_option("--height", o.height)->capture_default_str();
  app.add_option("--ui-scale", o.ui_scale,
                 "Draw the UI this many times bigger than the screen's own size (HiDPI screens "
                 "are already scaled to their density)")
      ->capture_default_str()
      ->check(CLI::Range(0.5f, 4.0f));
  app.add_option("--exit-after", o.exit_after_seconds,
                 "Give up (exit 3) after this many seconds; 0 never");
  bool mute = false;
  app.add_flag("--mute", mute, "No chime when it becomes your move");
  CLI11_PARSE(app, argc, argv);
  o.sound = !mute;
  castra::client::App client(o);
  return client.run();
}
