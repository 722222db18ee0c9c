// Writes the README's screenshots (docs/images/*.png) with castra-client itself, from positions
// of real games played with the engines. Not a check, so not run by ctest: run it by hand after a
// visual change, build/tests/client/client_readme_screenshots, and commit the pictures.
#include <gtest/gtest.h>

#include <google/protobuf/util/json_util.h>

#include <filesystem>

#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

namespace o = v1::optio;
namespace s = v1::stand;
namespace fs = std::filesystem;

// Advances every unit of the side to act by its first plain advance, then ends the phase;
// orders cards are the start squares. Leaves the match at the start of side A's move phase
// of turn `turns + 1`.
void march_optio(wire::AnyMatch& m, int phases) {
  int ended = 0;
  for (int guard = 0; guard < 500 && ended < phases; ++guard) {
    const auto act = m.acting();
    const rules::Side side = act.a ? rules::Side::kA : rules::Side::kB;
    const o::Legal l = m.legal(side).optio();
    v1::GameCommand c;
    if (l.orders().submit()) {
      for (const auto& start : l.orders().starts()) {
        auto* path = c.mutable_optio()->mutable_submit_orders()->add_paths();
        *path = start;
        // Straight at the enemy, four squares.
        for (int k = 1; k <= 4; ++k) {
          auto* sq = path->add_squares();
          sq->set_col(start.squares(0).col());
          sq->set_row(start.squares(0).row() + (side == rules::Side::kA ? k : -k));
        }
      }
    } else {
      bool chosen = false;
      const v1::Snapshot now = m.snapshot(rules::Viewer::kEveryone);
      for (const auto& ul : l.units()) {
        const o::Unit* u = nullptr;
        for (const auto& x : now.state().optio().units())
          if (x.id() == ul.unit()) u = &x;
        if (u == nullptr || u->moved_this_turn()) continue;
        for (const auto& a : ul.advances()) {
          if (a.charge_target() != 0 || chosen) continue;
          auto* adv = c.mutable_optio()->mutable_advance();
          adv->set_unit(ul.unit());
          *adv->mutable_steps() = a.steps();
          chosen = true;
        }
        if (chosen) break;
      }
      if (!chosen) {
        c.mutable_optio()->mutable_end_phase();
        ++ended;
      }
    }
    match::Bytes32 salt{};
    salt[0] = static_cast<std::uint8_t>(guard);
    auto done = m.submit(side, c, salt);
    if (!done.ok()) {
      // An advance the orders forbid: end the phase instead.
      v1::GameCommand end;
      end.mutable_optio()->mutable_end_phase();
      ASSERT_TRUE(m.submit(side, end, salt).ok());
      ++ended;
    }
  }
}

// `view` is what --snapshot (or the `flag` given) reads.
void shoot(const std::string& name, const std::string& view, const std::string& script,
           const std::string& flag = "--snapshot") {
  const std::string dir = testing::make_temp_dir("castra-readme");
  testing::write_file(dir + "/view.jsonl", view);
  testing::write_file(dir + "/script.txt", script + "\nframes 3\nscreenshot shot.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {flag, dir + "/view.jsonl", "--script", dir + "/script.txt",
                                      "--exit-after", "60", "--width", "1440", "--height", "900"}),
            0)
      << testing::read_file(dir + "/client.log");
  const std::string out = testing::source_dir() + "/docs/images/" + name;
  fs::create_directories(fs::path(out).parent_path());
  fs::copy_file(dir + "/shot.png", out, fs::copy_options::overwrite_existing);
}

std::unique_ptr<wire::AnyMatch> scenario(const std::string& file) {
  v1::ScenarioFile sc;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(
                  testing::read_file(testing::source_dir() + "/scenarios/" + file), &sc)
                  .ok());
  match::Bytes32 seed{};
  seed.fill(7);
  auto made = wire::make_match({"readme", sc, "", seed});
  EXPECT_TRUE(made.ok());
  return std::move(*made);
}

TEST(ClientReadme, WritesTheScreenshots) {
  // Optio: Cannae after two turns' advances; a Roman unit selected.
  auto cannae = scenario("optio/cannae.json");
  cannae->seat(rules::Side::kA, "a");
  cannae->seat(rules::Side::kB, "b");
  march_optio(*cannae, 4);
  const o::Legal l = cannae->legal(rules::Side::kA).optio();
  const auto st = cannae->snapshot(rules::Viewer::kSideA).state().optio();
  std::string pick;
  for (const auto& ul : l.units()) {
    if (ul.advances_size() < 3 || !pick.empty()) continue;
    for (const auto& u : st.units())
      if (u.id() == ul.unit())
        pick = std::to_string(u.at().col()) + " " + std::to_string(u.at().row());
  }
  shoot("optio-board.png", testing::offline_view(*cannae, rules::Side::kA, 0, "optio/cannae"),
        "wait snapshot\nclick-cell " + pick);

  // Optio: the orders-card editor of the training battle.
  auto training = testing::optio_training(18);
  shoot("optio-orders.png", testing::offline_view(*training, rules::Side::kA),
        "wait legal\ndrag-cells 6 2 6 3 6 4 7 5 7 6");

  // STAND!: Qadesh, both armies deployed across their banks, the Hittites' move.
  auto qadesh = scenario("stand/qadesh.json");
  qadesh->force_rolls({2, 5});  // the Egyptians win the roll-off: the Hittites deploy first
  qadesh->seat(rules::Side::kA, "a");
  qadesh->seat(rules::Side::kB, "b");
  for (int k = 0; k < 200; ++k) {
    const auto act = qadesh->acting();
    const rules::Side side = act.a ? rules::Side::kA : rules::Side::kB;
    const s::Legal sl = qadesh->legal(side).stand();
    if (sl.phase() != s::PHASE_DEPLOY) break;
    v1::GameCommand c;
    bool placed = false;
    for (const auto& g : sl.deploy()) {
      if (g.types_size() != 1 || g.destinations_size() == 0 || placed) continue;
      // Spread along the rows: every third listed hex.
      const auto& d = g.destinations((k * 5) % g.destinations_size());
      auto* dep = c.mutable_stand()->mutable_deploy();
      *dep->mutable_hex() = d.hex();
      s::Figures f;
      const int t = g.types(0);
      const int most = t == 0   ? d.most().infantry()
                       : t == 1 ? d.most().archers()
                       : t == 2 ? d.most().cavalry()
                                : d.most().chariots();
      const int n = std::min(most, t >= 2 ? 2 : 6);
      if (t == 0) f.set_infantry(n);
      if (t == 1) f.set_archers(n);
      if (t == 2) f.set_cavalry(n);
      if (t == 3) f.set_chariots(n);
      *dep->mutable_figures() = f;
      dep->set_facing(side == rules::Side::kA ? s::FACING_SE : s::FACING_NW);
      placed = true;
    }
    if (!placed) c.mutable_stand()->mutable_end_phase();
    match::Bytes32 salt{};
    ASSERT_TRUE(qadesh->submit(side, c, salt).ok());
  }
  const auto act = qadesh->acting();
  const rules::Side mover = act.a ? rules::Side::kA : rules::Side::kB;
  const s::Legal ml = qadesh->legal(mover).stand();
  std::string from;
  for (const auto& g : ml.moves()) {
    if (from.empty() && g.destinations_size() > 6)
      from = std::to_string(g.from().col()) + " " + std::to_string(g.from().row());
  }
  shoot("stand-board.png", testing::offline_view(*qadesh, mover, 0, "stand/qadesh"),
        "wait snapshot\nclick-cell " + from);

  // A campaign: Hannibal in Italy after the Trebia and Trasimene, Rome choosing its army for
  // Cannae, six of eight units ticked.
  std::string picks = "wait campaign\n";
  for (const char* pick :
       {"unit 3", "unit 5", "unit 12", "unit 15", "unit 16", "unit 17", "leader 1", "leader 3"})
    picks += std::string("click-button Pick ") + pick + "\n";
  shoot("campaign.png", testing::json_line(testing::campaign_fixture()), picks, "--campaign");
}

// Forecasts on hover: an Optio charge of the training battle (turn 3) and a STAND! attack of
// its training game, each shown before the click.
TEST(ClientReadme, WritesTheForecasts) {
  auto optio = testing::optio_training(44);
  const o::Legal l = optio->legal(rules::Side::kA).optio();
  const auto st = optio->snapshot(rules::Viewer::kSideA).state().optio();
  std::string script;
  for (const auto& ul : l.units()) {
    for (const auto& a : ul.advances()) {
      if (!a.has_forecast() || !script.empty()) continue;
      for (const auto& u : st.units()) {
        if (u.id() != ul.unit()) continue;
        const auto& last = *a.steps().rbegin();
        script = "wait snapshot\nwait legal\nclick-cell " + std::to_string(u.at().col()) + " " +
                 std::to_string(u.at().row()) + "\nframes 3\nhover-cell " +
                 std::to_string(last.col()) + " " + std::to_string(last.row());
      }
    }
  }
  ASSERT_FALSE(script.empty());
  shoot("optio-forecast.png", testing::offline_view(*optio, rules::Side::kA), script);

  script.clear();
  for (int lines = 1; lines <= 26 && script.empty(); ++lines) {
    auto stand = testing::stand_training(lines);
    if (stand->outcome()) break;
    const rules::Side side = stand->acting().a ? rules::Side::kA : rules::Side::kB;
    const v1::GameLegal legal = stand->legal(side);
    for (const auto& a : legal.stand().attacks()) {
      if (a.forecasts_size() == 0 || !script.empty()) continue;
      const auto& t = a.forecasts(0).target();
      script = "wait snapshot\nwait legal\nclick-cell " + std::to_string(a.from().col()) + " " +
               std::to_string(a.from().row()) + "\nframes 3\nhover-cell " +
               std::to_string(t.col()) + " " + std::to_string(t.row());
      shoot("stand-forecast.png", testing::offline_view(*stand, side), script);
    }
  }
  ASSERT_FALSE(script.empty());
}

// The lobby's battle picker, from a real server's scenario list: Trebia chosen.
TEST(ClientReadme, WritesTheScenarioPicker) {
  testing::ServerProcess server({"--argon2-opslimit", "1", "--argon2-memlimit", "8192"});
  ASSERT_TRUE(server.started()) << server.log();
  const std::string dir = testing::make_temp_dir("castra-readme-picker");
  testing::write_file(dir + "/script.txt",
                      "wait connected\nclick-button name\ntype livia\n"
                      "click-button password\ntype livia-password\nclick-button Register\n"
                      "wait screen lobby\nwait button optio/trebia\nclick-button optio/trebia\n"
                      "frames 3\nscreenshot shot.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--script", dir + "/script.txt",
                                      "--exit-after", "60", "--width", "1440", "--height", "900"}),
            0)
      << testing::read_file(dir + "/client.log");
  const std::string out = testing::source_dir() + "/docs/images/scenario-picker.png";
  fs::copy_file(dir + "/shot.png", out, fs::copy_options::overwrite_existing);
}

}  // namespace
}  // namespace castra
