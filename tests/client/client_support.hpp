// Helpers for castra-client's tests: run the real castra-client under Xvfb (with a --script
// that drives it through its own input path), read the screenshots it writes and the layout
// it writes beside each, and build offline views of real matches played with the engines.
// One test thread uses them.
#pragma once

#include <SDL.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::testing {

using namespace std::chrono_literals;

// 0xRRGGBB of a colour.
std::uint32_t rgb(SDL_Color c);

// The castra-client the tests run: this build's, or $CASTRA_CLIENT when set.
std::string client_binary();
// The command line for castra-client under `xvfb-run -a` in `dir` (its log: dir/client.log).
std::string client_command(const std::string& dir, const std::vector<std::string>& args);

// Runs castra-client to its end (a 1280 x 800 window unless `args` set --width and --height);
// its exit code (-1 when it had to be killed after `timeout`).
int run_client(const std::string& dir, const std::vector<std::string>& args,
               std::chrono::seconds timeout = 120s);

// One offline run of castra-client: a view (--snapshot JSON lines) and a script written into
// a fresh directory named after `name`, the client run on them (the commands it would send
// go to dir/commands.jsonl), `extra` flags after the usual ones.
struct OfflineRun {
  std::string dir;
  int exit_code = -1;
};
OfflineRun run_offline(const std::string& name, const std::string& view, const std::string& script,
                       const std::vector<std::string>& extra = {});

// castra-client running in the background while the test plays the other side.
class ClientProcess {
 public:
  ClientProcess(const std::string& dir, const std::vector<std::string>& args);
  ~ClientProcess();  // kills it (and its Xvfb) if still running
  ClientProcess(const ClientProcess&) = delete;
  ClientProcess& operator=(const ClientProcess&) = delete;
  // Its exit code once it ends, or nullopt while it runs.
  std::optional<int> poll();
  int wait(std::chrono::seconds timeout);

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// The steps of a --script that ends in `follow`, written as the match goes.
class ScriptWriter {
 public:
  explicit ScriptWriter(std::string path) : path_(std::move(path)) {}
  // Appends steps ending in a line the client prints, and waits until it has (its log is
  // dir/client.log).
  bool run(const std::string& steps, std::chrono::seconds timeout, const std::string& dir);
  void append(const std::string& steps);
  // Whether dir/client.log holds `line` within `timeout`.
  static bool wait_for_line(const std::string& dir, const std::string& line,
                            std::chrono::seconds timeout);

 private:
  std::string path_;
  int acks_ = 0;
};

// A PNG castra-client wrote, with the layout it wrote beside it (FILE.json).
class Picture {
 public:
  static std::optional<Picture> load(const std::string& path);
  std::uint32_t at(int x, int y) const;
  int width() const { return w_; }
  int height() const { return h_; }
  // The centre of board cell (col, row), where the client drew it.
  std::optional<SDL_Point> cell(int col, int row) const;
  double cell_size() const { return cell_size_; }
  // A named area (regions: "spectator-banner", "top-bar", "end-screen"...) or a widget.
  std::optional<SDL_Rect> region(const std::string& name) const;
  std::optional<SDL_Rect> widget(const std::string& name) const;
  // Every region whose name begins with `prefix` (names that carry the text drawn).
  std::vector<std::pair<std::string, SDL_Rect>> regions_starting(const std::string& prefix) const;
  // Pixels of exactly `color` inside `area`.
  int count(std::uint32_t color, const SDL_Rect& area) const;
  // The texts the frame drew, each with its box, in drawing order; the box of the first that
  // contains `part`.
  const std::vector<std::pair<std::string, SDL_Rect>>& texts() const { return texts_; }
  std::optional<SDL_Rect> text(const std::string& part) const;

 private:
  int w_ = 0;
  int h_ = 0;
  std::vector<std::uint32_t> pixels_;
  std::vector<std::pair<std::pair<int, int>, SDL_Point>> cells_;
  double cell_size_ = 0;
  std::vector<std::pair<std::string, SDL_Rect>> regions_;
  std::vector<std::pair<std::string, SDL_Rect>> widgets_;
  std::vector<std::pair<std::string, SDL_Rect>> texts_;
};

// Real matches, played with the rules engines from scripts of castra.v1.ScriptLine JSON lines.
// The Optio training game of tests/rules/optio/data: its first `lines` commands, with its
// recorded dice (`fair_dice` false) or the match's own fair dice, which a record's verifier can
// recompute (the game's later commands may then not fit).
std::unique_ptr<wire::AnyMatch> optio_training(int lines, bool fair_dice = false);
// The STAND! training scenario and tests/client/data/stand_training.jsonl (first `lines`).
std::unique_ptr<wire::AnyMatch> stand_training(int lines);
// Plays one script line; the rules' refusal, or "".
std::string play_line(wire::AnyMatch& m, const std::string& line);

// What castra-client reads with --snapshot: JSON lines of the Subscribed reply (role, side,
// players) and the MatchUpdate pushes a subscriber gets (the history, then the snapshot with
// the latest events, and the legal commands when `player` must act).
// `scenario` names it as the lobby would ("optio/cannae"); empty: "<ruleset>/training".
std::string offline_view(const wire::AnyMatch& m, std::optional<rules::Side> player,
                         std::uint32_t spectator_delay_turns = 0, const std::string& scenario = "");

// What an update says of the match: its board (protocol 1.1), or a 1.0 server's status;
// nullptr for an update that changes neither (the spectator count, a draw offer).
const v1::Snapshot* view_of(const v1::MatchUpdate& u);

// A hex as a script's `click-cell` takes it ("col row"), and the label of a STAND! troop
// type's deployment button.
std::string cell(const v1::Coord& c);
const char* troop_label(int troop_type);

// The Optio campaign of tests/client/data/campaign_optio_selecting.json as its side A player
// sees it: two battles fought, his selection for the third due, its deadline `deadline_in`
// from now.
v1::CampaignView campaign_fixture(std::chrono::seconds deadline_in = std::chrono::hours(53));
// A message as one line of protobuf's JSON mapping (what --campaign and --snapshot read).
std::string json_line(const google::protobuf::Message& m);

void write_file(const std::string& path, const std::string& text);
std::string read_file(const std::string& path);
// The commands castra-client wrote with --commands-out.
std::vector<v1::SubmitCommand> read_commands(const std::string& path);

}  // namespace castra::testing
