// Section 10 of shared/rules/optio.md: every worked example, as written.
#include <gtest/gtest.h>

#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

constexpr int kS = 2;  // facing south, side A's front
constexpr int kN = 0;  // facing north, side B's front

// A warband (5,3) in its general's chain, facing a heavy_infantry unit two squares south.
Battle warband_and_legion(Formation legion_formation) {
  Battle b;
  b.unit(1, Side::kA, UnitType::kWarband, {5, 3}, kS)
      .unit(3, Side::kA, UnitType::kHeavyInfantry, {4, 3}, kS)
      .unit(2, Side::kB, UnitType::kHeavyInfantry, {5, 5}, kN, 0, 2, legion_formation)
      .unit(4, Side::kB, UnitType::kHeavyInfantry, {10, 8}, kN)
      .leader(1, Side::kA, true, 1, 3)
      .leader(2, Side::kB, true, 2, 4);
  return b;
}

TEST(OptioExamples, WarbandChargingLegionaryFrontallyInflictsTwo) {
  State s = warband_and_legion(Formation::kLine).start();
  const auto ev = play(s, Side::kA, advance(1, {{{5, 4}, kS}}));
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].kind, FightKind::kCharge);
  EXPECT_EQ(fights[0].hits_a, 4);
  EXPECT_EQ(fights[0].hits_b, 2);
  EXPECT_EQ(s.unit(2)->morale, 2);
  EXPECT_EQ(s.unit(1)->morale, 3);
}

TEST(OptioExamples, WarbandChargingLegionaryInColumnInflictsThree) {
  State s = warband_and_legion(Formation::kColumn).start();
  const auto ev = play(s, Side::kA, advance(1, {{{5, 4}, kS}}));
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].shift_b, -2);
  EXPECT_EQ(fights[0].hits_a, 4);
  EXPECT_EQ(fights[0].hits_b, 1);
  EXPECT_EQ(s.unit(2)->morale, 1);
}

// Two units already in contact, front to front, and the melee phase that follows.
std::vector<Event> melee_of(State& s, Dice& d) {
  play(s, Side::kA, cmd::EndPhase{}, d);
  return play(s, Side::kB, cmd::EndPhase{}, d);
}

Battle face_to_face(UnitType a, int bases_a, UnitType b) {
  Battle bt;
  bt.unit(1, Side::kA, a, {5, 4}, kS, 0, bases_a)
      .unit(2, Side::kB, b, {5, 5}, kN)
      .unit(3, Side::kA, UnitType::kHeavyInfantry, {12, 1}, kS)
      .unit(4, Side::kB, UnitType::kHeavyInfantry, {12, 8}, kN)
      .unit(5, Side::kB, UnitType::kHeavyInfantry, {14, 8}, kN)
      .leader(1, Side::kA, true, 1, 3)
      .leader(2, Side::kB, true, 2, 4);
  return bt;
}

TEST(OptioExamples, MeleeLegionaryAgainstLightInfantryCostsItOne) {
  State s = face_to_face(UnitType::kHeavyInfantry, 2, UnitType::kLightInfantry).start();
  NoDice d;
  const auto ev = melee_of(s, d);
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].kind, FightKind::kMelee);
  EXPECT_EQ(fights[0].hits_a, 3);
  EXPECT_EQ(fights[0].hits_b, 2);
  EXPECT_EQ(s.unit(2)->morale, 2);  // light_infantry 2-1 starts at 3
  EXPECT_EQ(s.unit(1)->morale, 4);
}

TEST(OptioExamples, MeleeTieBetweenLegionariesCostsEachOne) {
  State s = face_to_face(UnitType::kHeavyInfantry, 2, UnitType::kHeavyInfantry).start();
  NoDice d;
  const auto ev = melee_of(s, d);
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].hits_a, 3);
  EXPECT_EQ(fights[0].hits_b, 3);
  EXPECT_EQ(s.unit(1)->morale, 3);
  EXPECT_EQ(s.unit(2)->morale, 3);
}

TEST(OptioExamples, DeepPikesWithTheirGeneralScoreEightAgainstThree) {
  Battle bt = face_to_face(UnitType::kPikes, 4, UnitType::kHeavyInfantry);
  bt.sc.leaders[0].unit = 1;  // the general stands with the pikes
  State s = bt.start();
  FixedDice d({1});
  const auto ev = melee_of(s, d);
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].shift_a, 2);
  EXPECT_EQ(fights[0].hits_a, 8);
  EXPECT_EQ(fights[0].hits_b, 3);
  EXPECT_EQ(fights[0].loss_b, 5);
  EXPECT_TRUE(s.unit(2)->routed);  // 4 intervals, 5 lost
  EXPECT_EQ(d.used(), 1u);         // the general's die
}

TEST(OptioExamples, SkirmishersShootingTwiceRestartTheMissileCount) {
  Battle bt;
  bt.unit(1, Side::kA, UnitType::kSkirmishers, {5, 3}, kS)
      .unit(2, Side::kB, UnitType::kHeavyInfantry, {5, 5}, kN)
      .unit(3, Side::kA, UnitType::kHeavyInfantry, {12, 1}, kS)
      .unit(4, Side::kB, UnitType::kHeavyInfantry, {12, 8}, kN)
      .leader(1, Side::kA, true, 1, 3)
      .leader(2, Side::kB, true, 2, 4);
  State s = bt.start();
  s.unit(2)->missile_hits = 3;
  auto ev = play(s, Side::kA, cmd::Shoot{1, 2});
  ASSERT_EQ(events_of<ev::Shot>(ev).size(), 1u);
  EXPECT_EQ(events_of<ev::Shot>(ev)[0].hits, 1);
  EXPECT_EQ(s.unit(2)->missile_hits, 0);
  EXPECT_EQ(s.unit(2)->morale, 3);
  play(s, Side::kA, cmd::EndPhase{});
  play(s, Side::kB, cmd::EndPhase{});
  ASSERT_EQ(s.turn, 2);
  play(s, Side::kA, cmd::Shoot{1, 2});
  EXPECT_EQ(s.unit(2)->missile_hits, 1);
  EXPECT_EQ(s.unit(2)->morale, 3);
}

// The orders-path example: path (2,1) (3,2) (4,3) (5,4), range 2, subcommander on (2,1).
// Units of his command stand on every square the example names.
TEST(OptioExamples, OrdersPathRangeAndProgress) {
  Battle bt;
  int id = 1;
  for (Square q :
       {Square{2, 1}, Square{4, 2}, Square{5, 2}, Square{4, 3}, Square{6, 5}, Square{7, 3}}) {
    bt.unit(id++, Side::kA, UnitType::kHeavyInfantry, q, kS, 3);
  }
  bt.unit(10, Side::kA, UnitType::kHeavyInfantry, {14, 1}, kS)
      .unit(20, Side::kB, UnitType::kHeavyInfantry, {14, 8}, kN)
      .leader(1, Side::kA, true, 1, 10)
      .leader(2, Side::kB, true, 2, 20)
      .leader(3, Side::kA, false, 3, 1, 2);
  State s = bt.start({{3, {{2, 1}, {3, 2}, {4, 3}, {5, 4}}}});
  NoDice d;
  EXPECT_TRUE(Game::decide(s, Side::kA, cmd::MoveLeader{3, 2}, d).ok());  // (4,2)
  const RuleError e = refusal(s, Side::kA, cmd::MoveLeader{3, 3});        // (5,2)
  EXPECT_EQ(e.rule, "optio.4.orders");
  EXPECT_EQ(e.message, "orders: (5,2) is 3 squares from your progress square (2,1); range is 2");
  play(s, Side::kA, cmd::MoveLeader{3, 4});  // (4,3)
  EXPECT_EQ(s.leader(3)->progress, 2);
  play(s, Side::kA, cmd::EndPhase{});
  play(s, Side::kB, cmd::EndPhase{});
  EXPECT_TRUE(Game::decide(s, Side::kA, cmd::MoveLeader{3, 5}, d).ok());  // (6,5)
  const RuleError e2 = refusal(s, Side::kA, cmd::MoveLeader{3, 6});       // (7,3)
  EXPECT_EQ(e2.message, "orders: (7,3) is 3 squares from your progress square (4,3); range is 2");
}

}  // namespace
}  // namespace castra::rules::optio::testing
