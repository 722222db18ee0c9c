// castra-client against the server's computer opponent: a player starts a match against the
// computer from the lobby by clicks and plays it by clicks to its end. The test reads the
// player's legal lists on a second connection of the same account and writes each next step
// into the client's script as the match goes (the script's `follow`); the client's own
// clicks make every command.
#include <gtest/gtest.h>

#include "client/net/protocol_client.hpp"
#include "client/sdl/theme.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using testing::Picture;
using testing::rgb;
namespace theme = client::theme;
namespace s = v1::stand;
using testing::cell;
using testing::troop_label;

constexpr const char* kPassword = "alice-password";

// A connection of the test's own, signed in as the client's player.
struct Watcher {
  std::unique_ptr<client::ProtocolClient> c;

  v1::ServerEnvelope call(v1::ClientEnvelope e) {
    std::string error;
    auto r = c->call(std::move(e), 10s, &error);
    EXPECT_TRUE(r) << error;
    return r ? *r : v1::ServerEnvelope{};
  }
  std::optional<v1::MatchUpdate> next_update(const std::string& id,
                                             std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      std::string error;
      auto push = c->next_push(100ms, &error);
      if (push && push->has_match_update() && push->match_update().match_id() == id)
        return push->match_update();
    }
    return std::nullopt;
  }
};

Watcher connect(const std::string& url) {
  Watcher w;
  std::string error;
  w.c = client::ProtocolClient::connect(url, 5s, &error);
  EXPECT_TRUE(w.c) << error;
  if (w.c) {
    EXPECT_TRUE(w.c->hello(5s, &error)) << error;
  }
  return w;
}

// The events in the match after an update (0: an update that does not say).
std::uint64_t event_count(const v1::MatchUpdate& u) {
  const auto* view = testing::view_of(u);
  return view != nullptr ? view->event_count() : 0;
}

int game_turn(const v1::MatchUpdate& u) {
  const auto* view = testing::view_of(u);
  return view != nullptr ? static_cast<int>(view->turn()) : 0;
}

// The clicks that play one of `legal`'s options: deploy one type of troops (the `deployed`th
// deployment, spread over the listed hexes), move a group (up to `moves_left` in a phase) to
// its farthest listed hex, attack, or end the phase.
std::string clicks_for(const s::Legal& legal, int deployed, int* moves_left, int* attacks_left) {
  for (const auto& g : legal.deploy()) {
    if (g.types_size() != 1 || g.destinations_size() == 0) continue;
    const auto& d = g.destinations((deployed * 5) % g.destinations_size());
    return "click-button " + std::string(troop_label(g.types(0))) + "\nclick-cell " +
           cell(d.hex()) + "\n";
  }
  if (legal.phase() == s::PHASE_MOVE && *moves_left > 0) {
    for (const auto& g : legal.moves()) {
      if (g.destinations_size() == 0) continue;
      --*moves_left;
      const auto& d = g.destinations(g.destinations_size() - 1);
      return "key Escape\nclick-cell " + cell(g.from()) + "\nclick-cell " + cell(d.hex()) + "\n";
    }
  }
  if (legal.phase() == s::PHASE_FIGHT && *attacks_left > 0) {
    for (const auto& a : legal.attacks()) {
      if (a.targets_size() == 0) continue;
      --*attacks_left;
      return "key Escape\nclick-cell " + cell(a.from()) + "\nclick-cell " + cell(a.targets(0)) +
             "\n";
    }
  }
  if (legal.end_phase()) return "click-button End phase\nclick-button Confirm\n";
  return "";
}

TEST(ClientLiveComputer, APlayerStartsAMatchAgainstTheComputerFromTheLobbyAndPlaysItToTheEnd) {
  testing::ServerProcess server(
      {"--argon2-opslimit", "1", "--argon2-memlimit", "8192", "--log-level", "debug"});
  ASSERT_TRUE(server.started()) << server.log();
  Watcher alice = connect(server.ws_url());
  ASSERT_TRUE(alice.call(client::requests::register_account("alice", kPassword)).has_session());

  // The lobby, by clicks: STAND! training against the computer. The form offers both
  // strengths; the match is against the random one, which leaves a few turns to play.
  const std::string dir = testing::make_temp_dir("castra-client-computer");
  const std::string script = dir + "/script.txt";
  testing::write_file(script,
                      "wait screen lobby timeout=30000\n"
                      "click-button stand/training\n"
                      "click-button Against the computer\n"
                      "click-button Computer greedy\n"
                      "frames 2\nscreenshot form.png\n"
                      "click-button Computer random\n"
                      "click-button Create match\n"
                      "wait screen match\nwait snapshot timeout=30000\nwait idle\n"
                      "frames 3\nscreenshot start.png\nprint ready\nfollow\n");
  testing::ClientProcess client(dir, {"--server", server.ws_url(), "--name", "alice", "--password",
                                      kPassword, "--script", script, "--exit-after", "280"});
  testing::ScriptWriter steps(script);
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "ready", 60s))
      << testing::read_file(dir + "/client.log");

  // The server made the match the clicks asked for, with the computer in the other seat.
  v1::ClientEnvelope mine;
  mine.mutable_my_matches()->set_limit(10);
  const auto listed = alice.call(mine);
  ASSERT_EQ(listed.matches().matches_size(), 1) << listed.DebugString();
  const auto summary = listed.matches().matches(0);
  const std::string id = summary.match_id();
  EXPECT_EQ(summary.settings().computer(), v1::COMPUTER_RANDOM);
  EXPECT_EQ(summary.status(), v1::MATCH_LIVE) << "the computer was seated at once";
  const v1::Side me = summary.my_side();
  const std::string computer_name = me == v1::SIDE_A ? summary.player_b() : summary.player_a();
  EXPECT_NE(computer_name.find("omputer"), std::string::npos) << computer_name;

  // A guest watching the live match sees the computer's mark too.
  const std::string watch_dir = testing::make_temp_dir("castra-client-computer-watch");
  testing::write_file(
      watch_dir + "/script.txt",
      "wait snapshot timeout=30000\nwait idle\nframes 3\nscreenshot watch.png\nquit\n");
  ASSERT_EQ(
      testing::run_client(watch_dir, {"--server", server.ws_url(), "--guest", "--open", id,
                                      "--script", watch_dir + "/script.txt", "--exit-after", "60"}),
      0)
      << testing::read_file(watch_dir + "/client.log");

  // Play: each time alice must act, the next option's clicks go into the client's script.
  ASSERT_TRUE(alice.call(client::requests::subscribe(id)).has_subscribed());
  int moves_left = 2, attacks_left = 2, deployed = 0, moved = 0, phase = -1;
  std::uint64_t acted_at = 0;
  bool over = false;
  const auto until = std::chrono::steady_clock::now() + 200s;
  while (!over && std::chrono::steady_clock::now() < until) {
    auto u = alice.next_update(id, 500ms);
    if (!u) continue;
    over = u->has_record() || (testing::view_of(*u) != nullptr && testing::view_of(*u)->ended());
    if (over || !u->your_move() || !u->has_legal() || event_count(*u) <= acted_at) continue;
    const auto& legal = u->legal().stand();
    if (legal.phase() != phase) {
      phase = legal.phase();
      moves_left = 2;
      attacks_left = 2;
    }
    const bool resign = game_turn(*u) >= 3 && legal.phase() == s::PHASE_MOVE;
    const std::string clicks = resign ? "click-button Resign\nclick-button Confirm\n"
                                      : clicks_for(legal, deployed, &moves_left, &attacks_left);
    ASSERT_FALSE(clicks.empty()) << "nothing to do in " << u->legal().DebugString();
    if (legal.deploy_size() > 0) ++deployed;
    if (legal.phase() == s::PHASE_MOVE && clicks.find("click-cell") != std::string::npos) ++moved;
    // The client clicks once it holds the same events and legal list as this connection.
    ASSERT_TRUE(steps.run("wait board-events " + std::to_string(event_count(*u)) +
                              " timeout=30000\nwait legal timeout=30000\nwait idle "
                              "timeout=30000\n" +
                              clicks + "wait idle timeout=30000\n",
                          60s, dir))
        << testing::read_file(dir + "/client.log");
    acted_at = event_count(*u);
    if (resign) break;
  }
  EXPECT_GT(deployed, 0) << "alice deployed by clicks";
  EXPECT_GT(moved, 0) << "alice moved by clicks";

  // The end screen with the result, then the lobby's row of the finished match.
  steps.append(
      "wait end-screen timeout=30000\nframes 3\nscreenshot end.png\n"
      "click-button Close\nclick-button Back to lobby\nwait screen lobby\n"
      "click-button Finished\nwait button Replay " +
      id + " timeout=30000\nframes 3\nscreenshot lobby.png\nquit\n");
  ASSERT_EQ(client.wait(90s), 0) << testing::read_file(dir + "/client.log");

  // The server ended it: the computer won (alice resigned) or the rules decided.
  v1::ClientEnvelope ask;
  ask.mutable_export_record()->set_match_id(id);
  const auto record = alice.call(ask);
  ASSERT_TRUE(record.has_record()) << record.DebugString();

  for (const std::string& shot : {dir + "/start.png", dir + "/end.png", watch_dir + "/watch.png"}) {
    auto p = Picture::load(shot);
    ASSERT_TRUE(p) << shot;
    auto mark = p->region("computer-mark");
    ASSERT_TRUE(mark) << shot << ": the computer's side is marked";
    EXPECT_GT(p->count(rgb(theme::kComputer), *mark), mark->w * mark->h / 3) << shot;
  }
  auto end = Picture::load(dir + "/end.png");
  EXPECT_TRUE(end->region("end-screen")) << "the end screen shows the result";
  auto lobby = Picture::load(dir + "/lobby.png");
  ASSERT_TRUE(lobby);
  auto row_mark = lobby->region("computer " + id);
  ASSERT_TRUE(row_mark) << "the lobby's row marks the computer";
  EXPECT_GT(lobby->count(rgb(theme::kComputer), *row_mark), row_mark->w * row_mark->h / 3);
}

}  // namespace
}  // namespace castra
