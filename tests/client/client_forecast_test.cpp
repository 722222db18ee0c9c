// The client explains a fight before and after it: hovering a legal charge (Optio) or attack
// (Ancient STAND!) shows the forecast the server sent with the legal list, before any click,
// and the log line of a fight names both units and the modifiers of each score. Real matches
// played with the engines are handed to the real castra-client (--snapshot); a --script hovers
// through its own input path; the screenshots are looked at.
#include <gtest/gtest.h>

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

std::string at(int col, int row) {
  return std::to_string(col) + " " + std::to_string(row);
}

// The forecast box: drawn where the layout says, with its gold edge.
void expect_forecast_box(const Picture& p) {
  const auto box = p.region("forecast");
  ASSERT_TRUE(box) << "no forecast shown";
  EXPECT_GT(box->h, 80);
  EXPECT_GT(p.count(rgb(theme::kGold), SDL_Rect{box->x, box->y, 3, box->h}), box->h);
}

TEST(ClientForecast, HoveringAnOptioChargeShowsItsForecastBeforeTheClick) {
  // Turn 3 of the training game, side A's move phase.
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  const o::Legal legal = m->legal(rules::Side::kA).optio();
  const o::State st = m->snapshot(rules::Viewer::kSideA).state().optio();
  const o::UnitLegal* chosen = nullptr;
  const o::AdvanceOption* charge = nullptr;
  for (const auto& ul : legal.units()) {
    for (const auto& a : ul.advances()) {
      if (a.has_forecast() && charge == nullptr) {
        chosen = &ul;
        charge = &a;
      }
    }
  }
  ASSERT_NE(charge, nullptr) << "no charge on the list";
  const o::Unit* unit = nullptr;
  for (const auto& u : st.units())
    if (u.id() == chosen->unit()) unit = &u;
  ASSERT_NE(unit, nullptr);
  const auto& last = *charge->steps().rbegin();
  const OfflineRun r =
      run_offline("optio", testing::offline_view(*m, rules::Side::kA),
                  "wait snapshot\nwait legal\nclick-cell " +
                      at(unit->at().col(), unit->at().row()) + "\nframes 3\nhover-cell " +
                      at(last.col(), last.row()) + "\nframes 3\nscreenshot hover.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << testing::read_file(r.dir + "/client.log");
  auto p = Picture::load(r.dir + "/hover.png");
  ASSERT_TRUE(p);
  expect_forecast_box(*p);
  // Hovering sends nothing: the charge is the player's to give.
  EXPECT_TRUE(testing::read_commands(r.dir + "/commands.jsonl").empty());
}

TEST(ClientForecast, HoveringAStandAttackShowsItsForecastBeforeTheClick) {
  // The first position of the training game where the acting side may attack.
  std::unique_ptr<wire::AnyMatch> m;
  rules::Side side = rules::Side::kA;
  const s::Legal::AttackChoice* choice = nullptr;
  s::Legal legal;
  for (int lines = 1; lines <= 26 && choice == nullptr; ++lines) {
    m = testing::stand_training(lines);
    ASSERT_TRUE(m);
    if (m->outcome()) break;
    side = m->acting().a ? rules::Side::kA : rules::Side::kB;
    legal = m->legal(side).stand();
    for (const auto& a : legal.attacks())
      if (a.forecasts_size() > 0 && choice == nullptr) choice = &a;
  }
  ASSERT_NE(choice, nullptr) << "no attack in the training game";
  ASSERT_EQ(choice->forecasts_size(), choice->targets_size());
  const auto& target = choice->forecasts(0).target();
  const OfflineRun r =
      run_offline("stand", testing::offline_view(*m, side),
                  "wait snapshot\nwait legal\nclick-cell " +
                      at(choice->from().col(), choice->from().row()) + "\nframes 3\nhover-cell " +
                      at(target.col(), target.row()) + "\nframes 3\nscreenshot hover.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << testing::read_file(r.dir + "/client.log");
  auto p = Picture::load(r.dir + "/hover.png");
  ASSERT_TRUE(p);
  expect_forecast_box(*p);
  EXPECT_TRUE(testing::read_commands(r.dir + "/commands.jsonl").empty());
}

TEST(ClientForecast, TheLogLineOfAFightNamesBothUnitsAndTheModifiers) {
  // After the training game's first charge combat.
  auto m = testing::optio_training(44);
  ASSERT_TRUE(m);
  std::string fight;
  for (const auto& e : m->events_for(rules::Viewer::kSideA, 0)) {
    if (e.event().optio().has_fight() && e.event().optio().fight().kind() == o::Fight::CHARGE &&
        fight.empty()) {
      fight = e.text();
    }
  }
  ASSERT_FALSE(fight.empty()) << "no charge combat by turn 3";
  // "charge combat, side A's <type> <n> against side B's <type> <n>: ... sum ...: N hits"
  EXPECT_EQ(fight.rfind("charge combat, side ", 0), 0u) << fight;
  EXPECT_NE(fight.find(" against side "), std::string::npos) << fight;
  EXPECT_NE(fight.find(": sum "), std::string::npos) << fight;
  const std::string shown = fight.substr(0, 60);
  const OfflineRun r =
      run_offline("log", testing::offline_view(*m, rules::Side::kA),
                  "wait snapshot\nexpect log " + shown + "\nframes 3\nscreenshot log.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << testing::read_file(r.dir + "/client.log");
  auto p = Picture::load(r.dir + "/log.png");
  ASSERT_TRUE(p);
  // The "last fight" box tells the newest fight in the same words.
  const auto box = p->region("last-fight");
  ASSERT_TRUE(box);
  EXPECT_GT(box->h, 30);
}

}  // namespace
}  // namespace castra
