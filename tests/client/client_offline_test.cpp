// castra-client on real positions without a server: matches played with the rules engines
// are handed to the client as the MatchUpdate a subscriber receives (--snapshot); a --script
// clicks through the client's own input path; the tests read the screenshots (the highlight
// colours where the legal list says, counters where the state says) and the commands the
// client would have sent (--commands-out), which the rules must accept.
#include <gtest/gtest.h>

#include <set>

#include "client/sdl/theme.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using testing::OfflineRun;
using testing::Picture;
using testing::rgb;
using testing::run_offline;
namespace theme = client::theme;
namespace o = v1::optio;
namespace s = v1::stand;

std::string log_of(const OfflineRun& r) {
  return testing::read_file(r.dir + "/client.log");
}

const o::Unit* unit_at(const o::State& st, int col, int row) {
  for (const auto& u : st.units())
    if (u.placed() && !u.routed() && u.at().col() == col && u.at().row() == row) return &u;
  return nullptr;
}

// A square's area, a little inside its edges.
SDL_Rect square_area(const Picture& p, SDL_Point c) {
  const int h = static_cast<int>(p.cell_size() * 0.45);
  return SDL_Rect{c.x - h, c.y - h, 2 * h, 2 * h};
}

TEST(ClientOptioBoard, SelectingAUnitHighlightsItsLegalSquaresAndAClickAdvancesIt) {
  // Turn 3 of the training game, side A's move phase.
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->acting().must_act(rules::Side::kA));
  const o::Legal legal = m->legal(rules::Side::kA).optio();
  const o::State before = m->snapshot(rules::Viewer::kSideA).state().optio();
  // A unit with a plain advance (not a charge) to show.
  const o::UnitLegal* chosen = nullptr;
  for (const auto& ul : legal.units()) {
    for (const auto& a : ul.advances())
      if (a.charge_target() == 0 && !chosen) chosen = &ul;
  }
  ASSERT_NE(chosen, nullptr) << legal.DebugString();
  const o::Unit* unit = nullptr;
  for (const auto& u : before.units())
    if (u.id() == chosen->unit()) unit = &u;
  ASSERT_NE(unit, nullptr);
  std::map<std::pair<int, int>, bool> destinations;  // square -> a charge
  for (const auto& a : chosen->advances()) {
    const auto& last = *a.steps().rbegin();
    destinations[{last.col(), last.row()}] |= a.charge_target() != 0;
  }
  std::pair<int, int> target{};
  for (const auto& [sq, charge] : destinations)
    if (!charge) target = sq;

  const OfflineRun r =
      run_offline("optio", testing::offline_view(*m, rules::Side::kA),
                  "wait snapshot\nwait legal\n"
                  "click-cell " +
                      std::to_string(unit->at().col()) + " " + std::to_string(unit->at().row()) +
                      "\nframes 3\nscreenshot selected.png\n"
                      "click-cell " +
                      std::to_string(target.first) + " " + std::to_string(target.second) +
                      "\nframes 3\nscreenshot clicked.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/selected.png");
  ASSERT_TRUE(p);

  // Every square the legal list names carries the highlight dot, a charge in its own colour.
  for (const auto& [sq, charge] : destinations) {
    auto c = p->cell(sq.first, sq.second);
    ASSERT_TRUE(c);
    EXPECT_EQ(p->at(c->x, c->y), rgb(charge ? theme::kChargeHighlight : theme::kHighlight))
        << "square (" << sq.first << "," << sq.second << ")";
  }
  // No other square does.
  for (int row = 1; row <= before.rows(); ++row) {
    for (int col = 1; col <= before.cols(); ++col) {
      if (destinations.count({col, row}) != 0) continue;
      auto c = p->cell(col, row);
      ASSERT_TRUE(c);
      EXPECT_NE(p->at(c->x, c->y), rgb(theme::kHighlight))
          << "square (" << col << "," << row << ")";
    }
  }
  // The selected unit is outlined; every unit's counter is drawn in its side's colour.
  EXPECT_GT(p->count(rgb(theme::kSelection),
                     square_area(*p, *p->cell(unit->at().col(), unit->at().row()))),
            40);
  for (const auto& u : before.units()) {
    if (!u.placed() || u.routed()) continue;
    const auto color = rgb(u.side() == v1::SIDE_A ? theme::kSideA : theme::kSideB);
    EXPECT_GT(p->count(color, square_area(*p, *p->cell(u.at().col(), u.at().row()))), 200)
        << "unit " << u.id();
  }
  // The click on a highlighted square made an advance there, which the rules accept.
  const auto commands = testing::read_commands(r.dir + "/commands.jsonl");
  ASSERT_EQ(commands.size(), 1u);
  const auto& adv = commands[0].command().optio().advance();
  EXPECT_EQ(adv.unit(), chosen->unit());
  ASSERT_GT(adv.steps_size(), 0);
  EXPECT_EQ(adv.steps(adv.steps_size() - 1).col(), target.first);
  EXPECT_EQ(adv.steps(adv.steps_size() - 1).row(), target.second);
  match::Bytes32 salt{};
  auto done = m->submit(rules::Side::kA, commands[0].command(), salt);
  ASSERT_TRUE(done.ok()) << done.error().message;
  const o::State after = m->snapshot(rules::Viewer::kSideA).state().optio();
  const o::Unit* moved = unit_at(after, target.first, target.second);
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->id(), chosen->unit());
}

TEST(ClientStandBoard, SelectingAHexHighlightsWhereItsFiguresMayGoAndAClickMovesThem) {
  // Game turn 1, side B's move phase, after side A's attacks.
  auto m = testing::stand_training(18);
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->acting().must_act(rules::Side::kB));
  const s::Legal legal = m->legal(rules::Side::kB).stand();
  const s::State before = m->snapshot(rules::Viewer::kSideB).state().stand();
  auto tile = [&](int col, int row) -> const s::Tile* {
    for (const auto& t : before.tiles())
      if (t.hex().col() == col && t.hex().row() == row) return &t;
    return nullptr;
  };
  auto occupied = [&](int col, int row) {
    const s::Tile* t = tile(col, row);
    return t != nullptr && t->has_troops() &&
           t->troops().figures().infantry() + t->troops().figures().archers() +
                   t->troops().figures().cavalry() + t->troops().figures().chariots() >
               0;
  };
  // The client shows the first group listed for a hex: take one that may move somewhere empty.
  const s::Legal::Group* group = nullptr;
  for (const auto& g : legal.moves()) {
    bool first_of_hex = true;
    for (const auto& other : legal.moves()) {
      if (&other == &g) break;
      if (other.from().col() == g.from().col() && other.from().row() == g.from().row())
        first_of_hex = false;
    }
    if (!first_of_hex || group) continue;
    for (const auto& d : g.destinations())
      if (!occupied(d.hex().col(), d.hex().row())) group = &g;
  }
  ASSERT_NE(group, nullptr) << legal.DebugString();
  std::set<std::pair<int, int>> destinations;
  std::pair<int, int> target{-1, -1};
  for (const auto& d : group->destinations()) {
    destinations.insert({d.hex().col(), d.hex().row()});
    if (!occupied(d.hex().col(), d.hex().row())) target = {d.hex().col(), d.hex().row()};
  }

  const OfflineRun r = run_offline("stand", testing::offline_view(*m, rules::Side::kB),
                                   "wait snapshot\nwait legal\n"
                                   "click-cell " +
                                       std::to_string(group->from().col()) + " " +
                                       std::to_string(group->from().row()) +
                                       "\nframes 3\nscreenshot selected.png\n"
                                       "click-cell " +
                                       std::to_string(target.first) + " " +
                                       std::to_string(target.second) + "\nframes 3\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/selected.png");
  ASSERT_TRUE(p);
  // Every empty hex the group may reach carries the highlight at its centre; no other hex does.
  for (int row = 0; row < before.height(); ++row) {
    for (int col = 0; col < before.width(); ++col) {
      if (occupied(col, row)) continue;
      auto c = p->cell(col, row);
      ASSERT_TRUE(c);
      const bool listed = destinations.count({col, row}) != 0;
      EXPECT_EQ(p->at(c->x, c->y) == rgb(theme::kHighlight), listed)
          << "hex (" << col << "," << row << ")";
    }
  }
  // Each occupied hex shows a counter in its side's colour.
  for (const auto& t : before.tiles()) {
    if (!occupied(t.hex().col(), t.hex().row())) continue;
    auto c = p->cell(t.hex().col(), t.hex().row());
    const int h = static_cast<int>(p->cell_size() * 0.5);
    const auto color = rgb(t.troops().side() == v1::SIDE_A ? theme::kSideA : theme::kSideB);
    EXPECT_GT(p->count(color, SDL_Rect{c->x - h, c->y - h, 2 * h, 2 * h}), 100)
        << "hex (" << t.hex().col() << "," << t.hex().row() << ")";
  }
  // The click made a move of that group along the listed path, which the rules accept.
  const auto commands = testing::read_commands(r.dir + "/commands.jsonl");
  ASSERT_EQ(commands.size(), 1u);
  const auto& mv = commands[0].command().stand().move();
  EXPECT_EQ(mv.from().col(), group->from().col());
  EXPECT_EQ(mv.from().row(), group->from().row());
  ASSERT_GT(mv.path_size(), 0);
  EXPECT_EQ(mv.path(mv.path_size() - 1).col(), target.first);
  EXPECT_EQ(mv.path(mv.path_size() - 1).row(), target.second);
  match::Bytes32 salt{};
  auto done = m->submit(rules::Side::kB, commands[0].command(), salt);
  ASSERT_TRUE(done.ok()) << done.error().message;
  const s::State after = m->snapshot(rules::Viewer::kSideB).state().stand();
  for (const auto& t : after.tiles()) {
    if (t.hex().col() == target.first && t.hex().row() == target.second) {
      ASSERT_TRUE(t.has_troops());
      EXPECT_EQ(t.troops().side(), v1::SIDE_B);
    }
  }
}

TEST(ClientOrdersEditor, DrawsASubcommandersPathAndSubmitsItSealed) {
  // Both deployments done: the orders phase, both sides to act.
  auto m = testing::optio_training(18);
  ASSERT_TRUE(m);
  const o::Legal legal = m->legal(rules::Side::kA).optio();
  ASSERT_TRUE(legal.orders().submit()) << legal.DebugString();
  ASSERT_EQ(legal.orders().starts_size(), 1);
  const auto& start = legal.orders().starts(0).squares(0);
  const int c0 = start.col();
  const int r0 = start.row();
  // A path drawn by dragging: down two squares, then diagonally forward.
  const std::vector<std::pair<int, int>> path = {
      {c0, r0}, {c0, r0 + 1}, {c0, r0 + 2}, {c0 + 1, r0 + 3}};
  std::string drag = "drag-cells";
  for (const auto& [c, rr] : path)
    drag += " " + std::to_string(c) + " " + std::to_string(rr);

  const OfflineRun r =
      run_offline("orders", testing::offline_view(*m, rules::Side::kA),
                  "wait snapshot\nwait legal\n" + drag +
                      "\nframes 3\nscreenshot editor.png\n"
                      "click-button Submit sealed orders\nframes 2\n"
                      "screenshot confirm.png\nclick-button Confirm\nframes 2\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/editor.png");
  ASSERT_TRUE(p);
  // The path is drawn through each square in the first subcommander's colour.
  for (std::size_t i = 1; i < path.size(); ++i) {
    auto c = p->cell(path[i].first, path[i].second);
    ASSERT_TRUE(c);
    EXPECT_EQ(p->at(c->x, c->y), rgb(theme::kPathColors[0]))
        << "square (" << path[i].first << "," << path[i].second << ")";
  }
  // The squares it may go on to next are ringed; an unrelated square is plain.
  auto q = Picture::load(r.dir + "/confirm.png");
  ASSERT_TRUE(q);
  ASSERT_TRUE(q->region("confirm")) << "the submission asks for confirmation first";
  // The card went as drawn, and the rules accept it.
  const auto commands = testing::read_commands(r.dir + "/commands.jsonl");
  ASSERT_EQ(commands.size(), 1u);
  const auto& orders = commands[0].command().optio().submit_orders();
  ASSERT_EQ(orders.paths_size(), 1);
  EXPECT_EQ(orders.paths(0).leader(), legal.orders().starts(0).leader());
  ASSERT_EQ(orders.paths(0).squares_size(), static_cast<int>(path.size()));
  for (std::size_t i = 0; i < path.size(); ++i) {
    EXPECT_EQ(orders.paths(0).squares(static_cast<int>(i)).col(), path[i].first);
    EXPECT_EQ(orders.paths(0).squares(static_cast<int>(i)).row(), path[i].second);
  }
  match::Bytes32 salt{};
  auto done = m->submit(rules::Side::kA, commands[0].command(), salt);
  EXPECT_TRUE(done.ok()) << done.error().message;
}

TEST(ClientSpectatorView, ShowsTheBoardReadOnlyAndSaysHowFarBehindItRuns) {
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const o::State st = m->snapshot(rules::Viewer::kSpectator).state().optio();
  const o::Unit* some = nullptr;
  for (const auto& u : st.units())
    if (u.placed() && !u.routed() && !some) some = &u;
  ASSERT_NE(some, nullptr);
  const OfflineRun r = run_offline("spectator", testing::offline_view(*m, std::nullopt, 2),
                                   "wait snapshot\nclick-cell " + std::to_string(some->at().col()) +
                                       " " + std::to_string(some->at().row()) +
                                       "\nframes 3\nscreenshot spectator.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/spectator.png");
  ASSERT_TRUE(p);
  auto banner = p->region("spectator-banner");
  ASSERT_TRUE(banner) << "no spectator banner";
  EXPECT_GT(p->count(rgb(theme::kSpectator), *banner), banner->w * banner->h / 2);
  auto board = p->region("board");
  ASSERT_TRUE(board);
  // Read only: a click on a unit shows what it is, but no move is highlighted and there is
  // nothing to submit.
  EXPECT_GT(p->count(rgb(theme::kSelection), *board), 0);
  EXPECT_EQ(p->count(rgb(theme::kHighlight), *board), 0);
  EXPECT_EQ(p->count(rgb(theme::kChargeHighlight), *board), 0);
  EXPECT_EQ(p->count(rgb(theme::kTarget), *board), 0);
  EXPECT_FALSE(p->widget("End phase"));
  EXPECT_FALSE(p->widget("Resign"));
  EXPECT_FALSE(p->widget("Offer draw"));
  // The units are all there.
  for (const auto& u : st.units()) {
    if (!u.placed() || u.routed()) continue;
    const auto color = rgb(u.side() == v1::SIDE_A ? theme::kSideA : theme::kSideB);
    EXPECT_GT(p->count(color, square_area(*p, *p->cell(u.at().col(), u.at().row()))), 200)
        << "unit " << u.id();
  }
}

// The training game on fair dice to its first turn's moves, then side A resigns.
std::unique_ptr<wire::AnyMatch> resigned_match() {
  auto m = testing::optio_training(26, true);
  if (!m) return nullptr;
  EXPECT_FALSE(m->end(match::EndReason::kResigned, rules::Side::kA,
                      rules::Outcome::win(rules::Side::kB, "side A resigned"))
                   .has_value());
  return m;
}

TEST(ClientEndScreen, ChecksTheRevealedSeedAndSavesARecordThatCastraSimVerifies) {
  auto m = resigned_match();
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->outcome().has_value());
  const OfflineRun r = run_offline("end", testing::offline_view(*m, rules::Side::kA),
                                   "wait end-screen\nwait seed-ok\nframes 2\nscreenshot end.png\n"
                                   "click-button Save record\nframes 2\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/end.png");
  ASSERT_TRUE(p);
  auto badge = p->region("seed-check");
  ASSERT_TRUE(badge);
  EXPECT_GT(p->count(rgb(theme::kOk), *badge), badge->w * badge->h / 2)
      << "the seed check is green";
  // The record the client saved verifies with castra-sim.
  const std::string record = r.dir + "/castra-match-" + m->id() + ".json";
  const std::string verify = testing::binary_dir() + "/tools/sim/castra-sim verify " + record +
                             " > " + r.dir + "/verify.txt 2>&1";
  EXPECT_EQ(std::system(verify.c_str()), 0) << testing::read_file(r.dir + "/verify.txt");
}

TEST(ClientEndScreen, WarnsWhenTheRevealedSeedDoesNotMatchTheCommitmentShownAtTheStart) {
  auto m = resigned_match();
  ASSERT_TRUE(m);
  std::string view = testing::offline_view(*m, rules::Side::kA);
  // The commitment the client was shown at the start is not the one of this seed.
  const std::string real = match::to_hex(m->dice_commitment());
  view.replace(view.find(real), real.size(), std::string(64, '0'));
  const OfflineRun r =
      run_offline("tampered", view, "wait end-screen\nframes 2\nscreenshot end.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/end.png");
  ASSERT_TRUE(p);
  auto badge = p->region("seed-check");
  ASSERT_TRUE(badge);
  EXPECT_GT(p->count(rgb(theme::kError), *badge), badge->w * badge->h / 2) << "the warning is red";
}

}  // namespace
}  // namespace castra

namespace castra {
namespace {

TEST(ClientReplay, StepsThroughTheEventsAndJumpsByTurns) {
  auto m = testing::optio_training(26, true);
  ASSERT_TRUE(m);
  ASSERT_FALSE(m->end(match::EndReason::kResigned, rules::Side::kA,
                      rules::Outcome::win(rules::Side::kB, "side A resigned"))
                   .has_value());
  const OfflineRun r = run_offline("replay", testing::offline_view(*m, rules::Side::kA),
                                   "wait end-screen\nclick-button Replay from the result\n"
                                   "frames 2\nkey Right\nkey Right\nkey Right\nframes 2\n"
                                   "screenshot stepped.png\nkey PageDown\nframes 2\n"
                                   "screenshot turn.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/stepped.png");
  ASSERT_TRUE(p);
  // The replay's controls are drawn, the current event is highlighted in the log, and the
  // top bar is not the player's gold.
  EXPECT_TRUE(p->widget(">"));
  EXPECT_TRUE(p->widget("Turn +"));
  auto log = p->region("log");
  ASSERT_TRUE(log);
  EXPECT_GT(p->count(rgb(theme::kHighlight), *log), 10) << "the current event is marked";
  auto top = p->region("top-bar");
  ASSERT_TRUE(top);
  EXPECT_LT(p->count(rgb(theme::kYourMove), *top), top->w * top->h / 4);
  auto q = Picture::load(r.dir + "/turn.png");
  ASSERT_TRUE(q);
  EXPECT_GT(q->count(rgb(theme::kHighlight), *q->region("log")), 10);
}

}  // namespace
}  // namespace castra

namespace castra {
namespace {

TEST(ClientBoardView, ZoomsAtTheCursorAndPansWithTheKeys) {
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const OfflineRun r = run_offline("zoom", testing::offline_view(*m, rules::Side::kA),
                                   "wait snapshot\nframes 2\nscreenshot fit.png\n"
                                   "hover-cell 5 4\nframes 1\nwheel 3\nframes 2\n"
                                   "screenshot zoomed.png\nkey Left\nframes 2\n"
                                   "screenshot panned.png\nkey 0\nframes 2\n"
                                   "screenshot again.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto fit = Picture::load(r.dir + "/fit.png");
  auto zoomed = Picture::load(r.dir + "/zoomed.png");
  auto panned = Picture::load(r.dir + "/panned.png");
  auto again = Picture::load(r.dir + "/again.png");
  ASSERT_TRUE(fit && zoomed && panned && again);
  // Three notches of the wheel make the squares half again as large at least...
  EXPECT_GT(zoomed->cell_size(), fit->cell_size() * 1.4);
  // ...and the square under the cursor stays under it.
  const SDL_Point before = *fit->cell(5, 4);
  const SDL_Point after = *zoomed->cell(5, 4);
  EXPECT_LT(std::abs(after.x - before.x), zoomed->cell_size() / 2);
  EXPECT_LT(std::abs(after.y - before.y), zoomed->cell_size() / 2);
  // The left arrow moves the view; 0 fits the board again.
  EXPECT_GT(panned->cell(5, 4)->x, after.x + 20);
  EXPECT_DOUBLE_EQ(again->cell_size(), fit->cell_size());
  EXPECT_EQ(again->cell(5, 4)->x, before.x);
}

}  // namespace
}  // namespace castra

namespace castra {
namespace {

TEST(ClientDeployment, PlacesAnOptioUnitWithTheChosenFacingByClicks) {
  auto m = testing::optio_training(0);
  ASSERT_TRUE(m);
  const o::Legal legal = m->legal(rules::Side::kA).optio();
  const o::UnitLegal* ul = nullptr;
  for (const auto& u : legal.units())
    if (u.placements_size() > 0 && !ul) ul = &u;
  ASSERT_NE(ul, nullptr) << legal.DebugString();
  const auto& at = ul->placements(ul->placements_size() - 1);
  const OfflineRun r = run_offline("deploy-optio", testing::offline_view(*m, rules::Side::kA),
                                   "wait legal\nclick-button #" + std::to_string(ul->unit()) +
                                       " \nclick-button Deploy facing E\n"
                                       "frames 2\nscreenshot zone.png\nclick-cell " +
                                       std::to_string(at.col()) + " " + std::to_string(at.row()) +
                                       "\nframes 2\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/zone.png");
  ASSERT_TRUE(p);
  // Every square the unit may be placed on carries the highlight dot.
  for (const auto& sq : ul->placements()) {
    auto c = p->cell(sq.col(), sq.row());
    ASSERT_TRUE(c);
    EXPECT_EQ(p->at(c->x, c->y), rgb(theme::kHighlight));
  }
  const auto commands = testing::read_commands(r.dir + "/commands.jsonl");
  ASSERT_EQ(commands.size(), 1u);
  const auto& d = commands[0].command().optio().deploy();
  EXPECT_EQ(d.unit(), ul->unit());
  EXPECT_EQ(d.at().col(), at.col());
  EXPECT_EQ(d.at().row(), at.row());
  EXPECT_EQ(d.facing(), 1) << "facing east, as chosen";
  EXPECT_TRUE(m->submit(rules::Side::kA, commands[0].command(), match::Bytes32{}).ok());
}

TEST(ClientDeployment, PlacesStandFiguresInTheZoneByClicks) {
  // A won the roll-off: B deploys first.
  auto m = testing::stand_training(0);
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->acting().must_act(rules::Side::kB));
  const s::Legal legal = m->legal(rules::Side::kB).stand();
  ASSERT_GT(legal.deploy_size(), 0) << legal.DebugString();
  const auto& group = legal.deploy(0);
  const auto& to = group.destinations(group.destinations_size() / 2);
  const OfflineRun r = run_offline("deploy-stand", testing::offline_view(*m, rules::Side::kB),
                                   "wait legal\nframes 2\nscreenshot zone.png\nclick-cell " +
                                       std::to_string(to.hex().col()) + " " +
                                       std::to_string(to.hex().row()) + "\nframes 2\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/zone.png");
  ASSERT_TRUE(p);
  for (const auto& d : group.destinations()) {
    auto c = p->cell(d.hex().col(), d.hex().row());
    ASSERT_TRUE(c);
    EXPECT_EQ(p->at(c->x, c->y), rgb(theme::kHighlight))
        << "hex (" << d.hex().col() << "," << d.hex().row() << ")";
  }
  const auto commands = testing::read_commands(r.dir + "/commands.jsonl");
  ASSERT_EQ(commands.size(), 1u);
  const auto& dep = commands[0].command().stand().deploy();
  EXPECT_EQ(dep.hex().col(), to.hex().col());
  EXPECT_EQ(dep.hex().row(), to.hex().row());
  EXPECT_GT(dep.figures().infantry() + dep.figures().archers() + dep.figures().cavalry() +
                dep.figures().chariots(),
            0);
  auto done = m->submit(rules::Side::kB, commands[0].command(), match::Bytes32{});
  EXPECT_TRUE(done.ok()) << done.error().message;
}

}  // namespace
}  // namespace castra

namespace castra {
namespace {

TEST(ClientConfirmation, EndingAPhaseAsksFirstEvenFromTheKeyboard) {
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const OfflineRun r = run_offline("confirm", testing::offline_view(*m, rules::Side::kA),
                                   "wait legal\nkey Return\nframes 2\nscreenshot asked.png\n"
                                   "key Escape\nframes 2\nkey Return\nframes 2\nkey Return\n"
                                   "frames 2\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/asked.png");
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->region("confirm")) << "Return opens the question";
  // Escape said no; the second Return opened it again and the third said yes: one command.
  const auto commands = testing::read_commands(r.dir + "/commands.jsonl");
  ASSERT_EQ(commands.size(), 1u);
  EXPECT_TRUE(commands[0].command().optio().has_end_phase());
}

}  // namespace
}  // namespace castra
