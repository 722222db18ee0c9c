// A finished match replayed by castra-client against the real castra-server under Xvfb, driven
// by --script: autoplay steps through every event, each picture asked for once, to the end as a
// step of its own; a click on a log line rings on the board where its event happened.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "client/sdl/theme.hpp"
#include "tests/client/live_seat.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using namespace testing::live;
using testing::Picture;
using testing::rgb;
namespace theme = client::theme;

// A STAND! training match played from the test: both deploy, the side that moves first takes
// one group to an empty hex, both end their phases until turn 2, and the other side resigns.
struct Played {
  std::string id;
  v1::MatchRecord record;
  v1::Coord from, to;            // the move
  std::uint64_t move_event = 0;  // its event's number
  std::uint64_t events = 0;
};

Played play_a_move_and_resign(testing::ServerProcess& server) {
  Played out;
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  out.id = alice.create("stand/training", v1::SIDE_A);
  bob.join(out.id);
  auto first_a = alice.subscribe();
  auto first_b = bob.subscribe();
  EXPECT_TRUE(first_a && first_b) << kNeedsRuntime;
  if (!first_a || !first_b) return out;
  auto [mover, move_update] = deploy_both(alice, *first_a, bob, *first_b);
  EXPECT_NE(mover, nullptr);
  if (mover == nullptr) return out;
  const auto& at = *testing::view_of(move_update);
  const auto now = mover->call(client::requests::get_snapshot(out.id, at.entry_count()));
  v1::GameCommand move;
  for (const auto& g : move_update.legal().stand().moves()) {
    if (g.types_size() != 1 || move.has_stand()) continue;
    for (const auto& d : g.destinations()) {
      if (holder(now.snapshot(), d.hex()) || move.has_stand()) continue;
      out.from = g.from();
      out.to = d.hex();
      auto* mv = move.mutable_stand()->mutable_move();
      *mv->mutable_from() = g.from();
      *mv->mutable_path() = d.path();
      *mv->mutable_figures() = d.most();
    }
  }
  EXPECT_TRUE(move.has_stand()) << "no group may move to an empty hex";
  mover->submit(move);
  play_until_turn(alice, bob, 2);
  Seat& loser = mover == &alice ? bob : alice;
  EXPECT_TRUE(resigned(loser, out.id));
  out.record = ended_record(alice, out.id).record();
  for (const auto& e : out.record.entries()) {
    out.events = std::max(out.events, e.first_event() + e.events_size());
    for (int k = 0; k < e.events_size(); ++k)
      if (e.events(k).stand().has_moved()) out.move_event = e.first_event() + k;
  }
  return out;
}

std::string open_replay(const Played& p) {
  return "wait screen lobby timeout=30000\nclick-button Finished\nwait button Replay " + p.id +
         "\nclick-button Replay " + p.id + "\nwait screen match\nwait record timeout=30000\n" +
         "wait events " + std::to_string(p.events) + " timeout=30000\n" +
         "wait replay-step 0 timeout=30000\n";
}

TEST(ClientReplay, AutoplayStepsThroughEveryEventToTheEndAtTheChosenSpeed) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const Played p = play_a_move_and_resign(server);
  ASSERT_GT(p.events, 10u);
  ASSERT_EQ(p.record.entries(p.record.entries_size() - 1).kind(), v1::ENTRY_END);
  // From 1x two clicks of the speed button make it 4x; then play, a picture midway, the end.
  const std::string script = open_replay(p) +
                             "click-button Speed\nclick-button Speed\nclick-button Autoplay\n"
                             "wait replay-step " +
                             std::to_string(p.move_event + 1) +
                             " timeout=60000\nscreenshot playing.png\n"
                             "wait replay-step end timeout=90000\nframes 3\nscreenshot end.png\n"
                             "expect replay-step end\nquit\n";
  const std::string dir = dir_for("replay-autoplay");
  testing::write_file(dir + "/script.txt", script);
  setenv("CASTRA_CLIENT_TRACE", "1", 1);
  const int exit_code =
      testing::run_client(dir, {"--server", server.ws_url(), "--guest", "--script",
                                dir + "/script.txt", "--exit-after", "150"});
  unsetenv("CASTRA_CLIENT_TRACE");
  ASSERT_EQ(exit_code, 0) << log_of(dir);
  // Every step's picture was on the board before the next (autoplay waits for it): each was
  // asked for once, the start's and every event's.
  std::map<std::string, int> asked;
  std::istringstream log(log_of(dir));
  for (std::string line; std::getline(log, line);)
    if (line.rfind("get_snapshot: ", 0) == 0) ++asked[line];
  for (std::uint64_t n = 0; n <= p.events; ++n) {
    const std::string line = "get_snapshot: events=" + std::to_string(n);
    EXPECT_EQ(asked[line], 1) << line;
  }
  auto playing = Picture::load(dir + "/playing.png");
  auto end = Picture::load(dir + "/end.png");
  ASSERT_TRUE(playing && end);
  // Midway the moved figures are on the hex they went to; at the end too, and the log's newest
  // line, the end's, is in the step's highlight.
  EXPECT_GT(counter_pixels(*playing, p.to, 0.45), 100);
  EXPECT_GT(counter_pixels(*end, p.to, 0.45), 100);
  const auto log_area = end->region("log");
  ASSERT_TRUE(log_area);
  SDL_Rect newest = *log_area;
  newest.y = log_area->y + log_area->h - 60;
  newest.h = 60;
  EXPECT_GT(end->count(rgb(theme::kHighlight), newest), 20) << "no end line";
}

TEST(ClientReplay, AClickOnALogLineRingsWhereItsEventHappened) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const Played p = play_a_move_and_resign(server);
  ASSERT_GT(p.move_event, 0u);
  // To the step after the move, then a click on the move's line; a second click clears it.
  std::string script = open_replay(p);
  for (std::uint64_t i = 0; i <= p.move_event + 1; ++i)
    script += "key Right\n";
  const std::string line = "log-event-" + std::to_string(p.move_event);
  script += "wait replay-step " + std::to_string(p.move_event + 2) +
            " timeout=30000\nframes 2\nscreenshot before.png\nclick-region " + line +
            "\nframes 2\nscreenshot located.png\nclick-region " + line +
            "\nframes 2\nscreenshot cleared.png\nquit\n";
  const std::string dir = dir_for("replay-locate");
  testing::write_file(dir + "/script.txt", script);
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--guest", "--script",
                                      dir + "/script.txt", "--exit-after", "110"}),
            0)
      << log_of(dir);
  auto before = Picture::load(dir + "/before.png");
  auto located = Picture::load(dir + "/located.png");
  auto cleared = Picture::load(dir + "/cleared.png");
  ASSERT_TRUE(before && located && cleared);
  const auto rings = [](const Picture& pic, const v1::Coord& hex) {
    const auto c = pic.cell(hex.col(), hex.row());
    EXPECT_TRUE(c);
    if (!c) return 0;
    const int h = static_cast<int>(pic.cell_size() * 1.1);
    return pic.count(rgb(theme::kLocate), SDL_Rect{c->x - h, c->y - h, 2 * h, 2 * h});
  };
  // The move's hexes, where it came from and where it went, are ringed; before the click and
  // after the second nothing is.
  EXPECT_GT(rings(*located, p.from), 60);
  EXPECT_GT(rings(*located, p.to), 60);
  const auto board = located->region("board");
  ASSERT_TRUE(board);
  EXPECT_EQ(before->count(rgb(theme::kLocate), *board), 0);
  EXPECT_EQ(cleared->count(rgb(theme::kLocate), *board), 0);
}

// Optio's events name units by number: a fight's line rings both units' squares, read from
// the picture shown (here offline, the training game in turn 3).
TEST(ClientLogLocate, AnOptioFightIsRingedOnBothUnitsSquares) {
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const auto state = m->snapshot(rules::Viewer::kSideA).state().optio();
  const auto square_of = [&](int id) -> std::optional<v1::Coord> {
    for (const auto& u : state.units())
      if (u.id() == id && u.placed() && !u.routed()) return u.at();
    return std::nullopt;
  };
  // The latest fight whose two units still stand.
  std::optional<std::uint64_t> fight;
  v1::Coord a, b;
  for (const auto& e : m->events_for(rules::Viewer::kSideA, 0)) {
    if (!e.has_event() || !e.event().optio().has_fight()) continue;
    const auto sa = square_of(e.event().optio().fight().a());
    const auto sb = square_of(e.event().optio().fight().b());
    if (!sa || !sb) continue;
    fight = e.number();
    a = *sa;
    b = *sb;
  }
  ASSERT_TRUE(fight) << "no fight between units that still stand: the test shows nothing";
  const std::string dir = dir_for("locate-optio");
  testing::write_file(dir + "/view.jsonl", testing::offline_view(*m, rules::Side::kA));
  testing::write_file(dir + "/script.txt", "wait snapshot\nframes 3\nclick-region log-event-" +
                                               std::to_string(*fight) +
                                               "\nframes 2\nscreenshot located.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--snapshot", dir + "/view.jsonl", "--script",
                                      dir + "/script.txt", "--exit-after", "60"}),
            0)
      << log_of(dir);
  auto p = Picture::load(dir + "/located.png");
  ASSERT_TRUE(p);
  for (const auto& sq : {a, b}) {
    const auto c = p->cell(sq.col(), sq.row());
    ASSERT_TRUE(c);
    const int h = static_cast<int>(p->cell_size() * 0.6);
    EXPECT_GT(p->count(rgb(theme::kLocate), SDL_Rect{c->x - h, c->y - h, 2 * h, 2 * h}), 60)
        << "square " << sq.ShortDebugString();
  }
}

}  // namespace
}  // namespace castra
