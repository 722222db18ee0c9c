// castra-client against the real castra-server (tests/support/server_process.hpp), driven by
// --script through its own input path. The lobby tests run on any server; the match tests
// need the match runtime (MatchUpdate pushes after SubscribeMatch): on a server without it
// they fail, saying so, when a subscription brings no match update.
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <google/protobuf/util/json_util.h>

#include "client/net/protocol_client.hpp"
#include "client/sdl/theme.hpp"
#include "tests/client/client_support.hpp"
#include "tests/client/live_seat.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using namespace testing::live;
using testing::Picture;
using testing::rgb;
namespace theme = client::theme;
namespace o = v1::optio;
namespace s = v1::stand;

// ---- The lobby: any server -----------------------------------------------------------------

TEST(ClientLobby, RegistersCreatesAMatchThroughItsOwnClicksAndListsIt) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const std::string dir = dir_for("lobby");
  testing::write_file(dir + "/script.txt", register_by_clicks("alice") +
                                               "wait button optio/training\n"
                                               "click-button optio/training\n"
                                               "click-button Create match\n"
                                               "wait screen match\n"
                                               "wait message dice commitment\n"
                                               "frames 3\nscreenshot created.png\n"
                                               "click-button Back to lobby\n"
                                               "wait screen lobby\n"
                                               "click-button My matches\n"
                                               "wait button Open \n"
                                               "frames 3\nscreenshot lobby.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--script", dir + "/script.txt",
                                      "--exit-after", "100"}),
            0)
      << log_of(dir);
  // The server has the match the clicks made, by alice, open, with a published commitment.
  Seat watcher = Seat::guest(server.ws_url());
  const auto listed = watcher.call(client::requests::list_matches(v1::MATCH_OPEN));
  ASSERT_EQ(listed.matches().matches_size(), 1) << listed.DebugString();
  const auto& m = listed.matches().matches(0);
  EXPECT_EQ(m.scenario(), "optio/training");
  EXPECT_EQ(m.player_a(), "alice");
  EXPECT_EQ(m.dice_commitment().size(), 64u);
  // The lobby screenshot lists it with its action.
  auto p = Picture::load(dir + "/lobby.png");
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->widget("Open " + m.match_id())) << "the match's row is drawn";
}

// The picker lists every battle the server offers with its title and measured balance (the
// README tables, through scenarios/library/), and draws the chosen one's map and armies.
TEST(ClientLobby, ThePickerListsTheBattlesWithTheirBalanceAndDrawsAPreview) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const std::string dir = dir_for("battle-picker");
  testing::write_file(dir + "/script.txt", register_by_clicks("carol") +
                                               "wait button optio/cannae\n"
                                               "click-button optio/cannae\n"
                                               "frames 3\nscreenshot cannae.png\n"
                                               "click-button stand/marathon\n"
                                               "frames 3\nscreenshot marathon.png\n"
                                               "click-button stand/qadesh-ambush\n"
                                               "frames 3\nscreenshot ambush.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--script", dir + "/script.txt",
                                      "--exit-after", "100"}),
            0)
      << log_of(dir);
  auto p = Picture::load(dir + "/cannae.png");
  ASSERT_TRUE(p);
  for (const char* name :
       {"optio/cannae", "optio/lessons/charge", "stand/milvian-bridge", "stand/lessons/cover"})
    EXPECT_TRUE(p->widget(name)) << name << " is listed";
  EXPECT_TRUE(p->region("picker-title Cannae, 216 BC"));
  EXPECT_TRUE(p->region("picker-title Marathon, 490 BC"));
  // The figures of the README's balance tables.
  EXPECT_TRUE(p->region("picker-balance optio/cannae: 47.4% / 45.2%"));
  EXPECT_TRUE(p->region("picker-balance optio/trebia: 53.6% / 40.8%"));
  EXPECT_TRUE(p->region("picker-balance stand/marathon: 48.0% / 52.0%"));
  // Cannae's preview: open ground, and both armies' counters (its deployment is fixed).
  const auto preview = p->region("scenario-preview");
  ASSERT_TRUE(preview);
  EXPECT_GT(p->count(rgb(theme::kOptioOpen), *preview), preview->w * preview->h / 10);
  EXPECT_GT(p->count(rgb(theme::kSideA), *preview), 100);
  EXPECT_GT(p->count(rgb(theme::kSideB), *preview), 100);
  // Marathon's: hexes of STAND! open ground instead.
  auto m = Picture::load(dir + "/marathon.png");
  ASSERT_TRUE(m);
  const auto hexes = m->region("scenario-preview");
  ASSERT_TRUE(hexes);
  EXPECT_GT(m->count(rgb(theme::kStandOpen), *hexes), hexes->w * hexes->h / 10);
  EXPECT_EQ(m->count(rgb(theme::kOptioOpen), *hexes), 0);
  // Marathon's armies deploy themselves, so none is drawn; the ambush places both.
  EXPECT_EQ(m->count(rgb(theme::kSideA), *hexes), 0);
  auto q = Picture::load(dir + "/ambush.png");
  ASSERT_TRUE(q);
  const auto placed = q->region("scenario-preview");
  ASSERT_TRUE(placed);
  EXPECT_GT(q->count(rgb(theme::kSideA), *placed), 100);
  EXPECT_GT(q->count(rgb(theme::kSideB), *placed), 100);
}

TEST(ClientLobby, SaysInWordsWhyTheServerRefused) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat::registered(server.ws_url(), "carol");
  const std::string dir = dir_for("refusals");
  testing::write_file(dir + "/script.txt",
                      "wait connected\n"
                      "click-button name\ntype carol\n"
                      "click-button password\ntype not-her-password\n"
                      "click-button Log in\n"
                      "wait message Wrong name or password\n"
                      "frames 2\nscreenshot wrong.png\n"
                      "click-button name\nkey Backspace\nkey Backspace\nkey Backspace\nkey "
                      "Backspace\nkey Backspace\n"
                      "type dave\n"
                      "click-button password\nkey ctrl+u\ntype x\n"
                      "click-button Register\n"
                      "wait message Passwords are 8 to 256\n"
                      "quit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--script", dir + "/script.txt",
                                      "--exit-after", "60"}),
            0)
      << log_of(dir);
}

TEST(ClientLobby, SaysSoWhenNoServerAnswers) {
  const std::string dir = dir_for("offline");
  testing::write_file(dir + "/script.txt",
                      "click-button Watch as guest\n"
                      "wait message Not connected to the server timeout=15000\nquit\n");
  // Port 9 (discard) on the loopback: nothing listens.
  ASSERT_EQ(testing::run_client(dir, {"--server", "ws://127.0.0.1:9/ws", "--script",
                                      dir + "/script.txt", "--exit-after", "40"}),
            0)
      << log_of(dir);
}

TEST(ClientLobby, SignsInOverWssTrustingTheServersCertificate) {
  const std::string tls = testing::source_dir() + "/tests/data/tls";
  auto flags = server_flags();
  flags.insert(flags.end(),
               {"--tls-cert", tls + "/test_cert.pem", "--tls-key", tls + "/test_key.pem"});
  testing::ServerProcess server(flags);
  ASSERT_TRUE(server.started()) << server.log();
  const std::string url = "wss://127.0.0.1:" + std::to_string(server.port()) + "/ws";
  const std::string dir = dir_for("wss");
  testing::write_file(dir + "/script.txt",
                      "wait connected\nclick-button name\ntype erin\n"
                      "click-button password\ntype erin-password\nclick-button Register\n"
                      "wait screen lobby\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", url, "--ca", tls + "/test_cert.pem", "--script",
                                      dir + "/script.txt", "--exit-after", "60"}),
            0)
      << log_of(dir);
  // Without trusting the certificate the client does not connect, and says why.
  const std::string dir2 = dir_for("wss-untrusted");
  testing::write_file(
      dir2 + "/script.txt",
      "click-button Watch as guest\nwait message Not connected timeout=15000\nquit\n");
  ASSERT_EQ(testing::run_client(
                dir2, {"--server", url, "--script", dir2 + "/script.txt", "--exit-after", "40"}),
            0)
      << log_of(dir2);
}

// ---- Matches: they need the server's match runtime -----------------------------------------

TEST(ClientLiveOptio, PlaysItsOrdersAndAnAdvanceByClicksAndTheBoardFollowsTheServer) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/cannae", v1::SIDE_A);
  bob.join(id);
  const auto bob_first = bob.subscribe();
  ASSERT_TRUE(bob_first) << kNeedsRuntime;

  // Where the client will click: a unit of side A with a plain advance once both cards are in.
  // The same engine on the same commands gives the server's legal list.
  v1::ScenarioFile scenario;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(
          testing::read_file(testing::source_dir() + "/scenarios/optio/cannae.json"), &scenario)
          .ok());
  auto local = wire::make_match({"local", scenario, "", match::Bytes32{}});
  ASSERT_TRUE(local.ok());
  (*local)->seat(rules::Side::kA, "a");
  (*local)->seat(rules::Side::kB, "b");
  for (rules::Side side : {rules::Side::kA, rules::Side::kB}) {
    auto c = simple_answer((*local)->legal(side));
    ASSERT_TRUE(c);
    ASSERT_TRUE((*local)->submit(side, *c, match::Bytes32{}).ok());
  }
  const auto legal = (*local)->legal(rules::Side::kA).optio();
  const auto st = (*local)->snapshot(rules::Viewer::kSideA).state().optio();
  int unit = 0, from_c = 0, from_r = 0, to_c = 0, to_r = 0;
  for (const auto& ul : legal.units()) {
    for (const auto& a : ul.advances()) {
      if (unit != 0 || a.charge_target() != 0) continue;
      unit = ul.unit();
      to_c = a.steps().rbegin()->col();
      to_r = a.steps().rbegin()->row();
    }
  }
  ASSERT_NE(unit, 0);
  for (const auto& u : st.units())
    if (u.id() == unit) from_c = u.at().col(), from_r = u.at().row();

  const std::string dir = dir_for("live-optio");
  const auto cell = [](int c, int r) { return std::to_string(c) + " " + std::to_string(r); };
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nwait legal timeout=30000\n"
                      "frames 3\nscreenshot orders.png\n"
                      "click-button Submit sealed orders\nclick-button Confirm\n"
                      "wait phase move timeout=30000\nwait my-move timeout=30000\nwait legal\n"
                      "click-cell " +
                          cell(from_c, from_r) +
                          "\nframes 3\nscreenshot selected.png\n"
                          "click-cell " +
                          cell(to_c, to_r) +
                          "\n"
                          "wait unit " +
                          std::to_string(unit) + " at " + cell(to_c, to_r) +
                          " timeout=30000\n"
                          "wait idle\nframes 3\nscreenshot moved.png\n"
                          "click-button End phase\nframes 2\nscreenshot confirm.png\n"
                          "click-button Confirm\nwait not-my-move timeout=30000\nframes 3\n"
                          "screenshot ended.png\nquit\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--name", "alice", "--password", password_of("alice"),
            "--open", id, "--script", dir + "/script.txt", "--exit-after", "110"});
  // Bob answers his orders phase meanwhile, then waits.
  play_simply(
      bob, bob_first,
      [](const v1::MatchUpdate& u) {
        const auto* view = testing::view_of(u);
        return view != nullptr && view->phase() == "move";
      },
      60s);
  ASSERT_EQ(client.wait(120s), 0) << log_of(dir);

  auto p = Picture::load(dir + "/selected.png");
  ASSERT_TRUE(p);
  auto dest = p->cell(to_c, to_r);
  ASSERT_TRUE(dest);
  EXPECT_EQ(p->at(dest->x, dest->y), rgb(theme::kHighlight)) << "the destination is highlighted";
  auto top = p->region("top-bar");
  ASSERT_TRUE(top);
  EXPECT_GT(p->count(rgb(theme::kYourMove), *top), top->w * top->h / 2) << "\"your move\" shows";
  // After the click the server's snapshot has the unit there, and the client draws it there.
  auto q = Picture::load(dir + "/moved.png");
  ASSERT_TRUE(q);
  const int h = static_cast<int>(q->cell_size() * 0.45);
  auto at = *q->cell(to_c, to_r);
  EXPECT_GT(q->count(rgb(theme::kSideA), SDL_Rect{at.x - h, at.y - h, 2 * h, 2 * h}), 200);
  auto was = *q->cell(from_c, from_r);
  EXPECT_EQ(q->count(rgb(theme::kSideA), SDL_Rect{was.x - h, was.y - h, 2 * h, 2 * h}), 0);
  // Ending the phase asked first; then the move passed to side B.
  auto c = Picture::load(dir + "/confirm.png");
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->region("confirm"));
  auto e = Picture::load(dir + "/ended.png");
  ASSERT_TRUE(e);
  auto top_after = e->region("top-bar");
  ASSERT_TRUE(top_after);
  EXPECT_LT(e->count(rgb(theme::kYourMove), *top_after), top_after->w * top_after->h / 4);
}

TEST(ClientLiveLobby, TheCreatorSeesTheBoardOnceAnOpponentJoins) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const std::string dir = dir_for("live-join");
  testing::write_file(
      dir + "/script.txt",
      "wait connected\nclick-button name\ntype alice\n"
      "click-button password\ntype alice-password\nclick-button Register\n"
      "wait screen lobby\nclick-button stand/training\nclick-button Create match\n"
      "wait screen match\n"
      "wait snapshot timeout=30000\nwait idle\nframes 3\nscreenshot started.png\nquit\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--script", dir + "/script.txt", "--exit-after", "90"});
  // Bob joins the match as soon as the lobby lists it.
  Seat bob = Seat::registered(server.ws_url(), "bob");
  std::string id;
  for (int i = 0; i < 300 && id.empty(); ++i) {
    const auto listed = bob.call(client::requests::list_matches(v1::MATCH_OPEN));
    if (listed.matches().matches_size() > 0) id = listed.matches().matches(0).match_id();
    if (id.empty()) std::this_thread::sleep_for(100ms);
  }
  ASSERT_FALSE(id.empty()) << "the client's match never appeared in the lobby";
  bob.join(id);
  ASSERT_EQ(client.wait(90s), 0) << log_of(dir);
  auto p = Picture::load(dir + "/started.png");
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->cell(0, 0)) << "the board is drawn";
}

TEST(ClientLiveStand, MovesFiguresByClicksAndTheBoardFollowsTheServer) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("stand/training", v1::SIDE_A);
  bob.join(id);
  auto first_a = alice.subscribe();
  auto first_b = bob.subscribe();
  ASSERT_TRUE(first_a && first_b) << kNeedsRuntime;
  // Both deploy from the test; the roll-off decides who then moves first.
  auto [mover, move_update] = deploy_both(alice, *first_a, bob, *first_b);
  ASSERT_NE(mover, nullptr);
  const std::optional<v1::MatchUpdate> mover_update = move_update;

  const auto& legal = mover_update->legal().stand();
  ASSERT_GT(legal.moves_size(), 0);
  const auto& group = legal.moves(0);
  const auto& dest = group.destinations(group.destinations_size() - 1);

  const std::string dir = dir_for("live-stand");
  const auto cell = [](const v1::Coord& c) {
    return std::to_string(c.col()) + " " + std::to_string(c.row());
  };
  const std::string side = mover->side == v1::SIDE_A ? "A" : "B";
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nwait my-move timeout=30000\nwait legal\n"
                      "click-cell " +
                          cell(group.from()) +
                          "\nframes 3\nscreenshot selected.png\n"
                          "click-cell " +
                          cell(dest.hex()) +
                          "\n"
                          "wait hex " +
                          cell(dest.hex()) + " side " + side +
                          " timeout=30000\n"
                          "wait idle\nframes 3\nscreenshot moved.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--name", mover->name,
                                      "--password", password_of(mover->name), "--open", id,
                                      "--script", dir + "/script.txt", "--exit-after", "100"}),
            0)
      << log_of(dir);
  auto p = Picture::load(dir + "/selected.png");
  ASSERT_TRUE(p);
  auto d = p->cell(dest.hex().col(), dest.hex().row());
  ASSERT_TRUE(d);
  EXPECT_EQ(p->at(d->x, d->y), rgb(theme::kHighlight));
  auto q = Picture::load(dir + "/moved.png");
  ASSERT_TRUE(q);
  // The counter is there, dimmed now that its figures have moved.
  const SDL_Color side_color = mover->side == v1::SIDE_A ? theme::kSideA : theme::kSideB;
  const auto dim = [](std::uint8_t v) { return static_cast<std::uint8_t>(v * 0.72f); };
  const int h = static_cast<int>(q->cell_size() * 0.5);
  auto at = *q->cell(dest.hex().col(), dest.hex().row());
  const SDL_Rect around{at.x - h, at.y - h, 2 * h, 2 * h};
  EXPECT_GT(
      q->count(rgb(side_color), around) +
          q->count(rgb(SDL_Color{dim(side_color.r), dim(side_color.g), dim(side_color.b), 255}),
                   around),
      100);
}

TEST(ClientLiveSpectator, WatchesAsAGuestWithTheDelayShownAndNothingToClick) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("stand/training", v1::SIDE_A, 1);
  bob.join(id);
  auto first_a = alice.subscribe();
  auto first_b = bob.subscribe();
  ASSERT_TRUE(first_a && first_b) << kNeedsRuntime;
  // Both deploy, so that there is something to see.
  ASSERT_NE(deploy_both(alice, *first_a, bob, *first_b).first, nullptr);
  // What a spectator is shown, from the test's own guest connection.
  Seat guest = Seat::guest(server.ws_url());
  guest.match_id = id;
  auto seen = guest.subscribe();
  ASSERT_TRUE(seen && seen->has_snapshot());
  const std::string dir = dir_for("live-spectator");
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nframes 5\nscreenshot spectator.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--guest", "--open", id,
                                      "--script", dir + "/script.txt", "--exit-after", "60"}),
            0)
      << log_of(dir);
  auto p = Picture::load(dir + "/spectator.png");
  ASSERT_TRUE(p);
  auto banner = p->region("spectator-banner");
  ASSERT_TRUE(banner);
  EXPECT_GT(p->count(rgb(theme::kSpectator), *banner), banner->w * banner->h / 2);
  auto board = p->region("board");
  ASSERT_TRUE(board);
  EXPECT_EQ(p->count(rgb(theme::kHighlight), *board), 0);
  for (const auto& t : seen->snapshot().state().stand().tiles()) {
    if (!t.has_troops()) continue;
    const auto& f = t.troops().figures();
    if (f.infantry() + f.archers() + f.cavalry() + f.chariots() == 0) continue;
    const auto color = rgb(t.troops().side() == v1::SIDE_A ? theme::kSideA : theme::kSideB);
    const int h = static_cast<int>(p->cell_size() * 0.5);
    auto c = *p->cell(t.hex().col(), t.hex().row());
    EXPECT_GT(p->count(color, SDL_Rect{c.x - h, c.y - h, 2 * h, 2 * h}), 100);
  }
}

// ---- Replay: the server's picture at each step (GetSnapshot) --------------------------------

TEST(ClientLiveReplay, ShowsTheBoardAsItWasAtEachStepAndJumpsToATurn) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("stand/training", v1::SIDE_A);
  bob.join(id);
  auto first_a = alice.subscribe();
  auto first_b = bob.subscribe();
  ASSERT_TRUE(first_a && first_b) << kNeedsRuntime;
  auto [mover, move_update] = deploy_both(alice, *first_a, bob, *first_b);
  ASSERT_NE(mover, nullptr);

  // Game turn 1: the side that moves first takes one group of one kind of figure to an empty
  // hex (the board now, as the mover sees it, says which are empty); then both end their
  // phases until turn 2 begins, and the other side resigns.
  const auto& at = *testing::view_of(move_update);
  const auto now = mover->call(client::requests::get_snapshot(id, at.entry_count()));
  ASSERT_TRUE(now.has_snapshot()) << now.DebugString();
  v1::Coord from, to;
  v1::GameCommand move;
  for (const auto& g : move_update.legal().stand().moves()) {
    if (g.types_size() != 1 || move.has_stand()) continue;
    for (const auto& d : g.destinations()) {
      if (holder(now.snapshot(), d.hex()) || move.has_stand()) continue;
      from = g.from();
      to = d.hex();
      auto* mv = move.mutable_stand()->mutable_move();
      *mv->mutable_from() = g.from();
      *mv->mutable_path() = d.path();
      *mv->mutable_figures() = d.most();
    }
  }
  ASSERT_TRUE(move.has_stand()) << "no group may move to an empty hex";
  mover->submit(move);
  play_until_turn(alice, bob, 2);
  Seat& loser = mover == &alice ? bob : alice;
  ASSERT_TRUE(resigned(loser, id));

  // Where things are in the record: the move's entry, and the entries after which each turn
  // has begun (the first event that starts a phase of it).
  const auto record = ended_record(alice, id);
  ASSERT_TRUE(record.has_record()) << record.DebugString();
  const auto& entries = record.record().entries();
  const auto n = static_cast<std::uint32_t>(entries.size());
  std::uint32_t moved = 0, turn1 = 0, turn2 = 0, last = 0;
  std::uint64_t events = 0;
  // The replay's steps where each turn begins: just after the event that begins it.
  std::uint64_t turn1_step = 0, turn2_step = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (entries[i].events_size() > 0) last = i + 1;
    if (entries[i].command().stand().has_move()) moved = i;
    for (int k = 0; k < entries[i].events_size(); ++k) {
      const auto& e = entries[i].events(k);
      if (!e.stand().has_phase_began()) continue;
      const std::uint64_t step = entries[i].first_event() + k + 1;
      if (e.stand().phase_began().game_turn() == 1 && turn1 == 0) {
        turn1 = i + 1;
        turn1_step = step;
      }
      if (e.stand().phase_began().game_turn() == 2 && turn2 == 0) {
        turn2 = i + 1;
        turn2_step = step;
      }
    }
    events = std::max(events, entries[i].first_event() + entries[i].events_size());
  }
  ASSERT_GT(moved, 0u);
  ASSERT_EQ(turn1, moved) << "turn 1 begins just before the move";
  ASSERT_GT(turn2, moved + 1);
  // The server's pictures agree with the story: the hex is empty before the move and held
  // after it, to the end.
  Seat guest = Seat::guest(server.ws_url());
  const auto picture = [&](std::uint32_t k) {
    const auto r = guest.call(client::requests::get_snapshot(id, k));
    EXPECT_TRUE(r.has_snapshot()) << r.DebugString();
    return r.snapshot();
  };
  ASSERT_EQ(holder(picture(moved), from), mover->side);
  ASSERT_FALSE(holder(picture(moved), to));
  ASSERT_EQ(holder(picture(moved + 1), to), mover->side);
  ASSERT_EQ(holder(picture(turn2), to), mover->side);
  ASSERT_EQ(holder(picture(last), to), mover->side);

  // A guest replays it from the lobby's finished list: the end (a step of its own after the
  // last event: the resignation), the last event (its picture on its way while the end's
  // stays), the end again, back to just before the move event by event, one step on, then turn 2 by
  // its number and turn 1 by PageUp; then from the end screen again, the start and turn 1 by
  // PageDown, its pictures from the cache.
  const std::uint64_t before_move = entries[moved].first_event();
  std::string script =
      "wait screen lobby timeout=30000\nclick-button Finished\nwait button Replay " + id +
      "\nclick-button Replay " + id +
      "\nwait screen match\nwait record timeout=30000\nwait events " + std::to_string(events) +
      " timeout=30000\nwait replay-step 0 timeout=30000\nkey End\nwait replay-step end "
      "timeout=30000\nframes 2\nscreenshot end.png\nkey Left\nscreenshot loading.png\n"
      "wait replay-step " +
      std::to_string(events) + " timeout=30000\nkey End\nwait replay-step end\n";
  for (std::uint64_t i = before_move; i < events + 1; ++i)
    script += "key Left\n";
  script += "wait replay-step " + std::to_string(before_move) +
            " timeout=30000\nframes 2\nscreenshot before.png\n"
            "key Right\nwait replay-step " +
            std::to_string(before_move + 1) +
            " timeout=30000\nframes 2\nscreenshot after.png\n"
            "key t\nframes 1\ntype 2\nkey Return\nwait replay-step " +
            std::to_string(turn2_step) +
            " timeout=30000\nexpect turn 2\nframes 2\nscreenshot turn2.png\n"
            "key PageUp\nwait replay-step " +
            std::to_string(turn1_step) +
            " timeout=30000\nframes 2\nscreenshot turn1.png\n"
            "click-button Leave replay\nclick-button Result\nwait end-screen\n"
            "click-button Replay from the result\nwait replay-step 0 timeout=30000\n"
            "key PageDown\nwait replay-step " +
            std::to_string(turn1_step) + " timeout=30000\nframes 2\nscreenshot again.png\nquit\n";
  const std::string dir = dir_for("live-replay");
  testing::write_file(dir + "/script.txt", script);
  setenv("CASTRA_CLIENT_TRACE", "1", 1);
  const int exit_code =
      testing::run_client(dir, {"--server", server.ws_url(), "--guest", "--script",
                                dir + "/script.txt", "--exit-after", "110"});
  unsetenv("CASTRA_CLIENT_TRACE");
  ASSERT_EQ(exit_code, 0) << log_of(dir);

  const auto load = [&](const std::string& name) {
    auto p = Picture::load(dir + "/" + name);
    EXPECT_TRUE(p) << name;
    return p;
  };
  auto loading = load("loading.png");
  auto end = load("end.png");
  auto before = load("before.png");
  auto after = load("after.png");
  auto turn2_png = load("turn2.png");
  auto turn1_png = load("turn1.png");
  auto again = load("again.png");
  ASSERT_TRUE(loading && end && before && after && turn2_png && turn1_png && again);
  // While the last event's picture is on its way the board stays the end's (the moved figures
  // on the hex) and the note under it says so, in gold; once it is there, the note does not.
  EXPECT_GT(counter_pixels(*loading, to, 0.45), 100);
  const auto note = loading->region("replay-note");
  ASSERT_TRUE(note);
  EXPECT_GT(loading->count(rgb(theme::kGold), *note), 20) << "no loading hint";
  const auto loaded_note = end->region("replay-note");
  ASSERT_TRUE(loaded_note);
  EXPECT_EQ(end->count(rgb(theme::kGold), *loaded_note), 0);
  // At the end the moved figures hold the hex; one step before the move they stand where
  // they came from and the hex is empty; one step on they are there.
  EXPECT_GT(counter_pixels(*end, to, 0.45), 100);
  EXPECT_GT(counter_pixels(*before, from, 0.45), 100);
  EXPECT_EQ(counter_pixels(*before, to, 0.3), 0) << "the board shows the end, not that step";
  EXPECT_GT(counter_pixels(*after, to, 0.45), 100);
  // Turn 2 begins after the move; turn 1 before it.
  EXPECT_GT(counter_pixels(*turn2_png, to, 0.45), 100);
  EXPECT_EQ(counter_pixels(*turn1_png, to, 0.3), 0);
  EXPECT_GT(counter_pixels(*turn1_png, from, 0.45), 100);
  EXPECT_EQ(counter_pixels(*again, to, 0.3), 0);
  // Read only: nothing highlighted, nothing to submit.
  auto board = before->region("board");
  ASSERT_TRUE(board);
  EXPECT_EQ(before->count(rgb(theme::kHighlight), *board), 0);
  EXPECT_FALSE(before->widget("End phase"));
  EXPECT_FALSE(before->widget("Resign"));
  // Each picture was asked for once: stepping back and forth, and the second replay, used
  // the cache.
  std::map<std::string, int> asked;
  std::istringstream log(log_of(dir));
  for (std::string line; std::getline(log, line);)
    if (line.rfind("get_snapshot: ", 0) == 0) ++asked[line];
  EXPECT_FALSE(asked.empty());
  for (const auto& [line, times] : asked)
    EXPECT_EQ(times, 1) << line;
}

// The server's legal list for a seat now, or nothing when it has none to give.
std::optional<v1::GameLegal> legal_of(Seat& seat) {
  v1::ClientEnvelope e;
  e.mutable_get_legal()->set_match_id(seat.match_id);
  const auto r = seat.call(e);
  if (!r.has_legal()) return std::nullopt;
  return r.legal().legal();
}

// An Optio side's next command through turn 1's move phase, from its legal list: every unit
// deployed on its first listed square, every leader placed on his first listed unit, the end
// of deployment, then an orders card whose paths go from each subcommander's square three
// squares straight ahead (towards the far side), over squares nobody stands on yet. Units
// face the far side (facing 0 is north, toward row 1; 2 south) on a board of `rows` rows.
std::optional<v1::GameCommand> optio_setup(const v1::GameLegal& legal, int rows,
                                           std::set<int>& deployed, std::set<int>& placed) {
  if (!legal.has_optio()) return std::nullopt;
  const auto& l = legal.optio();
  v1::GameCommand c;
  auto* oc = c.mutable_optio();
  for (const auto& u : l.units()) {
    if (u.placements_size() == 0 || !deployed.insert(u.unit()).second) continue;
    auto* d = oc->mutable_deploy();
    d->set_unit(u.unit());
    *d->mutable_at() = u.placements(0);
    const int ahead = u.placements(0).row() <= rows / 2 ? 2 : 0;
    d->set_facing(u.facings_size() > 0 ? u.facings(0) : 0);
    for (int f : u.facings())
      if (f == ahead) d->set_facing(f);
    if (u.formations_size() > 0) d->set_formation(u.formations(0));
    return c;
  }
  for (const auto& ld : l.leaders()) {
    if (ld.place_on_size() == 0 || !placed.insert(ld.leader()).second) continue;
    oc->mutable_place_leader()->set_leader(ld.leader());
    oc->mutable_place_leader()->set_unit(ld.place_on(0));
    return c;
  }
  if (l.end_deployment()) {
    oc->mutable_end_deployment();
    return c;
  }
  if (l.orders().submit()) {
    const auto& o = l.orders();
    for (const auto& start : o.starts()) {
      auto* path = oc->mutable_submit_orders()->add_paths();
      *path = start;
      v1::Coord next = start.squares(0);
      const int ahead = next.row() <= o.rows() / 2 ? 1 : -1;
      for (int k = 0; k < 3 && path->squares_size() < o.max_squares(); ++k) {
        if (next.row() + ahead < 1 || next.row() + ahead > o.rows()) break;
        next.set_row(next.row() + ahead);
        *path->add_squares() = next;
      }
    }
    return c;
  }
  return std::nullopt;
}

// Pixels of orders path colour `k` (the k-th path drawn) on the board.
int path_pixels(const Picture& p, int k) {
  const auto board = p.region("board");
  EXPECT_TRUE(board);
  if (!board) return 0;
  return p.count(rgb(theme::kPathColors[k % std::size(theme::kPathColors)]), *board);
}

TEST(ClientLiveReplay, ShowsAnOptioBoardAsItWasIncludingEachSidesOrdersCard) {
  auto flags = server_flags();
  flags.insert(flags.end(), {"--scenarios", testing::source_dir() + "/tests/data/scenarios"});
  testing::ServerProcess server(flags);
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/test", v1::SIDE_A);
  bob.join(id);
  v1::ScenarioFile scenario;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(
          testing::read_file(testing::source_dir() + "/tests/data/scenarios/optio/test.json"),
          &scenario)
          .ok());
  ASSERT_GT(scenario.optio().rows(), 0);

  // Turn 1: both deploy and submit their orders cards from the test; then the side to move
  // takes one unit to another square, and the other side resigns.
  std::set<int> deployed[2], placed[2];
  Seat* seats[2] = {&alice, &bob};
  Seat* mover = nullptr;
  v1::GameCommand move;
  std::string seen[2];
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (!mover && std::chrono::steady_clock::now() < until) {
    bool acted = false;
    for (int i = 0; i < 2 && !mover; ++i) {
      const auto legal = legal_of(*seats[i]);
      if (legal) seen[i] = legal->ShortDebugString();
      if (!legal || !legal->has_optio()) continue;
      const auto& l = legal->optio();
      if (l.phase() == "move") {
        for (const auto& ul : l.units()) {
          for (const auto& a : ul.advances()) {
            if (mover || a.charge_target() != 0 || a.steps().empty()) continue;
            auto* adv = move.mutable_optio()->mutable_advance();
            adv->set_unit(ul.unit());
            *adv->mutable_steps() = a.steps();
            mover = seats[i];
          }
        }
        if (mover) break;
      }
      if (auto c = optio_setup(*legal, scenario.optio().rows(), deployed[i], placed[i])) {
        seats[i]->submit(*c);
        acted = true;
      }
    }
    if (!acted && !mover) std::this_thread::sleep_for(50ms);
  }
  ASSERT_NE(mover, nullptr) << "no side reached turn 1's move phase with an advance to make; "
                               "the last legal lists: "
                            << seen[0] << "\n"
                            << seen[1];
  const int unit = move.optio().advance().unit();
  mover->submit(move);
  Seat& loser = mover == &alice ? bob : alice;
  ASSERT_TRUE(resigned(loser, id));

  // Where things are in the record: the first entry that reveals an orders card, the advance,
  // how many orders paths were revealed, and the events.
  const auto record = ended_record(alice, id);
  ASSERT_TRUE(record.has_record()) << record.DebugString();
  const auto& entries = record.record().entries();
  const auto n = static_cast<std::uint32_t>(entries.size());
  std::optional<std::uint32_t> carded, moved;
  std::uint32_t last = 0;
  int paths = 0;
  std::set<v1::Side> carded_sides;
  std::uint64_t events = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (entries[i].events_size() > 0) last = i + 1;
    if (entries[i].command().optio().has_advance()) moved = i;
    for (const auto& e : entries[i].events()) {
      if (!e.optio().has_orders_card()) continue;
      if (!carded) carded = i;
      paths += e.optio().orders_card().paths_size();
      carded_sides.insert(e.optio().orders_card().side());
    }
    events = std::max(events, entries[i].first_event() + entries[i].events_size());
  }
  ASSERT_TRUE(carded && moved);
  ASSERT_LT(*carded, *moved);
  ASSERT_EQ(carded_sides.size(), 2u) << "both sides' cards are revealed before the move";
  ASSERT_GE(paths, 2);
  ASSERT_LE(paths, static_cast<int>(std::size(theme::kPathColors)));
  ASSERT_EQ(last, *moved + 1) << "the advance is the last entry with events";
  // The server's pictures: the unit on its square before the advance, on another after it.
  Seat guest = Seat::guest(server.ws_url());
  const auto unit_at = [&](std::uint32_t k) {
    const auto r = guest.call(client::requests::get_snapshot(id, k));
    EXPECT_TRUE(r.has_snapshot()) << r.DebugString();
    for (const auto& u : r.snapshot().state().optio().units())
      if (u.id() == unit) return u.at();
    ADD_FAILURE() << "unit " << unit << " is not in picture " << k;
    return v1::Coord{};
  };
  const v1::Coord from = unit_at(*moved);
  const v1::Coord to = unit_at(*moved + 1);
  ASSERT_FALSE(from.col() == to.col() && from.row() == to.row())
      << "the advance left unit " << unit << " on " << from.ShortDebugString();

  // A guest replays it from the lobby's finished list: the end, back to just before the
  // advance event by event, one step on; then the start and on to just before the first card.
  const std::uint64_t before_move = entries[*moved].first_event();
  const std::uint64_t before_cards = entries[*carded].first_event();
  std::string script =
      "wait screen lobby timeout=30000\nclick-button Finished\nwait button Replay " + id +
      "\nclick-button Replay " + id +
      "\nwait screen match\nwait record timeout=30000\nwait events " + std::to_string(events) +
      " timeout=30000\nwait replay-step 0 timeout=30000\nkey End\nwait replay-step end"
      " timeout=30000\nframes 2\nscreenshot end.png\n";
  for (std::uint64_t i = before_move; i < events + 1; ++i)
    script += "key Left\n";
  script += "wait replay-step " + std::to_string(before_move) +
            " timeout=30000\nframes 2\nscreenshot before.png\n"
            "key Right\nwait replay-step " +
            std::to_string(before_move + 1) +
            " timeout=30000\nframes 2\nscreenshot after.png\n"
            "key Home\nwait replay-step 0 timeout=30000\n";
  for (std::uint64_t i = 0; i < before_cards; ++i)
    script += "key Right\n";
  script += "wait replay-step " + std::to_string(before_cards) +
            " timeout=30000\nframes 2\nscreenshot uncarded.png\nquit\n";
  const std::string dir = dir_for("live-replay-optio");
  testing::write_file(dir + "/script.txt", script);
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--guest", "--script",
                                      dir + "/script.txt", "--exit-after", "110"}),
            0)
      << log_of(dir);

  const auto load = [&](const std::string& name) {
    auto p = Picture::load(dir + "/" + name);
    EXPECT_TRUE(p) << name;
    return p;
  };
  auto end = load("end.png");
  auto before = load("before.png");
  auto after = load("after.png");
  auto uncarded = load("uncarded.png");
  ASSERT_TRUE(end && before && after && uncarded);
  // One step before the advance the unit stands where it came from and the square it went to
  // is empty; one step on, and at the end, the reverse.
  const SDL_Color own = mover->side == v1::SIDE_A ? theme::kSideA : theme::kSideB;
  const auto own_pixels = [&](const Picture& p, const v1::Coord& sq, double reach) {
    const auto c = p.cell(sq.col(), sq.row());
    EXPECT_TRUE(c) << "square " << sq.ShortDebugString() << " is not drawn";
    if (!c) return 0;
    const int h = static_cast<int>(p.cell_size() * reach);
    return p.count(rgb(own), SDL_Rect{c->x - h, c->y - h, 2 * h, 2 * h});
  };
  EXPECT_GT(own_pixels(*before, from, 0.45), 100);
  EXPECT_EQ(counter_pixels(*before, to, 0.3), 0) << "the board shows the end, not that step";
  EXPECT_GT(own_pixels(*after, to, 0.45), 100);
  EXPECT_EQ(counter_pixels(*after, from, 0.3), 0);
  EXPECT_GT(own_pixels(*end, to, 0.45), 100);
  EXPECT_EQ(counter_pixels(*end, from, 0.3), 0);
  // Both sides' cards are drawn from the step they were revealed on, each path in its own
  // colour; before the first was revealed none is.
  for (int k = 0; k < paths; ++k) {
    EXPECT_GT(path_pixels(*before, k), 50) << "path " << k << " before the advance";
    EXPECT_GT(path_pixels(*end, k), 50) << "path " << k << " at the end";
    EXPECT_EQ(path_pixels(*uncarded, k), 0) << "path " << k << " before the cards";
  }
  // Read only: nothing highlighted, nothing to submit.
  auto board = before->region("board");
  ASSERT_TRUE(board);
  EXPECT_EQ(before->count(rgb(theme::kHighlight), *board), 0);
  EXPECT_FALSE(before->widget("Submit sealed orders"));
  EXPECT_FALSE(before->widget("End phase"));
}

}  // namespace
}  // namespace castra
