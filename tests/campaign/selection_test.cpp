// Selections: the limits, the leader rules, the whole roster at limit 0, and the default
// selection fielded at a missed deadline, each expectation written by hand.
#include <gtest/gtest.h>

#include "common/campaign/army.hpp"
#include "common/campaign/selection.hpp"

namespace castra::campaign {
namespace {

using optio::UnitType;

// The general's command (1) comes after command 2 in roster order, so the default selection
// must reach past the first units to field him.
Roster army() {
  OptioRoster r;
  r.units = {{4, UnitType::kCavalry, 2, 2, 0, "equites I"},
             {5, UnitType::kCavalry, 2, 2, 0, "equites II"},
             {1, UnitType::kHeavyInfantry, 2, 1, 0, "hastati"},
             {2, UnitType::kHeavyInfantry, 2, 1, 0, "principes"},
             {3, UnitType::kSkirmishers, 2, 1, 0, "velites"}};
  r.leaders = {{1, true, 1, 0, "Scipio"}, {2, false, 2, 0, "Laelius"}, {3, false, 7, 0, "idle"}};
  return {"Rome", r};
}

BattleNode limit(int n) {
  BattleNode b;
  b.id = "ticinus";
  b.selection_limit = n;
  return b;
}

std::string rule_of(const std::optional<rules::RuleError>& e) {
  return e ? e->rule : "";
}

TEST(CampaignSelection, OptioUpToTheLimitIsAccepted) {
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{1, 4, 5}, {1, 2}, {}})), "");
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{1}, {1}, {}})), "");
}

TEST(CampaignSelection, OptioMoreUnitsThanTheLimitAreRefused) {
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{1, 2, 4, 5}, {1, 2}, {}})),
            "campaign.selection.limit");
}

TEST(CampaignSelection, OptioALeaderWithoutAUnitOfHisCommandIsRefused) {
  auto refused = check_selection(limit(3), army(), {{1, 2}, {1, 2}, {}});
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->rule, "campaign.selection.leader");
  EXPECT_EQ(refused->message, "leader 2 needs a selected unit of his command 2");
}

TEST(CampaignSelection, OptioAUnitWithoutItsLeaderIsRefused) {
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{1, 4}, {1}, {}})),
            "campaign.selection.command");
}

TEST(CampaignSelection, OptioTheGeneralMustFight) {
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{4, 5}, {2}, {}})),
            "campaign.selection.general");
}

TEST(CampaignSelection, OptioOnlyWhatTheRosterHasOnce) {
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{1, 9}, {1}, {}})),
            "campaign.selection.roster");
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{1, 1}, {1}, {}})),
            "campaign.selection.roster");
  EXPECT_EQ(rule_of(check_selection(limit(3), army(), {{1}, {1, 8}, {}})),
            "campaign.selection.roster");
}

TEST(CampaignSelection, LimitZeroTakesTheWholeRosterOnly) {
  // The idle leader has no unit of his command: he stays behind.
  const Selection whole{{4, 5, 1, 2, 3}, {1, 2}, {}};
  EXPECT_EQ(whole_roster(army()), whole);
  EXPECT_EQ(rule_of(check_selection(limit(0), army(), {{1, 2, 3, 4, 5}, {2, 1}, {}})), "");
  EXPECT_EQ(rule_of(check_selection(limit(0), army(), {{1}, {1}, {}})), "campaign.selection.whole");
}

TEST(CampaignSelection, OptioDefaultTakesTheGeneralsFirstUnitThenRosterOrder) {
  EXPECT_EQ(default_selection(limit(2), army()), (Selection{{4, 1}, {1, 2}, {}}));
  EXPECT_EQ(default_selection(limit(1), army()), (Selection{{1}, {1}, {}}));
  EXPECT_EQ(default_selection(limit(4), army()), (Selection{{4, 5, 1, 2}, {1, 2}, {}}));
  EXPECT_EQ(default_selection(limit(9), army()), whole_roster(army()));
}

TEST(CampaignSelection, OptioTheDefaultIsAlwaysLegal) {
  for (int n = 1; n <= 6; ++n)
    EXPECT_EQ(rule_of(check_selection(limit(n), army(), default_selection(limit(n), army()))), "")
        << "limit " << n;
}

stand::Figures figures(int infantry, int archers, int cavalry, int chariots) {
  stand::Figures f;
  f.n = {infantry, archers, cavalry, chariots};
  return f;
}

Roster hittites() {
  return {"Hatti", StandRoster{figures(10, 4, 3, 1)}};
}

TEST(CampaignSelection, StandUpToTheLimitFromTheRoster) {
  EXPECT_EQ(rule_of(check_selection(limit(10), hittites(), {{}, {}, figures(6, 2, 2, 0)})), "");
  EXPECT_EQ(rule_of(check_selection(limit(10), hittites(), {{}, {}, figures(6, 2, 2, 1)})),
            "campaign.selection.limit");
  EXPECT_EQ(rule_of(check_selection(limit(10), hittites(), {{}, {}, figures(0, 0, 0, 2)})),
            "campaign.selection.roster");
  EXPECT_EQ(rule_of(check_selection(limit(10), hittites(), {{}, {}, figures(0, 0, 0, 0)})),
            "campaign.selection.empty");
  EXPECT_EQ(rule_of(check_selection(limit(10), hittites(), {{1}, {}, figures(1, 0, 0, 0)})),
            "campaign.selection.form");
}

// Shares of 10 out of 18: 5.56, 2.22, 1.67, 0.56; rounded down 5, 2, 1, 0; the two left over
// go to cavalry (remainder 12/18) and then infantry (10/18, tied with chariots, first in order).
TEST(CampaignSelection, StandDefaultIsEachTypesShareByLargestRemainder) {
  EXPECT_EQ(default_selection(limit(10), hittites()), (Selection{{}, {}, figures(6, 2, 2, 0)}));
  EXPECT_EQ(default_selection(limit(1), hittites()), (Selection{{}, {}, figures(1, 0, 0, 0)}));
  EXPECT_EQ(default_selection(limit(18), hittites()), (Selection{{}, {}, figures(10, 4, 3, 1)}));
}

TEST(CampaignSelection, CanFieldNeedsAGeneralWithHisCommandOrAFigure) {
  EXPECT_TRUE(can_field(army()));
  Roster no_general_command = army();
  std::erase_if(std::get<OptioRoster>(no_general_command.game).units,
                [](const OptioUnit& u) { return u.command == 1; });
  EXPECT_FALSE(can_field(no_general_command));
  EXPECT_TRUE(can_field(hittites()));
  EXPECT_FALSE(can_field({"Hatti", StandRoster{}}));
}

}  // namespace
}  // namespace castra::campaign
