// The battle's scenario from a map and what each side fields, written out by hand.
#include <gtest/gtest.h>

#include "common/campaign/battle.hpp"

namespace castra::campaign {
namespace {

using optio::UnitType;
using rules::Side;

std::array<Roster, 2> rosters() {
  OptioRoster a;
  a.units = {{1, UnitType::kHeavyInfantry, 2, 1, 3, "hastati"},
             {2, UnitType::kHeavyInfantry, 2, 1, 0, "principes"},
             {4, UnitType::kCavalry, 2, 2, 0, "equites"}};
  a.leaders = {{1, true, 1, 0, "Scipio"}, {2, false, 2, 3, "Laelius"}};
  OptioRoster b;
  b.units = {{11, UnitType::kWarband, 4, 3, 0, "Boii"}};
  b.leaders = {{3, true, 3, 0, "Hannibal"}};
  return {Roster{"Rome", a}, Roster{"Carthage", b}};
}

optio::ScenarioUnit place(int id, Side side, int col, int row, int facing) {
  optio::ScenarioUnit u;
  u.id = id;
  u.side = side;
  u.at = optio::Square{col, row};
  u.facing = facing;
  return u;
}

BattleNode fixed_battle() {
  optio::Scenario map;
  map.name = "trebia";
  map.cols = 8;
  map.rows = 6;
  map.deployment = optio::DeploymentMode::kFixed;
  map.units = {place(1, Side::kA, 2, 1, 2), place(2, Side::kA, 3, 1, 2),
               place(4, Side::kA, 5, 1, 2), place(11, Side::kB, 3, 6, 0)};
  map.leaders = {{1, Side::kA, true, 1, 2, 0, ""},
                 {2, Side::kA, false, 2, 4, 0, ""},
                 {3, Side::kB, true, 3, 11, 0, ""}};
  BattleNode node;
  node.id = "trebia";
  node.map = map;
  node.selection_limit = 2;
  return node;
}

TEST(CampaignBattle, OptioFixedDeploymentPlacesTheFieldedUnitsByIdWithTheirMorale) {
  auto map = battle_scenario(fixed_battle(), rosters(),
                             {Selection{{1, 4}, {1, 2}, {}}, Selection{{11}, {3}, {}}});
  ASSERT_TRUE(map.ok()) << map.error().message;
  const auto& sc = std::get<optio::Scenario>(*map);
  std::vector<optio::ScenarioUnit> units = {
      place(1, Side::kA, 2, 1, 2), place(4, Side::kA, 5, 1, 2), place(11, Side::kB, 3, 6, 0)};
  units[0].type = UnitType::kHeavyInfantry;
  units[0].bases = 2;
  units[0].command = 1;
  units[0].morale = 3;
  units[0].name = "hastati";
  units[1].type = UnitType::kCavalry;
  units[1].bases = 2;
  units[1].command = 2;
  units[1].name = "equites";
  units[2].type = UnitType::kWarband;
  units[2].bases = 4;
  units[2].command = 3;
  units[2].name = "Boii";
  EXPECT_EQ(sc.units, units);
  EXPECT_EQ(sc.name, "trebia");
  EXPECT_EQ(sc.cols, 8);
}

TEST(CampaignBattle, OptioALeaderWhoseStartUnitStaysBehindRidesWithAnotherOfHisCommand) {
  auto map = battle_scenario(fixed_battle(), rosters(),
                             {Selection{{1, 4}, {1, 2}, {}}, Selection{{11}, {3}, {}}});
  ASSERT_TRUE(map.ok()) << map.error().message;
  const std::vector<optio::ScenarioLeader> leaders = {{1, Side::kA, true, 1, 1, 0, "Scipio"},
                                                      {2, Side::kA, false, 2, 4, 3, "Laelius"},
                                                      {3, Side::kB, true, 3, 11, 0, "Hannibal"}};
  EXPECT_EQ(std::get<optio::Scenario>(*map).leaders, leaders);
}

TEST(CampaignBattle, OptioAFieldedUnitTheMapDoesNotPlaceIsRefused) {
  BattleNode node = fixed_battle();
  std::get<optio::Scenario>(node.map).units.pop_back();
  auto map = battle_scenario(node, rosters(), {Selection{{1}, {1}, {}}, Selection{{11}, {3}, {}}});
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error().rule, "campaign.battle.placement");
}

TEST(CampaignBattle, OptioZonesLeaveThePlacingToThePlayers) {
  BattleNode node = fixed_battle();
  auto& map = std::get<optio::Scenario>(node.map);
  map.deployment = optio::DeploymentMode::kZones;
  map.units.clear();
  map.leaders.clear();
  auto sc = battle_scenario(node, rosters(), {Selection{{2}, {1}, {}}, Selection{{11}, {3}, {}}});
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  const auto& out = std::get<optio::Scenario>(*sc);
  ASSERT_EQ(out.units.size(), 2u);
  EXPECT_FALSE(out.units[0].at.has_value());
  EXPECT_EQ(out.leaders[0].unit, 0);
}

stand::Figures figures(int infantry, int archers, int cavalry, int chariots) {
  stand::Figures f;
  f.n = {infantry, archers, cavalry, chariots};
  return f;
}

TEST(CampaignBattle, StandTheFieldedFiguresAreTheArmies) {
  stand::Scenario map;
  map.name = "qadesh";
  map.width = 8;
  map.height = 6;
  map.armies = {stand::Army{"placeholder", figures(1, 0, 0, 0)},
                stand::Army{"placeholder", figures(1, 0, 0, 0)}};
  BattleNode node;
  node.id = "qadesh";
  node.map = map;
  const std::array<Roster, 2> rosters = {Roster{"Egypt", StandRoster{figures(9, 9, 9, 9)}},
                                         Roster{"Hatti", StandRoster{figures(9, 9, 9, 9)}}};
  auto sc = battle_scenario(
      node, rosters,
      {Selection{{}, {}, figures(3, 2, 0, 1)}, Selection{{}, {}, figures(0, 0, 4, 2)}});
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  const auto& out = std::get<stand::Scenario>(*sc);
  EXPECT_EQ(out.armies[0], (stand::Army{"Egypt", figures(3, 2, 0, 1)}));
  EXPECT_EQ(out.armies[1], (stand::Army{"Hatti", figures(0, 0, 4, 2)}));
}

stand::Placement place(Side side, int col, int row, stand::Figures room) {
  return {side, {col, row}, room, 1, stand::Posture::kStanding};
}

BattleNode fixed_stand_battle() {
  stand::Scenario map;
  map.name = "ford";
  map.width = 8;
  map.height = 6;
  map.first_side = Side::kB;
  map.placements = {
      place(Side::kA, 1, 0, figures(6, 2, 0, 0)), place(Side::kB, 1, 5, figures(8, 0, 0, 0)),
      place(Side::kA, 2, 0, figures(6, 2, 0, 0)), place(Side::kA, 4, 0, figures(0, 0, 4, 1))};
  BattleNode node;
  node.id = "ford";
  node.map = map;
  return node;
}

// Side A fields 8 infantry, 3 archers and 1 chariot: the first place takes 6 and 2, the second
// the other 2 and 1, the third the chariot; B's 5 go to its one place.
TEST(CampaignBattle, StandAFixedDeploymentsPlacesAreFilledInOrder) {
  const std::array<Roster, 2> rosters = {Roster{"Egypt", StandRoster{figures(9, 9, 9, 9)}},
                                         Roster{"Hatti", StandRoster{figures(9, 9, 9, 9)}}};
  auto sc = battle_scenario(
      fixed_stand_battle(), rosters,
      {Selection{{}, {}, figures(8, 3, 0, 1)}, Selection{{}, {}, figures(5, 0, 0, 0)}});
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  const auto& out = std::get<stand::Scenario>(*sc);
  const std::vector<stand::Placement> want = {
      place(Side::kA, 1, 0, figures(6, 2, 0, 0)), place(Side::kB, 1, 5, figures(5, 0, 0, 0)),
      place(Side::kA, 2, 0, figures(2, 1, 0, 0)), place(Side::kA, 4, 0, figures(0, 0, 0, 1))};
  EXPECT_EQ(out.placements, want);
  EXPECT_EQ(out.armies[0], (stand::Army{"Egypt", figures(8, 3, 0, 1)}));
  EXPECT_EQ(out.first_side, Side::kB);
}

TEST(CampaignBattle, StandAnEmptyPlaceIsDroppedAndOneWithoutRoomRefused) {
  const std::array<Roster, 2> rosters = {Roster{"Egypt", StandRoster{figures(20, 9, 9, 9)}},
                                         Roster{"Hatti", StandRoster{figures(9, 9, 9, 9)}}};
  auto sc = battle_scenario(
      fixed_stand_battle(), rosters,
      {Selection{{}, {}, figures(4, 0, 0, 0)}, Selection{{}, {}, figures(5, 0, 0, 0)}});
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(std::get<stand::Scenario>(*sc).placements.size(), 2u);
  auto crowded = battle_scenario(
      fixed_stand_battle(), rosters,
      {Selection{{}, {}, figures(13, 0, 0, 0)}, Selection{{}, {}, figures(5, 0, 0, 0)}});
  ASSERT_FALSE(crowded.ok());
  EXPECT_EQ(crowded.error().rule, "campaign.battle.placement");
  EXPECT_EQ(crowded.error().message, "the map's placements have no room for 1 infantry of side A");
}

}  // namespace
}  // namespace castra::campaign
