// The client's defects of issue 20, one test each, under Xvfb: offline positions played with
// the engines (--snapshot) and matches against the real castra-server, driven by --script
// through the client's own input path. The tests read the screenshots' pixels, the layout
// written beside them (widgets, regions, and the texts drawn) and the commands the client made.
#include <gtest/gtest.h>

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
using testing::OfflineRun;
using testing::Picture;
using testing::rgb;
using testing::run_offline;
using testing::live::password_of;
using testing::live::Seat;
namespace theme = client::theme;
namespace o = v1::optio;
namespace s = v1::stand;

std::string log_of(const std::string& dir) {
  return testing::read_file(dir + "/client.log");
}

// ---- offline ---------------------------------------------------------------------------------

bool overlap(const SDL_Rect& a, const SDL_Rect& b) {
  return SDL_HasIntersection(&a, &b) == SDL_TRUE;
}

// Pixels of `color` in the 5 x 5 box round (x, y).
int near(const Picture& p, std::uint32_t color, float x, float y) {
  return p.count(color, SDL_Rect{static_cast<int>(x) - 2, static_cast<int>(y) - 2, 5, 5});
}

bool any_text(const Picture& p, const std::string& part) {
  return p.text(part).has_value();
}

// ---- against the server --------------------------------------------------------------------

std::vector<std::string> server_flags() {
  return {"--argon2-opslimit", "1", "--argon2-memlimit", "8192"};
}

std::vector<std::string> as(const testing::ServerProcess& server, const std::string& name,
                            const std::string& id, const std::string& script) {
  return {"--server",     server.ws_url(),
          "--name",       name,
          "--password",   password_of(name),
          "--open",       id,
          "--script",     script,
          "--exit-after", "110"};
}

// ---- 1 ---------------------------------------------------------------------------------------

// At 800 x 560 the action row used to run under the Lobby button: a click on Lobby opened
// "Resign this match?", and Return in that dialog resigned.
TEST(ClientDefect, LobbyButtonAt800x560DoesNotOpenResign) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/cannae", v1::SIDE_A);
  bob.join(id);
  const std::string dir = testing::make_temp_dir("castra-defect-lobby-800");
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nwait legal timeout=30000\nframes 3\n"
                      "screenshot row.png\n"
                      "click-button Resign\nframes 2\nkey Return\nframes 3\n"
                      "screenshot resign.png\n"
                      "click-button Cancel\nframes 2\n"
                      "click-button Back to lobby\nwait screen lobby\nquit\n");
  auto args = as(server, "alice", id, dir + "/script.txt");
  args.insert(args.end(), {"--width", "800", "--height", "560"});
  ASSERT_EQ(testing::run_client(dir, args), 0) << log_of(dir);
  auto p = Picture::load(dir + "/row.png");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->width(), 800);
  // No two buttons of the row share a pixel.
  std::vector<std::pair<std::string, SDL_Rect>> row;
  for (const char* name : {"Submit sealed orders", "Offer draw", "Resign", "Back to lobby",
                           "Zoom in", "Zoom out", "Fit"}) {
    if (auto w = p->widget(name)) row.push_back({name, *w});
  }
  ASSERT_GE(row.size(), 4u) << "the orders, draw, resign and lobby buttons are drawn";
  for (std::size_t i = 0; i < row.size(); ++i)
    for (std::size_t j = i + 1; j < row.size(); ++j)
      EXPECT_FALSE(overlap(row[i].second, row[j].second)) << row[i].first << " / " << row[j].first;
  // Return left the resignation dialog open and the match going.
  auto q = Picture::load(dir + "/resign.png");
  ASSERT_TRUE(q);
  EXPECT_TRUE(q->region("confirm"));
  const auto live = bob.call(client::requests::list_matches(v1::MATCH_LIVE));
  EXPECT_EQ(live.matches().matches_size(), 1) << live.DebugString();
}

// ---- 2 ---------------------------------------------------------------------------------------

// Deployment buttons used to close up when a type ran out, moving under the cursor.
TEST(ClientDefect, DeploymentButtonsStayPutWhenATroopTypeRunsOut) {
  // B deploys first; its first command places all 8 infantry.
  auto before = testing::stand_training(0);
  auto after = testing::stand_training(1);
  ASSERT_TRUE(before && after);
  ASSERT_EQ(after->snapshot(rules::Viewer::kSideB).state().stand().side_b().to_deploy().infantry(),
            0);
  const std::string shot = "wait legal\nframes 2\nscreenshot deploy.png\n";
  const OfflineRun r0 =
      run_offline("deploy-all", testing::offline_view(*before, rules::Side::kB), shot + "quit\n");
  const OfflineRun r1 =
      run_offline("deploy-no-infantry", testing::offline_view(*after, rules::Side::kB),
                  shot + "expect disabled Infantry\nquit\n");
  ASSERT_EQ(r0.exit_code, 0) << log_of(r0.dir);
  ASSERT_EQ(r1.exit_code, 0) << log_of(r1.dir) << " (the Infantry button must stay, disabled)";
  auto p0 = Picture::load(r0.dir + "/deploy.png");
  auto p1 = Picture::load(r1.dir + "/deploy.png");
  ASSERT_TRUE(p0 && p1);
  for (int t : {s::TROOP_INFANTRY, s::TROOP_ARCHERS, s::TROOP_CAVALRY, s::TROOP_CHARIOTS}) {
    const auto a = p0->widget(testing::troop_label(t));
    const auto b = p1->widget(testing::troop_label(t));
    ASSERT_TRUE(a && b) << testing::troop_label(t);
    EXPECT_TRUE(a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h)
        << testing::troop_label(t) << " moved";
  }
}

// ---- 3 ---------------------------------------------------------------------------------------

// The ring that marks how far a subcommander has got along his orders used to be drawn under
// the counters, where it mostly stands.
TEST(ClientDefect, OrdersProgressRingIsDrawnAboveTheCounters) {
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const o::State st = m->snapshot(rules::Viewer::kSideA).state().optio();
  // A's own paths, coloured in the order the client draws them; the one whose progress
  // square has a unit on it.
  int k = 0;
  std::optional<std::pair<v1::Coord, SDL_Color>> ring;
  for (const auto& l : st.leaders()) {
    if (l.path_size() == 0) continue;
    const SDL_Color color = theme::kPathColors[k++ % std::size(theme::kPathColors)];
    if (l.abandoned() || l.progress() < 0 || l.progress() >= l.path_size()) continue;
    const auto& at = l.path(l.progress());
    for (const auto& u : st.units())
      if (u.placed() && !u.routed() && u.at().col() == at.col() && u.at().row() == at.row() &&
          !ring)
        ring = {{at, color}};
  }
  ASSERT_TRUE(ring) << "a subcommander's progress square under a unit";
  const OfflineRun r = run_offline("progress", testing::offline_view(*m, rules::Side::kA),
                                   "wait snapshot\nframes 3\nscreenshot board.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r.dir);
  auto p = Picture::load(r.dir + "/board.png");
  ASSERT_TRUE(p);
  const auto c = p->cell(ring->first.col(), ring->first.row());
  ASSERT_TRUE(c);
  const float radius = static_cast<float>(p->cell_size() * 0.3);
  const auto color = rgb(ring->second);
  // All round the ring, across the counter too.
  EXPECT_GT(near(*p, color, c->x + radius, c->y), 0) << "east";
  EXPECT_GT(near(*p, color, c->x - radius, c->y), 0) << "west";
  EXPECT_GT(near(*p, color, c->x, c->y + radius), 0) << "south";
  EXPECT_GT(near(*p, color, c->x, c->y - radius), 0) << "north";
}

// ---- 4 ---------------------------------------------------------------------------------------

// The STAND! training armies are named Blue (side A) and Red (side B): they used to be drawn
// red and blue.
TEST(ClientDefect, StandTrainingDrawsBlueInBlueAndRedInRed) {
  auto m = testing::stand_training(10);  // both deployed
  ASSERT_TRUE(m);
  const s::State st = m->snapshot(rules::Viewer::kSideA).state().stand();
  ASSERT_EQ(st.side_a().army(), "Blue");
  ASSERT_EQ(st.side_b().army(), "Red");
  const OfflineRun r = run_offline("blue-red", testing::offline_view(*m, rules::Side::kA),
                                   "wait snapshot\nframes 3\nscreenshot board.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r.dir);
  auto p = Picture::load(r.dir + "/board.png");
  ASSERT_TRUE(p);
  const auto blue = [](std::uint32_t px) {
    const int r = px >> 16 & 0xFF, g = px >> 8 & 0xFF, b = px & 0xFF;
    return b > r + 60 && b > g + 20;
  };
  const auto red = [](std::uint32_t px) {
    const int r = px >> 16 & 0xFF, g = px >> 8 & 0xFF, b = px & 0xFF;
    return r > b + 60 && r > g + 60;
  };
  const auto counted = [&](const SDL_Rect& a, auto is) {
    int n = 0;
    for (int y = a.y; y < a.y + a.h; ++y)
      for (int x = a.x; x < a.x + a.w; ++x)
        n += is(p->at(x, y)) ? 1 : 0;
    return n;
  };
  const int h = static_cast<int>(p->cell_size() * 0.4);
  for (const auto& t : st.tiles()) {
    if (!t.has_troops() || t.terrain() == s::TERRAIN_WATER) continue;
    const auto c = p->cell(t.hex().col(), t.hex().row());
    ASSERT_TRUE(c);
    const SDL_Rect around{c->x - h, c->y - h, 2 * h, 2 * h};
    const bool a = t.troops().side() == v1::SIDE_A;
    EXPECT_GT(counted(around, a ? blue : red), 100)
        << (a ? "Blue" : "Red") << "'s counter at " << testing::cell(t.hex());
    EXPECT_LT(counted(around, a ? red : blue), 20) << testing::cell(t.hex());
  }
  // The panel's swatch beside each army's name is its colour.
  for (const char* army : {"Blue", "Red"}) {
    const auto line = p->text(army);
    ASSERT_TRUE(line) << army;
    const SDL_Rect swatch{line->x - 24, line->y + 3, 14, 14};
    EXPECT_GT(counted(swatch, std::string(army) == "Blue" ? blue : red), 100) << army;
  }
}

// ---- 6 ---------------------------------------------------------------------------------------

// "side A offers a draw." used to stay after the match had ended, with Accept and Decline.
TEST(ClientDefect, ADrawOfferLeavesTheStatusBarWhenTheMatchEnds) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/cannae", v1::SIDE_A);
  bob.join(id);
  const std::string dir = testing::make_temp_dir("castra-defect-draw-end");
  const std::string script = dir + "/script.txt";
  testing::write_file(script, "wait snapshot timeout=30000\nprint opened\nfollow\n");
  testing::ClientProcess client(dir, as(server, "alice", id, script));
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "opened", 60s)) << log_of(dir);
  testing::ScriptWriter steps(script);
  v1::ClientEnvelope offer;
  offer.mutable_offer_draw()->set_match_id(id);
  ASSERT_TRUE(bob.call(offer).has_done());
  ASSERT_TRUE(steps.run("wait message offers a draw\nframes 2\nscreenshot offered.png\n", 30s, dir))
      << log_of(dir);
  // Bob resigns instead of waiting for the answer.
  v1::ClientEnvelope resign;
  resign.mutable_resign()->set_match_id(id);
  ASSERT_TRUE(bob.call(resign).has_done());
  steps.append(
      "wait ended timeout=30000\nwait idle\nframes 10\nscreenshot ended.png\n"
      "quit\n");
  ASSERT_EQ(client.wait(60s), 0) << log_of(dir);
  auto p = Picture::load(dir + "/offered.png");
  ASSERT_TRUE(p);
  EXPECT_TRUE(any_text(*p, "side B offers a draw."));
  auto q = Picture::load(dir + "/ended.png");
  ASSERT_TRUE(q);
  EXPECT_FALSE(any_text(*q, "offers a draw"));
  EXPECT_FALSE(q->widget("Accept draw"));
}

// "You may claim the win in 0:59" used to stay, frozen, after the claim.
TEST(ClientDefect, TheClaimCountdownEndsWithTheClaim) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/cannae", v1::SIDE_A, 0, 10);  // the shortest grace
  bob.join(id);
  ASSERT_TRUE(bob.subscribe());
  bob.c.reset();  // gone while both sides must give their orders
  const std::string dir = testing::make_temp_dir("castra-defect-claim");
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nwait message claim the win\nframes 2\n"
                      "screenshot away.png\n"
                      "wait button Claim win timeout=30000\nclick-button Claim win\n"
                      "click-button Confirm\n"
                      "wait ended timeout=30000\nwait idle\nframes 10\nscreenshot claimed.png\n"
                      "quit\n");
  ASSERT_EQ(testing::run_client(dir, as(server, "alice", id, dir + "/script.txt")), 0)
      << log_of(dir);
  auto p = Picture::load(dir + "/away.png");
  ASSERT_TRUE(p);
  EXPECT_TRUE(any_text(*p, "side B is away. You may claim the win in 0:0"));
  auto q = Picture::load(dir + "/claimed.png");
  ASSERT_TRUE(q);
  EXPECT_FALSE(any_text(*q, "claim the win"));
}

// ---- 9 ---------------------------------------------------------------------------------------

// The selection outline used to stay on a hex all its figures had left.
TEST(ClientDefect, TheSelectionOutlineLeavesAnEmptiedHex) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("stand/training", v1::SIDE_A);
  bob.join(id);
  auto ua = alice.subscribe();
  auto ub = bob.subscribe();
  ASSERT_TRUE(ua && ub);
  // Both deploy a type at a time as many as a hex takes, then end; the roll-off picks who
  // moves first.
  std::vector<std::pair<Seat*, v1::MatchUpdate>> pending = {{&alice, *ua}, {&bob, *ub}};
  Seat* mover = nullptr;
  v1::MatchUpdate move;
  const auto until = std::chrono::steady_clock::now() + 60s;
  std::uint64_t answered[2] = {0, 0};
  while (mover == nullptr && std::chrono::steady_clock::now() < until) {
    if (pending.empty()) {
      for (Seat* seat : {&alice, &bob})
        if (auto u = seat->next_update(100ms)) pending.push_back({seat, *u});
      continue;
    }
    auto [seat, u] = pending.front();
    pending.erase(pending.begin());
    if (!u.your_move() || !u.has_legal()) continue;
    const auto* view = testing::view_of(u);
    const int i = seat == &alice ? 0 : 1;
    if (view != nullptr && view->event_count() < answered[i]) continue;
    const auto& l = u.legal().stand();
    if (l.phase() == s::PHASE_MOVE) {
      mover = seat;
      move = u;
      break;
    }
    v1::GameCommand c;
    bool placed = false;
    // One type to a hex: each hex's troops are then one group, the one a click selects.
    const auto taken = [&](const v1::Coord& h) {
      for (const auto& t : view->state().stand().tiles())
        if (t.hex().col() == h.col() && t.hex().row() == h.row() && t.has_troops()) return true;
      return false;
    };
    for (const auto& g : l.deploy()) {
      if (placed || g.types_size() != 1) continue;
      for (const auto& d : g.destinations()) {
        if (placed || taken(d.hex())) continue;
        auto* dep = c.mutable_stand()->mutable_deploy();
        *dep->mutable_hex() = d.hex();
        *dep->mutable_figures() = d.most();
        dep->set_facing(l.side() == v1::SIDE_A ? s::FACING_SE : s::FACING_NW);
        placed = true;
      }
    }
    if (!placed && l.end_phase()) c.mutable_stand()->mutable_end_phase();
    if (!placed && !l.end_phase()) continue;
    seat->submit(c);
    answered[i] = view != nullptr ? view->event_count() + 1 : 0;
  }
  ASSERT_NE(mover, nullptr) << "nobody reached the move phase";
  // A hex whose figures all go: a destination with room for every one of them.
  const s::Legal::Group* group = nullptr;
  const s::Legal::Destination* to = nullptr;
  const s::State board = testing::view_of(move)->state().stand();
  for (const auto& g : move.legal().stand().moves()) {
    const s::Tile* from = nullptr;
    for (const auto& t : board.tiles())
      if (t.hex().col() == g.from().col() && t.hex().row() == g.from().row()) from = &t;
    if (group || from == nullptr || !from->has_troops() || g.types_size() != 1) continue;
    const auto& f = from->troops().figures();
    if (f.infantry() + f.archers() + f.cavalry() + f.chariots() !=
        g.available().infantry() + g.available().archers() + g.available().cavalry() +
            g.available().chariots())
      continue;
    for (const auto& d : g.destinations()) {
      const auto& most = d.most();
      if (!to && most.infantry() >= g.available().infantry() &&
          most.archers() >= g.available().archers() && most.cavalry() >= g.available().cavalry() &&
          most.chariots() >= g.available().chariots()) {
        group = &g;
        to = &d;
      }
    }
  }
  ASSERT_NE(group, nullptr) << "a hex whose figures may all move together";
  const auto& dest = *to;
  const std::string dir = testing::make_temp_dir("castra-defect-selection");
  const std::string side = mover->side == v1::SIDE_A ? "A" : "B";
  testing::write_file(
      dir + "/script.txt",
      "wait snapshot timeout=30000\nwait my-move timeout=30000\nwait legal\n"
      "click-cell " +
          testing::cell(group->from()) + "\nframes 3\nscreenshot selected.png\nclick-cell " +
          testing::cell(dest.hex()) + "\nwait hex " + testing::cell(dest.hex()) + " side " + side +
          " timeout=30000\nwait hex " + testing::cell(group->from()) +
          " empty timeout=30000\nwait idle\nframes 3\nscreenshot moved.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, as(server, mover->name, id, dir + "/script.txt")), 0)
      << log_of(dir);
  auto p = Picture::load(dir + "/selected.png");
  auto q = Picture::load(dir + "/moved.png");
  ASSERT_TRUE(p && q);
  const int h = static_cast<int>(p->cell_size() * 0.6);
  const auto from = *p->cell(group->from().col(), group->from().row());
  const SDL_Rect around{from.x - h, from.y - h, 2 * h, 2 * h};
  EXPECT_GT(p->count(rgb(theme::kSelection), around), 40) << "selected before the move";
  EXPECT_EQ(q->count(rgb(theme::kSelection), around), 0) << "nothing selected on the empty hex";
}

// The unit selected in the deployment used to stay selected in the orders editor.
TEST(ClientDefect, TheOrdersEditorStartsWithNothingSelected) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/training", v1::SIDE_A);
  bob.join(id);
  // The training game's deployments (tests/rules/optio/data): A's but its last line (ending
  // the deployment, which the client does), then B's after it.
  std::vector<v1::optio::ScriptLine> lines;
  std::istringstream game(
      testing::read_file(testing::source_dir() + "/tests/rules/optio/data/training_game.jsonl"));
  for (std::string line; std::getline(game, line) && lines.size() < 18;) {
    v1::optio::ScriptLine l;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &l).ok()) << line;
    lines.push_back(l);
  }
  ASSERT_TRUE(lines[8].command().has_end_deployment());
  const auto as_game = [](const v1::optio::ScriptLine& l) {
    v1::GameCommand c;
    *c.mutable_optio() = l.command();
    return c;
  };
  for (int i = 0; i < 8; ++i)
    alice.submit(as_game(lines[static_cast<std::size_t>(i)]));
  const auto& first = lines[0].command().deploy().at();
  const std::string dir = testing::make_temp_dir("castra-defect-deploy-orders");
  const std::string script = dir + "/script.txt";
  testing::write_file(script, "wait snapshot timeout=30000\nwait legal timeout=30000\nclick-cell " +
                                  testing::cell(first) +
                                  "\nexpect selected\nframes 3\nscreenshot deployment.png\n"
                                  "click-button End phase\nclick-button Confirm\n"
                                  "wait not-my-move timeout=30000\nprint ended\nfollow\n");
  testing::ClientProcess client(dir, as(server, "alice", id, script));
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "ended", 60s)) << log_of(dir);
  for (std::size_t i = 9; i < 18; ++i)
    bob.submit(as_game(lines[i]));
  testing::ScriptWriter steps(script);
  steps.append(
      "wait phase orders timeout=30000\nwait legal timeout=30000\nframes 3\n"
      "screenshot editor.png\nquit\n");
  ASSERT_EQ(client.wait(60s), 0) << log_of(dir);
  auto p = Picture::load(dir + "/deployment.png");
  auto q = Picture::load(dir + "/editor.png");
  ASSERT_TRUE(p && q);
  const int h = static_cast<int>(p->cell_size() * 0.6);
  const auto at = *p->cell(first.col(), first.row());
  const SDL_Rect around{at.x - h, at.y - h, 2 * h, 2 * h};
  EXPECT_GT(p->count(rgb(theme::kSelection), around), 40) << "selected in the deployment";
  EXPECT_EQ(q->count(rgb(theme::kSelection), around), 0) << "nothing selected in the editor";
}

// ---- 11, 4 (the free seat), 15 (back) ---------------------------------------------------------

// An open match with nobody to play against used to offer a draw and a resignation under a blank
// top bar; its free seat read "((free seat))", and the opponent's arrival "side B is back.".
TEST(ClientDefect, AnOpenMatchWaitsForAnOpponentWithNothingToOffer) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  const std::string id = alice.create("stand/training", v1::SIDE_A);
  const std::string dir = testing::make_temp_dir("castra-defect-open");
  const std::string script = dir + "/script.txt";
  testing::write_file(script,
                      "wait idle timeout=30000\nframes 5\nscreenshot open.png\n"
                      "print opened\nfollow\n");
  testing::ClientProcess client(dir, as(server, "alice", id, script));
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "opened", 60s)) << log_of(dir);
  Seat bob = Seat::registered(server.ws_url(), "bob");
  bob.join(id);
  ASSERT_TRUE(bob.subscribe());
  testing::ScriptWriter steps(script);
  steps.append(
      "wait message Your opponent has joined timeout=30000\nwait snapshot\nwait idle\n"
      "frames 20\nscreenshot joined.png\nquit\n");
  ASSERT_EQ(client.wait(60s), 0) << log_of(dir);
  auto p = Picture::load(dir + "/open.png");
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->widget("Offer draw"));
  EXPECT_FALSE(p->widget("Resign"));
  EXPECT_TRUE(p->widget("Withdraw match"));
  const auto top = p->region("top-bar");
  ASSERT_TRUE(top);
  const auto waiting = p->text("Waiting for an opponent");
  ASSERT_TRUE(waiting) << "the top bar says what the match waits for";
  EXPECT_TRUE(overlap(*waiting, *top));
  EXPECT_TRUE(any_text(*p, "(free seat)"));
  EXPECT_FALSE(any_text(*p, "((free seat))"));
  auto q = Picture::load(dir + "/joined.png");
  ASSERT_TRUE(q);
  EXPECT_TRUE(q->widget("Resign")) << "with an opponent the match may be resigned";
  EXPECT_FALSE(any_text(*q, "is back"));
}

// ---- 13 --------------------------------------------------------------------------------------

// At 800 px the dice commitment used to run out of the panel.
TEST(ClientDefect, TheDiceCommitmentFitsThePanelAt800px) {
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const OfflineRun r = run_offline("commitment", testing::offline_view(*m, rules::Side::kA),
                                   "wait snapshot\nframes 3\nscreenshot panel.png\nquit\n",
                                   {"--width", "800", "--height", "560"});
  ASSERT_EQ(r.exit_code, 0) << log_of(r.dir);
  auto p = Picture::load(r.dir + "/panel.png");
  ASSERT_TRUE(p);
  const auto panel = p->region("panel");
  const auto line = p->region("dice-commitment");
  ASSERT_TRUE(panel && line);
  EXPECT_LE(line->x + line->w, panel->x + panel->w - 14);
  // Nothing but the panel's colour in its right margin along the line.
  const SDL_Rect margin{panel->x + panel->w - 12, line->y, 12, line->h};
  EXPECT_EQ(p->count(rgb(theme::kPanel), margin), margin.w * margin.h);
}

// ---- 14 --------------------------------------------------------------------------------------

// On a HiDPI screen the layout is in pixels but the mouse speaks in window points: clicks
// landed at half their place. --ui-scale 2 makes every UI unit two pixels on Xvfb, as a 2x
// screen does: the buttons and hexes clicked are the ones under the pointer.
TEST(ClientDefect, ClicksLandWhereTheyAreDrawnAtUiScale2) {
  auto m = testing::stand_training(0);
  ASSERT_TRUE(m);
  const s::Legal legal = m->legal(rules::Side::kB).stand();
  const s::Legal::Group* cavalry = nullptr;
  for (const auto& g : legal.deploy())
    if (g.types_size() == 1 && g.types(0) == s::TROOP_CAVALRY) cavalry = &g;
  ASSERT_NE(cavalry, nullptr);
  const auto& to = cavalry->destinations(cavalry->destinations_size() / 2).hex();
  const OfflineRun r =
      run_offline("ui-scale", testing::offline_view(*m, rules::Side::kB),
                  "wait legal\nframes 2\nclick-button Cavalry\nframes 2\nscreenshot scaled.png\n"
                  "click-cell " +
                      testing::cell(to) + "\nframes 2\nquit\n",
                  {"--ui-scale", "2"});
  ASSERT_EQ(r.exit_code, 0) << log_of(r.dir);
  auto p = Picture::load(r.dir + "/scaled.png");
  ASSERT_TRUE(p);
  const auto top = p->region("top-bar");
  ASSERT_TRUE(top);
  EXPECT_EQ(p->width(), 1280);
  EXPECT_EQ(top->w, 640) << "the UI is laid out in units of two pixels";
  const auto commands = testing::read_commands(r.dir + "/commands.jsonl");
  ASSERT_EQ(commands.size(), 1u);
  const auto& d = commands[0].command().stand().deploy();
  EXPECT_GT(d.figures().cavalry(), 0) << "the Cavalry button took the click";
  EXPECT_EQ(d.figures().infantry(), 0);
  EXPECT_EQ(d.hex().col(), to.col());
  EXPECT_EQ(d.hex().row(), to.row());
}

// ---- 15 --------------------------------------------------------------------------------------

TEST(ClientDefect, ThePasswordErrorSaysItOnce) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const std::string dir = testing::make_temp_dir("castra-defect-password");
  testing::write_file(dir + "/script.txt",
                      "wait connected\nclick-button name\ntype dave\n"
                      "click-button password\ntype short\nclick-button Register\n"
                      "wait message Passwords are 8 to 256\nframes 2\nscreenshot refused.png\n"
                      "quit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--script", dir + "/script.txt",
                                      "--exit-after", "60"}),
            0)
      << log_of(dir);
  auto p = Picture::load(dir + "/refused.png");
  ASSERT_TRUE(p);
  const auto said = p->text("Passwords are 8 to 256");
  ASSERT_TRUE(said);
  std::string text;
  for (const auto& [t, r] : p->texts())
    if (t.find("Passwords are") != std::string::npos) text = t;
  EXPECT_EQ(text, "Register: Passwords are 8 to 256 characters.");
}

TEST(ClientDefect, CountsAndDisorderReadAsEnglish) {
  // The orders editor: each path starts as its subcommander's one square.
  auto orders = testing::optio_training(18);
  ASSERT_TRUE(orders);
  ASSERT_TRUE(orders->legal(rules::Side::kA).optio().orders().submit());
  const OfflineRun r = run_offline("one-square", testing::offline_view(*orders, rules::Side::kA),
                                   "wait legal\nframes 3\nscreenshot editor.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r.dir);
  auto p = Picture::load(r.dir + "/editor.png");
  ASSERT_TRUE(p);
  EXPECT_TRUE(any_text(*p, "1 square, range"));
  EXPECT_FALSE(any_text(*p, "1 squares"));

  // A disordered unit says when its order returns, not how many turn ends have passed. A unit
  // in line that turns is disordered.
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const o::Legal legal = m->legal(rules::Side::kA).optio();
  int turned = 0;
  for (const auto& ul : legal.units()) {
    if (turned != 0 || ul.rotations_size() == 0) continue;
    v1::GameCommand c;
    c.mutable_optio()->mutable_rotate()->set_unit(ul.unit());
    c.mutable_optio()->mutable_rotate()->set_facing(ul.rotations(0));
    if (m->submit(rules::Side::kA, c, match::Bytes32{}).ok()) turned = ul.unit();
  }
  ASSERT_NE(turned, 0) << "a unit of side A that may turn";
  const o::State st = m->snapshot(rules::Viewer::kSideA).state().optio();
  const o::Unit* unit = nullptr;
  for (const auto& u : st.units())
    if (u.id() == turned && u.disordered()) unit = &u;
  ASSERT_NE(unit, nullptr) << "the unit that turned is disordered";
  const int left = std::max(1, unit->disorder_turns());
  const std::string expected = left == 1 ? "Disordered: order returns at the end of this turn"
                                         : "Disordered: order returns at the end of turn " +
                                               std::to_string(st.turn() + left - 1);
  const OfflineRun d = run_offline("disorder", testing::offline_view(*m, rules::Side::kA),
                                   "wait snapshot\nclick-cell " + testing::cell(unit->at()) +
                                       "\nframes 3\nscreenshot unit.png\nquit\n");
  ASSERT_EQ(d.exit_code, 0) << log_of(d.dir);
  auto q = Picture::load(d.dir + "/unit.png");
  ASSERT_TRUE(q);
  EXPECT_TRUE(any_text(*q, expected)) << expected;
  EXPECT_FALSE(any_text(*q, "so far"));
}

// ---- one language on board and log ---------------------------------------------------------

// Every Optio counter shows the number the log names its unit by; hovering a unit names it.
TEST(ClientBoardLanguage, CountersShowTheirUnitNumbersAndHoverNamesTheUnit) {
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const o::State st = m->snapshot(rules::Viewer::kSideA).state().optio();
  const o::Unit* hovered = nullptr;
  for (const auto& u : st.units())
    if (u.placed() && !u.routed() && hovered == nullptr) hovered = &u;
  ASSERT_NE(hovered, nullptr);
  const OfflineRun r = run_offline("numbers", testing::offline_view(*m, rules::Side::kA),
                                   "wait snapshot\nhover-cell " + testing::cell(hovered->at()) +
                                       "\nframes 3\nscreenshot board.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r.dir);
  auto p = Picture::load(r.dir + "/board.png");
  ASSERT_TRUE(p);
  const int half = static_cast<int>(p->cell_size() / 2);
  for (const auto& u : st.units()) {
    if (!u.placed() || u.routed()) continue;
    const auto c = p->cell(u.at().col(), u.at().row());
    ASSERT_TRUE(c);
    const SDL_Rect square{c->x - half, c->y - half, 2 * half, 2 * half};
    bool shown = false;
    const std::string number = std::to_string(u.id());
    for (const auto& [text, box] : p->texts()) {
      const bool ends_with_number =
          text.size() >= number.size() &&
          text.compare(text.size() - number.size(), number.size(), number) == 0 &&
          (text.size() == number.size() || text[text.size() - number.size() - 1] == ' ');
      const SDL_Point mid{box.x + box.w / 2, box.y + box.h / 2};
      if (ends_with_number && SDL_PointInRect(&mid, &square)) shown = true;
    }
    EXPECT_TRUE(shown) << "unit " << u.id() << " shows its number on its counter";
  }
  EXPECT_TRUE(any_text(*p, std::to_string(hovered->id()) + " ")) << "the hovered unit is named";
}

}  // namespace
}  // namespace castra
