// What of a roster is public, worked out by hand.
#include <gtest/gtest.h>

#include "common/campaign/public_view.hpp"

namespace castra::campaign {
namespace {

using optio::UnitType;

TEST(CampaignPublic, OptioShowsTheUnitsAndLeadersThatHaveFoughtAsTheyAreNow) {
  OptioRoster now;
  now.units = {{1, UnitType::kHeavyInfantry, 2, 1, 2, "hastati"},
               {2, UnitType::kHeavyInfantry, 2, 1, 0, "principes"},
               {4, UnitType::kCavalry, 2, 2, 0, "equites"}};
  now.leaders = {{1, true, 1, 0, "Scipio"}, {2, false, 2, 0, "Laelius"}};
  // Unit 3 fought and was lost; unit 2 and Laelius have never fought.
  const std::vector<Fought> history = {{Selection{{1, 3}, {1}, {}}, {}, {}},
                                       {Selection{{1, 4}, {1}, {}}, {}, {}}};
  const PublicRoster view = public_roster({"Rome", now}, history);
  OptioRoster shown;
  shown.units = {now.units[0], now.units[2]};
  shown.leaders = {now.leaders[0]};
  EXPECT_EQ(view.roster, (Roster{"Rome", shown}));
  EXPECT_EQ(view.hidden_units, 1);
  EXPECT_EQ(view.hidden_figures, 0);
}

stand::Figures infantry(int n) {
  stand::Figures f;
  f.n = {n, 0, 0, 0};
  return f;
}

Roster egypt(int n) {
  return {"Egypt", StandRoster{infantry(n)}};
}

// Battle 1 fielded 10 of 20 and lost 3; battle 2 fielded 12 of 17 and lost 2; 15 remain. Of
// battle 1's ten, 10 - 3 - 2 = 5 are surely left; of battle 2's twelve, 10: so 10 are shown.
TEST(CampaignPublic, StandShowsTheFiguresSeenThatTheLossesSinceCannotHaveUsedUp) {
  const std::vector<Fought> history = {{Selection{{}, {}, infantry(10)}, egypt(20), egypt(17)},
                                       {Selection{{}, {}, infantry(12)}, egypt(17), egypt(15)}};
  const PublicRoster view = public_roster(egypt(15), history);
  EXPECT_EQ(view.roster, egypt(10));
  EXPECT_EQ(view.hidden_figures, 5);
}

TEST(CampaignPublic, NothingFoughtNothingShown) {
  const PublicRoster view = public_roster(egypt(15), {});
  EXPECT_EQ(view.roster, egypt(0));
  EXPECT_EQ(view.hidden_figures, 15);
}

}  // namespace
}  // namespace castra::campaign
