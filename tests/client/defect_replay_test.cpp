// Issue 20's replay and spectator defects, each by castra-client against the real
// castra-server under Xvfb, driven by --script: stepping to an attack showed its casualties
// (5); a delayed spectator saw the present's clocks over his past picture (8); a finished
// match's replay log kept "(hidden: ...)" (12).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "client/sdl/theme.hpp"
#include "tests/client/live_seat.hpp"
#include "tests/server/closing_picker.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using namespace testing::live;
using testing::Picture;
using testing::rgb;
namespace theme = client::theme;

// The test scenarios, and a message rate for a test that plays both sides as fast as the
// server answers.
std::vector<std::string> flags_with_test_scenarios() {
  auto flags = server_flags();
  flags.insert(flags.end(), {"--scenarios", testing::source_dir() + "/tests/data/scenarios",
                             "--messages-per-second", "10000", "--message-burst", "10000"});
  return flags;
}

// Both sides play with tests/server's ClosingPicker (every unit deployed, the shortest
// orders, STAND!'s groups towards the enemy, an attack whenever one is listed, else the end
// of the phase) until `stop` says so or the game ends; the commands played.
int play_with_pickers(Seat& a, Seat& b, const std::function<bool()>& stop) {
  testing::ClosingPicker pickers[2];
  Seat* seats[2] = {&a, &b};
  int played = 0;
  for (int round = 0; round < 2000 && !stop(); ++round) {
    bool moved = false;
    for (int i = 0; i < 2 && !stop(); ++i) {
      v1::ClientEnvelope e;
      e.mutable_get_legal()->set_match_id(seats[i]->match_id);
      const auto legal = seats[i]->call(e);
      if (!legal.has_legal()) continue;
      const auto side = seats[i]->side == v1::SIDE_A ? rules::Side::kA : rules::Side::kB;
      v1::Snapshot seen;
      if (legal.legal().legal().has_stand()) {
        seen = seats[i]
                   ->call(client::requests::get_snapshot_at_event(seats[i]->match_id,
                                                                  legal.legal().event_count()))
                   .snapshot();
      }
      const auto c = pickers[i].pick(legal.legal().legal(), seen, side);
      if (!c) continue;
      seats[i]->submit(*c);
      ++played;
      moved = true;
    }
    if (!moved) break;
  }
  return played;
}

std::string guest_replay_script(const std::string& id, std::uint64_t events) {
  return "wait screen lobby timeout=30000\nclick-button Finished\nwait button Replay " + id +
         "\nclick-button Replay " + id + "\nwait screen match\nwait record timeout=30000\n" +
         "wait events " + std::to_string(events) + " timeout=30000\n" +
         "wait replay-step 0 timeout=30000\n";
}

int figures_of(const v1::stand::Figures& f) {
  return f.infantry() + f.archers() + f.cavalry() + f.chariots();
}

// Defect 5: a replay's step is one event, and the board shows that event's effect alone. The
// attack is an entry of several events (the attack, perhaps a d10, the casualties, morale):
// its step shows the defender whole; the casualties' step shows them taken.
TEST(ClientDefect, ReplayStepToAnAttackDoesNotShowItsCasualtiesYet) {
  testing::ServerProcess server(flags_with_test_scenarios());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("stand/test", v1::SIDE_A);
  bob.join(id);
  // The Pickers play it to its end (a turn limit or a break), or bob resigns.
  std::optional<v1::MatchRecord> record;
  play_with_pickers(alice, bob, [&] {
    const auto r = ended_record(alice, id);
    if (r.has_record()) record = r.record();
    return record.has_value();
  });
  if (!record) {
    ASSERT_TRUE(resigned(bob, id));
    record = ended_record(alice, id).record();
  }
  // The first attack that took casualties: the events' numbers, the hex, the figures lost.
  std::uint64_t attack = 0, casualties = 0;
  bool found = false;
  v1::Coord hex;
  int lost = 0;
  std::uint32_t entry = 0;
  std::uint64_t events = 0;
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(record->entries_size()); ++i) {
    const auto& en = record->entries(i);
    events = std::max(events, en.first_event() + en.events_size());
    bool attacked = false;
    for (int k = 0; k < en.events_size() && !found; ++k) {
      const auto& ev = en.events(k).stand();
      if (ev.has_attacked()) {
        attacked = true;
        attack = en.first_event() + k;
      }
      if (attacked && ev.has_casualties() && figures_of(ev.casualties().lost()) > 0) {
        found = true;
        casualties = en.first_event() + k;
        hex = ev.casualties().hex();
        lost = figures_of(ev.casualties().lost());
        entry = i;
      }
    }
  }
  ASSERT_TRUE(found) << "no attack took casualties: the test shows nothing";
  // The defender's figures before the attack's entry, from the server's picture by entry.
  Seat guest = Seat::guest(server.ws_url());
  const auto before_entry = guest.call(client::requests::get_snapshot(id, entry));
  ASSERT_TRUE(before_entry.has_snapshot()) << before_entry.DebugString();
  int before = 0;
  for (const auto& t : before_entry.snapshot().state().stand().tiles())
    if (t.hex().col() == hex.col() && t.hex().row() == hex.row() && t.has_troops())
      before = figures_of(t.troops().figures());
  ASSERT_GT(before, 0);
  const int after = std::max(0, before - lost);

  // A guest replays it: steps to the attack (its figures whole), then to its casualties.
  std::string script = guest_replay_script(id, events);
  for (std::uint64_t i = 0; i <= attack; ++i)
    script += "key Right\n";
  script += "wait replay-step " + std::to_string(attack + 1) + " timeout=30000\n" +
            "frames 2\nscreenshot attack.png\nexpect figures " + testing::cell(hex) + " " +
            std::to_string(before) + "\n";
  for (std::uint64_t i = attack + 1; i <= casualties; ++i)
    script += "key Right\n";
  script += "wait replay-step " + std::to_string(casualties + 1) + " timeout=30000\n" +
            "frames 2\nscreenshot casualties.png\nexpect figures " + testing::cell(hex) + " " +
            std::to_string(after) + "\nquit\n";
  const std::string dir = dir_for("defect-replay-attack");
  testing::write_file(dir + "/script.txt", script);
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--guest", "--script",
                                      dir + "/script.txt", "--exit-after", "110"}),
            0)
      << log_of(dir);
  ASSERT_TRUE(Picture::load(dir + "/attack.png"));
  ASSERT_TRUE(Picture::load(dir + "/casualties.png"));
}

// Defect 8: a spectator kept turns behind is shown the past: its board, and with it who was to
// act then; never the present's clocks (the server sends none with a delayed picture, and the
// room's summary carries the live ones).
TEST(ClientDefect, DelayedSpectatorSeesTheClocksOfHisPicture) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("stand/training", v1::SIDE_A, 1);
  bob.join(id);
  auto first_a = alice.subscribe();
  auto first_b = bob.subscribe();
  ASSERT_TRUE(first_a && first_b) << kNeedsRuntime;
  auto [mover, update] = deploy_both(alice, *first_a, bob, *first_b);
  ASSERT_NE(mover, nullptr);
  mover->answer(update, simple_answer);
  play_until_turn(alice, bob, 2);
  // What the delayed spectator is shown, from the test's own guest connection: a past
  // picture, while the present has a clock running.
  Seat watcher = Seat::guest(server.ws_url());
  watcher.match_id = id;
  const auto seen = watcher.subscribe();
  ASSERT_TRUE(seen && seen->has_snapshot());
  ASSERT_LT(seen->snapshot().turn(), 2) << "the spectator's picture is not behind";
  const std::string dir = dir_for("defect-delayed-clocks");
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nwait idle\nframes 5\nscreenshot delayed.png\n"
                      "expect clock A none\nexpect clock B none\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--guest", "--open", id,
                                      "--script", dir + "/script.txt", "--exit-after", "60"}),
            0)
      << log_of(dir);
  auto p = Picture::load(dir + "/delayed.png");
  ASSERT_TRUE(p);
  // The clock boxes say who was to act in the picture shown, in his side's colour.
  for (v1::Side side : {v1::SIDE_A, v1::SIDE_B}) {
    const auto box = p->region(side == v1::SIDE_A ? "clock-A" : "clock-B");
    ASSERT_TRUE(box);
    const bool acting =
        side == v1::SIDE_A ? seen->snapshot().a_to_act() : seen->snapshot().b_to_act();
    const auto color = rgb(side == v1::SIDE_A ? theme::kSideA : theme::kSideB);
    if (acting) {
      EXPECT_GT(p->count(color, *box), box->w * box->h / 3) << "side " << side;
    } else {
      EXPECT_EQ(p->count(color, *box), 0) << "side " << side;
    }
  }
}

// Defect 12: a player watched his Optio match live (the opponent's orders cards hidden from
// him, sealed); once it is over everything may be seen, and his replay's log says it all.
TEST(ClientDefect, FinishedReplayLogHidesNothing) {
  testing::ServerProcess server(flags_with_test_scenarios());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/test", v1::SIDE_A);
  bob.join(id);
  // Bob's client watches from the start; the test plays both sides through the first orders.
  const std::string dir = dir_for("defect-replay-hidden");
  testing::ScriptWriter script(dir + "/script.txt");
  script.append("wait snapshot timeout=30000\nprint watching\nfollow\n");
  testing::ClientProcess bobs_client(
      dir, {"--server", server.ws_url(), "--name", "bob", "--password", password_of("bob"),
            "--open", id, "--script", dir + "/script.txt", "--exit-after", "100"});
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "watching", 40s)) << log_of(dir);
  // Until bob's orders phase is over: alice's card was sealed from him meanwhile.
  bool moving = false;
  play_with_pickers(alice, bob, [&] {
    v1::ClientEnvelope e;
    e.mutable_get_legal()->set_match_id(id);
    const auto legal = bob.call(e);
    moving = legal.has_legal() && legal.legal().legal().optio().phase() == "move";
    return moving;
  });
  ASSERT_TRUE(moving) << "the orders phase was never passed";
  ASSERT_TRUE(resigned(alice, id));
  // Bob sees the end, opens the replay from the result, and goes to its end.
  ASSERT_TRUE(
      script.run("wait ended timeout=30000\nwait record timeout=30000\n"
                 "wait end-screen\nclick-button Replay from the result\n"
                 "wait log-hides-nothing timeout=30000\nkey End\n"
                 "wait replay-step end timeout=30000\nframes 2\nscreenshot end.png\n"
                 "print done\n",
                 60s, dir))
      << log_of(dir);
  script.append("quit\n");
  EXPECT_EQ(bobs_client.wait(30s), 0) << log_of(dir);
  auto p = Picture::load(dir + "/end.png");
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->region("log"));
}

}  // namespace
}  // namespace castra
