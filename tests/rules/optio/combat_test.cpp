// Sections 6 to 9: charges, shooting, the melee phase, modifiers, routs, leader dice,
// disorder recovery, army break and the turn limit; and the legal-command list.
#include <gtest/gtest.h>

#include "common/rules/optio/internal.hpp"
#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

constexpr int kN = 0, kE = 1, kS = 2, kW = 3;
constexpr Side kA = Side::kA, kB = Side::kB;
using UT = UnitType;

// A's unit 1 (type a) at (5,3) facing south, in command through unit 3 at (4,3) where A's
// general stands; B's unit 2 (type b) at (5,5) facing `b_facing`; B's general with unit 4.
Battle charge_battle(UT a, UT b, int b_facing = kN) {
  Battle bt;
  bt.unit(1, kA, a, {5, 3}, kS)
      .unit(3, kA, UT::kHeavyInfantry, {4, 3}, kS)
      .unit(2, kB, b, {5, 5}, b_facing)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .unit(5, kB, UT::kHeavyInfantry, {14, 8}, kN)
      .leader(1, kA, true, 1, 3)
      .leader(2, kB, true, 2, 4);
  return bt;
}

const cmd::Advance kChargeFrom53 = {1, {{{5, 4}, kS}}};

// ---- charges ------------------------------------------------------------------------------

TEST(OptioCharge, ATieInChargeCombatDoesNothing) {
  State s = charge_battle(UT::kHeavyInfantry, UT::kHeavyInfantry).start();
  const auto ev = play(s, kA, kChargeFrom53);
  ASSERT_EQ(events_of<ev::Fight>(ev).size(), 1u);
  EXPECT_EQ(events_of<ev::MoraleChanged>(ev).size(), 0u);
  EXPECT_EQ(s.unit(1)->morale, 4);
  EXPECT_EQ(s.unit(2)->morale, 4);
  EXPECT_TRUE(s.unit(1)->charged_this_phase);
}

TEST(OptioCharge, AnAdvanceWithoutAnEnemyAheadIsNoCharge) {
  State s = charge_battle(UT::kHeavyInfantry, UT::kHeavyInfantry).start();
  const auto ev = play(s, kA, advance(1, {{{6, 4}, kS}}));  // the enemy is diagonally ahead
  EXPECT_EQ(events_of<ev::Fight>(ev).size(), 0u);
}

TEST(OptioCharge, AShooterChargedFromItsFrontShootsAtTheChargerFirst) {
  State s = charge_battle(UT::kWarband, UT::kArchers).start();
  const auto ev = play(s, kA, kChargeFrom53);
  const auto shots = events_of<ev::Shot>(ev);
  ASSERT_EQ(shots.size(), 1u);
  EXPECT_TRUE(shots[0].at_charger);
  EXPECT_EQ(shots[0].hits, 2);
  EXPECT_EQ(s.unit(1)->missile_hits, 2);
  EXPECT_FALSE(s.unit(2)->shot_this_phase);
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].hits_a, 4);
  EXPECT_EQ(fights[0].hits_b, 1);
  EXPECT_TRUE(s.unit(2)->routed);  // archers 1-2 start at 3 and lose 3
}

TEST(OptioCharge, AShooterChargedInTheFlankDoesNotShoot) {
  State s = charge_battle(UT::kWarband, UT::kArchers, kE).start();
  const auto ev = play(s, kA, kChargeFrom53);
  EXPECT_EQ(events_of<ev::Shot>(ev).size(), 0u);
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].shift_b, -2);
}

TEST(OptioCharge, AChargerRoutedByShootingHasNoChargeCombat) {
  State s = charge_battle(UT::kWarband, UT::kArchers).start();
  s.unit(1)->morale = 1;
  s.unit(1)->missile_hits = 3;
  const auto ev = play(s, kA, kChargeFrom53);
  EXPECT_EQ(events_of<ev::Fight>(ev).size(), 0u);
  EXPECT_EQ(events_of<ev::LeaderRoll>(ev).size(), 0u);
  EXPECT_TRUE(s.unit(1)->routed);
}

TEST(OptioCharge, AUnitMayShootThenChargeButNotChargeThenShoot) {
  State s = charge_battle(UT::kCavalry, UT::kHeavyInfantry).start();
  s.unit(2)->pos = {5, 6};
  play(s, kA, advance(1, {{{5, 4}, kS}, {{5, 5}, kS}}));
  EXPECT_EQ(refusal(s, kA, cmd::Shoot{1, 2}).message,
            "cavalry 1 at (5,5) charged; it may not shoot after a charge");
  State t = charge_battle(UT::kArchers, UT::kHeavyInfantry).start();
  play(t, kA, cmd::Shoot{1, 2});
  const auto ev = play(t, kA, kChargeFrom53);
  EXPECT_EQ(events_of<ev::Fight>(ev).size(), 1u);
}

TEST(OptioCharge, DefendingAFordGivesTheChargedUnitPlusOne) {
  Battle bt = charge_battle(UT::kWarband, UT::kHeavyInfantry);
  bt.terrain({5, 5}, Terrain::kFord);
  State s = bt.start();
  const auto ev = play(s, kA, kChargeFrom53);
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].shift_b, 1);
  EXPECT_EQ(s.unit(2)->morale, 3);
}

TEST(OptioCharge, TheChargersLeaderRollsFirst) {
  Battle bt = charge_battle(UT::kWarband, UT::kHeavyInfantry);
  bt.sc.leaders[0].unit = 1;
  bt.sc.leaders[1].unit = 2;
  State s = bt.start();
  FixedDice d({2, 3});
  const auto ev = play(s, kA, kChargeFrom53, d);
  const auto rolls = events_of<ev::LeaderRoll>(ev);
  ASSERT_EQ(rolls.size(), 2u);
  EXPECT_EQ(rolls[0].leader, 1);
  EXPECT_EQ(rolls[0].first, 2);
  EXPECT_EQ(rolls[1].leader, 2);
  EXPECT_EQ(rolls[1].first, 3);
}

// ---- shooting ------------------------------------------------------------------------------

State shooting(UT shooter, Square target_at, int bases = 2) {
  Battle bt;
  bt.unit(1, kA, shooter, {5, 3}, kS, 0, bases)
      .unit(2, kB, UT::kHeavyInfantry, target_at, kN)
      .unit(3, kA, UT::kHeavyInfantry, {12, 1}, kS)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .leader(1, kA, true, 1, 3)
      .leader(2, kB, true, 2, 4)
      .terrain({7, 5}, Terrain::kWoods);
  return bt.start();
}

TEST(OptioShooting, ArchersShootTwoSquaresStraightOrDiagonallyAhead) {
  State s = shooting(UT::kArchers, {3, 5});
  const auto ev = play(s, kA, cmd::Shoot{1, 2});
  EXPECT_EQ(events_of<ev::Shot>(ev)[0].hits, 2);
  EXPECT_EQ(refusal(s, kA, cmd::Shoot{1, 2}).message,
            "archers 1 at (5,3) has already shot this phase");
  State t = shooting(UT::kArchers, {2, 5});
  EXPECT_EQ(refusal(t, kA, cmd::Shoot{1, 2}).message,
            "(2,5) is not within archers range 2 straight or diagonally ahead");
}

TEST(OptioShooting, OnlyShootersShootAndOnlyAtTheEnemy) {
  State s = shooting(UT::kHeavyInfantry, {5, 5});
  EXPECT_EQ(refusal(s, kA, cmd::Shoot{1, 2}).message, "heavy_infantry do not shoot");
  State t = shooting(UT::kArchers, {5, 5});
  EXPECT_EQ(refusal(t, kA, cmd::Shoot{1, 3}).rule, "optio.7.shoot");
}

TEST(OptioShooting, AUnitInContactDoesNotShoot) {
  State s = shooting(UT::kArchers, {5, 4});
  EXPECT_EQ(refusal(s, kA, cmd::Shoot{1, 2}).message,
            "archers 1 at (5,3) is in contact and may not shoot");
}

TEST(OptioShooting, TargetInWoodsAndThinShooterEachShiftMinusOne) {
  State s = shooting(UT::kArchers, {7, 5});
  auto ev = play(s, kA, cmd::Shoot{1, 2});
  EXPECT_EQ(events_of<ev::Shot>(ev)[0].shift, -1);
  EXPECT_EQ(events_of<ev::Shot>(ev)[0].hits, 1);
  State t = shooting(UT::kArchers, {5, 5}, 1);
  ev = play(t, kA, cmd::Shoot{1, 2});
  EXPECT_EQ(events_of<ev::Shot>(ev)[0].hits, 1);
}

// ---- melee ---------------------------------------------------------------------------------

std::vector<Event> to_melee(State& s, Dice& d) {
  play(s, kA, cmd::EndPhase{}, d);
  return play(s, kB, cmd::EndPhase{}, d);
}

// A's unit 1 heavy_infantry at (5,4) facing south; B's units placed by the caller.
Battle melee_battle() {
  Battle bt;
  bt.unit(1, kA, UT::kHeavyInfantry, {5, 4}, kS)
      .unit(3, kA, UT::kHeavyInfantry, {12, 1}, kS)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .unit(5, kB, UT::kHeavyInfantry, {14, 8}, kN)
      .unit(6, kB, UT::kHeavyInfantry, {16, 8}, kN)
      .leader(1, kA, true, 1, 3)
      .leader(2, kB, true, 2, 4);
  return bt;
}

TEST(OptioMelee, FlankAndRearCostTwoAndThree) {
  Battle f = melee_battle();
  f.unit(2, kB, UT::kHeavyInfantry, {4, 4}, kE);
  State s = f.start();
  NoDice d;
  auto fights = events_of<ev::Fight>(to_melee(s, d));
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].shift_a, -2);
  EXPECT_EQ(fights[0].hits_a, 1);
  EXPECT_EQ(s.unit(1)->morale, 2);
  Battle r = melee_battle();
  r.unit(2, kB, UT::kHeavyInfantry, {5, 3}, kS);
  State t = r.start();
  fights = events_of<ev::Fight>(to_melee(t, d));
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].shift_a, -3);
  EXPECT_EQ(fights[0].hits_a, 1);
}

TEST(OptioMelee, UnitsSideBySideWithoutFacingDoNotFight) {
  Battle bt = melee_battle();
  bt.unit(2, kB, UT::kHeavyInfantry, {4, 4}, kS);
  State s = bt.start();
  NoDice d;
  EXPECT_EQ(events_of<ev::Fight>(to_melee(s, d)).size(), 0u);
}

TEST(OptioMelee, AUnitInTwoMeleesAddsItsLosses) {
  Battle bt = melee_battle();
  bt.unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN).unit(7, kB, UT::kHeavyInfantry, {6, 4}, kW);
  State s = bt.start();
  NoDice d;
  const auto ev = to_melee(s, d);
  ASSERT_EQ(events_of<ev::Fight>(ev).size(), 2u);
  EXPECT_EQ(s.unit(1)->morale, 1);  // 1 from the tie in front, 2 from the flank
  EXPECT_EQ(s.unit(2)->morale, 3);
  EXPECT_EQ(s.unit(7)->morale, 4);
}

TEST(OptioMelee, ATieAtZeroStillCostsBothOneAndBothArmiesBreakingIsADraw) {
  Battle bt;
  bt.unit(1, kA, UT::kSkirmishers, {5, 4}, kS, 0, 1)
      .unit(2, kB, UT::kSkirmishers, {5, 5}, kN, 0, 1)
      .unit(3, kA, UT::kHeavyInfantry, {12, 1}, kS)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .leader(1, kA, true, 1, 3)
      .leader(2, kB, true, 2, 4);
  State s = bt.start();
  for (int id : {1, 2}) {
    s.unit(id)->disordered = true;
    s.unit(id)->disorder_turns = 1;
    s.unit(id)->morale = 1;
  }
  NoDice d;
  const auto ev = to_melee(s, d);
  const auto fights = events_of<ev::Fight>(ev);
  ASSERT_EQ(fights.size(), 1u);
  EXPECT_EQ(fights[0].hits_a, 0);
  EXPECT_EQ(fights[0].hits_b, 0);
  EXPECT_EQ(events_of<ev::Routed>(ev).size(), 2u);
  ASSERT_TRUE(Game::outcome(s));
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kDraw);
}

// ---- routs and leaders ----------------------------------------------------------------------

TEST(OptioRout, AdjacentEnemiesRegainOneIntervalNeverAboveTheirStart) {
  Battle bt = melee_battle();
  bt.sc.units[0].type = UT::kPikes;
  bt.sc.units[0].bases = 4;
  bt.sc.leaders[0].unit = 1;
  bt.unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN)
      .unit(7, kA, UT::kHeavyInfantry, {6, 6}, kN)   // diagonally next to unit 2
      .unit(8, kA, UT::kHeavyInfantry, {4, 6}, kE);  // also next to it, at full morale
  State s = bt.start();
  s.unit(7)->morale = 2;
  FixedDice d({1});
  const auto ev = to_melee(s, d);
  EXPECT_TRUE(s.unit(2)->routed);
  EXPECT_EQ(s.unit(7)->morale, 3);
  EXPECT_EQ(s.unit(8)->morale, 4);
}

TEST(OptioRout, ALeaderWhoseUnitRoutsGoesToTheNearestUnitOfHisCommand) {
  Battle bt = melee_battle();
  bt.unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN)
      .unit(7, kA, UT::kHeavyInfantry, {8, 1}, kS)
      .unit(9, kA, UT::kHeavyInfantry, {2, 1}, kS);  // both 3 from (5,4): row 1, then column 2
  bt.sc.leaders[0].unit = 1;
  State s = bt.start();
  s.unit(1)->morale = 1;
  FixedDice d({1});
  const auto ev = to_melee(s, d);
  ASSERT_TRUE(s.unit(1)->routed);
  const auto routs = events_of<ev::Routed>(ev);
  ASSERT_EQ(routs.size(), 1u);
  ASSERT_EQ(routs[0].leaders.size(), 1u);
  EXPECT_EQ(routs[0].leaders[0].to_unit, 9);
  EXPECT_EQ(s.leader(1)->unit, 9);
  EXPECT_EQ(d.used(), 1u);  // he still rolls for the fight his unit lost
}

TEST(OptioRout, ALeaderWithNoUnitLeftLeavesTheGame) {
  Battle bt;
  bt.unit(1, kA, UT::kHeavyInfantry, {5, 4}, kS, 3)
      .unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN)
      .unit(3, kA, UT::kHeavyInfantry, {12, 1}, kS)
      .unit(10, kA, UT::kHeavyInfantry, {13, 1}, kS)
      .unit(11, kA, UT::kHeavyInfantry, {14, 1}, kS)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .leader(1, kA, true, 1, 3)
      .leader(2, kB, true, 2, 4)
      .leader(3, kA, false, 3, 1);
  State s = bt.start();
  s.unit(1)->morale = 1;
  FixedDice d({1});
  to_melee(s, d);
  EXPECT_EQ(s.leader(3)->status, LeaderStatus::kGone);
  EXPECT_FALSE(Game::outcome(s));
}

// A's general with unit 1 in a melee tie against B's heavy infantry, each turn.
State dice_battle() {
  Battle bt = melee_battle();
  bt.sc.leaders[0].unit = 1;
  bt.unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN);
  return bt.start();
}

TEST(OptioDice, ASixWoundsAndASecondSixKills) {
  State s = dice_battle();
  FixedDice d({6, 6});
  const auto rolls = events_of<ev::LeaderRoll>(to_melee(s, d));
  ASSERT_EQ(rolls.size(), 1u);
  EXPECT_EQ(rolls[0].fate, LeaderFate::kKilled);
  EXPECT_EQ(s.leader(1)->status, LeaderStatus::kKilled);
  EXPECT_EQ(s.leader(1)->unit, 0);
}

TEST(OptioDice, AWoundedLeaderIsKilledByHisNextSix) {
  State s = dice_battle();
  FixedDice d({6, 2, 5, 6});
  auto rolls = events_of<ev::LeaderRoll>(to_melee(s, d));
  ASSERT_EQ(rolls.size(), 1u);
  EXPECT_EQ(rolls[0].fate, LeaderFate::kWounded);
  EXPECT_TRUE(s.leader(1)->wounded);
  rolls = events_of<ev::LeaderRoll>(to_melee(s, d));
  EXPECT_EQ(rolls[0].fate, LeaderFate::kUnharmed);
  rolls = events_of<ev::LeaderRoll>(to_melee(s, d));
  EXPECT_EQ(rolls[0].fate, LeaderFate::kKilled);
  EXPECT_TRUE(d.exhausted());
}

// The "Leader dice" ruling: A's general stands with unit 1, the only unit of his command; it
// routs in a melee with B's heavy infantry. Side A starts with 3 units (units 3 and 10 are a
// subcommander's), so one rout breaks A only with its general killed (1 x 3 >= 3).
Battle leaving_general_battle() {
  Battle bt;
  bt.unit(1, kA, UT::kHeavyInfantry, {5, 4}, kS, 1)
      .unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN)
      .unit(3, kA, UT::kHeavyInfantry, {12, 1}, kS, 3)
      .unit(10, kA, UT::kHeavyInfantry, {13, 1}, kS, 3)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .leader(1, kA, true, 1, 1)
      .leader(2, kB, true, 2, 4)
      .leader(3, kA, false, 3, 3);
  return bt;
}

TEST(OptioDice, ALeaderLeavingTheGameWithHisRoutedUnitStillRollsForThatFight) {
  State s = leaving_general_battle().start();
  s.unit(1)->morale = 1;
  FixedDice d({3});
  const auto rolls = events_of<ev::LeaderRoll>(to_melee(s, d));
  ASSERT_TRUE(s.unit(1)->routed);
  ASSERT_EQ(rolls.size(), 1u);
  EXPECT_EQ(rolls[0].leader, 1);
  EXPECT_EQ(rolls[0].fate, LeaderFate::kUnharmed);
  EXPECT_EQ(s.leader(1)->status, LeaderStatus::kGone);
  EXPECT_FALSE(Game::outcome(s));  // gone is not killed: no break at one rout in three
}

TEST(OptioDice, AGeneralKilledByThatRollCountsAsKilledForTheBreak) {
  State s = leaving_general_battle().start();
  s.unit(1)->morale = 1;
  FixedDice d({6, 6});
  to_melee(s, d);
  EXPECT_EQ(s.leader(1)->status, LeaderStatus::kKilled);
  const auto outcome = Game::outcome(s);
  ASSERT_TRUE(outcome);
  EXPECT_EQ(outcome->kind, Outcome::Kind::kWinB);
  EXPECT_TRUE(d.exhausted());
}

TEST(OptioDice, UnderOptio1ALeaderLeavingTheGameDoesNotRoll) {
  Battle bt = leaving_general_battle();
  bt.rules = Game::ruleset("optio-1");
  State s = bt.start();
  s.unit(1)->morale = 1;
  FixedDice d({6, 6});
  const auto rolls = events_of<ev::LeaderRoll>(to_melee(s, d));
  EXPECT_TRUE(rolls.empty());
  EXPECT_EQ(d.used(), 0u);
  EXPECT_EQ(s.leader(1)->status, LeaderStatus::kGone);
  EXPECT_FALSE(Game::outcome(s));
}

// ---- disorder ----------------------------------------------------------------------------------

TEST(OptioDisorder, OrderReturnsAfterOneTwoOrThreeTurnEndsByDrill) {
  Battle bt;
  bt.unit(1, kA, UT::kSkirmishers, {2, 2}, kS)
      .unit(2, kA, UT::kHeavyInfantry, {4, 2}, kS)
      .unit(3, kA, UT::kWarband, {6, 2}, kS)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .leader(1, kA, true, 1, 1)
      .leader(2, kB, true, 2, 4);
  State s = bt.start();
  for (int id : {1, 2, 3})
    play(s, kA, cmd::Rotate{id, kE});  // out of command or not, one move
  NoDice d;
  to_melee(s, d);
  EXPECT_FALSE(s.unit(1)->disordered);
  EXPECT_TRUE(s.unit(2)->disordered);
  EXPECT_TRUE(s.unit(3)->disordered);
  to_melee(s, d);
  EXPECT_FALSE(s.unit(2)->disordered);
  EXPECT_TRUE(s.unit(3)->disordered);
  to_melee(s, d);
  EXPECT_FALSE(s.unit(3)->disordered);
}

// ---- end of the game
// -------------------------------------------------------------------------------

TEST(OptioBreak, AnArmyWithHalfItsUnitsRoutedLoses) {
  Battle bt = charge_battle(UT::kWarband, UT::kArchers);
  bt.sc.units.pop_back();  // B: units 2 and 4 only
  State s = bt.start();
  play(s, kA, kChargeFrom53);
  ASSERT_TRUE(Game::outcome(s));
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kWinA);
  EXPECT_EQ(Game::outcome(s)->reason, "side B's army broke: A lost 0/2, B lost 1/2");
  EXPECT_EQ(Game::acting(s), (Acting{false, false, "over", 1}));
  EXPECT_EQ(refusal(s, kB, cmd::EndPhase{}).rule, "optio.9.over");
}

TEST(OptioBreak, AThirdIsEnoughOnceTheGeneralIsKilled) {
  State s = charge_battle(UT::kWarband, UT::kArchers).start();  // B has 3 units
  State alive = s;
  play(alive, kA, kChargeFrom53);
  EXPECT_FALSE(Game::outcome(alive));
  s.leader(2)->status = LeaderStatus::kKilled;
  s.leader(2)->unit = 0;
  play(s, kA, kChargeFrom53);
  ASSERT_TRUE(Game::outcome(s));
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kWinA);
}

TEST(OptioTurnLimit, TheSmallerShareOfLossesWinsAndEqualSharesDraw) {
  Battle bt = charge_battle(UT::kWarband, UT::kArchers);
  bt.sc.turn_limit = 1;
  State s = bt.start();
  play(s, kA, kChargeFrom53);  // B loses 1 of 3
  NoDice d;
  play(s, kA, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  ASSERT_TRUE(Game::outcome(s));
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kWinA);
  EXPECT_EQ(Game::outcome(s)->reason, "turn limit: A lost 0/2, B lost 1/3");
  State t = bt.start();
  play(t, kA, cmd::EndPhase{});
  play(t, kB, cmd::EndPhase{});
  ASSERT_TRUE(Game::outcome(t));
  EXPECT_EQ(Game::outcome(t)->kind, Outcome::Kind::kDraw);
}

// ---- modifiers
// -------------------------------------------------------------------------------------

class OptioModifiers : public ::testing::Test {
 protected:
  OptioModifiers() {
    Battle bt;
    bt.unit(1, kA, UT::kHeavyInfantry, {5, 4}, kS)
        .unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN)
        .unit(3, kA, UT::kHeavyInfantry, {12, 1}, kS)
        .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
        .leader(1, kA, true, 1, 3)
        .leader(2, kB, true, 2, 4);
    s_ = bt.start();
  }
  int melee_shift() {
    return detail::combat_score(s_, *s_.unit(1), *s_.unit(2), FightKind::kMelee, false).shift;
  }
  void terrain(Square q, Terrain t) {
    s_.terrain[static_cast<std::size_t>((q.row - 1) * s_.cols + q.col - 1)] = t;
  }
  State s_;
};

TEST_F(OptioModifiers, NoModifierInTheOpen) {
  EXPECT_EQ(melee_shift(), 0);
}
TEST_F(OptioModifiers, LeaderPlusOne) {
  s_.leader(1)->unit = 1;
  EXPECT_EQ(melee_shift(), 1);
}
TEST_F(OptioModifiers, DeepLinePlusOneAndItIgnoresShaken) {
  s_.unit(1)->bases = 4;
  EXPECT_EQ(melee_shift(), 1);
  s_.unit(1)->morale = 2;
  EXPECT_EQ(melee_shift(), 1);
  s_.unit(1)->formation = Formation::kColumn;  // a 4-base column is no deep line
  EXPECT_EQ(melee_shift(), -3);
}
TEST_F(OptioModifiers, HillPlusOneOnlyWhenTheOpponentIsNotOnOne) {
  terrain({5, 4}, Terrain::kHill);
  EXPECT_EQ(melee_shift(), 1);
  terrain({5, 5}, Terrain::kHill);
  EXPECT_EQ(melee_shift(), 0);
}
TEST_F(OptioModifiers, FordOrCampInMeleeWhenTheOpponentIsNotOnOne) {
  terrain({5, 4}, Terrain::kCamp);
  EXPECT_EQ(melee_shift(), 1);
  terrain({5, 5}, Terrain::kFord);
  EXPECT_EQ(melee_shift(), 0);
  // In charge combat only the charged unit defends it.
  EXPECT_EQ(detail::combat_score(s_, *s_.unit(1), *s_.unit(2), FightKind::kCharge, false).shift, 0);
  EXPECT_EQ(detail::combat_score(s_, *s_.unit(1), *s_.unit(2), FightKind::kCharge, true).shift, 1);
}
TEST_F(OptioModifiers, ThinShakenDisorderedEachMinusOne) {
  s_.unit(1)->bases = 1;
  EXPECT_EQ(melee_shift(), -1);
  s_.unit(1)->morale = 2;
  EXPECT_EQ(melee_shift(), -2);
  s_.unit(1)->disordered = true;
  s_.unit(1)->disorder_turns = 1;
  EXPECT_EQ(melee_shift(), -3);
}
TEST_F(OptioModifiers, WoodsOrMarshMinusOneUnlessAgileFoot) {
  terrain({5, 4}, Terrain::kWoods);
  EXPECT_EQ(melee_shift(), -1);
  s_.unit(1)->type = UT::kLightInfantry;
  EXPECT_EQ(melee_shift(), 0);
}
TEST_F(OptioModifiers, ColumnMinusTwo) {
  s_.unit(1)->formation = Formation::kColumn;
  EXPECT_EQ(melee_shift(), -2);
}
TEST_F(OptioModifiers, TheSumIsClampedToMinusFour) {
  s_.unit(1)->formation = Formation::kColumn;
  s_.unit(1)->morale = 1;
  s_.unit(1)->disordered = true;
  s_.unit(1)->disorder_turns = 1;
  s_.unit(1)->facing = kN;  // the enemy is behind: -3
  EXPECT_EQ(melee_shift(), -4);
}

// ---- the legal list ----------------------------------------------------------------------------

TEST(OptioLegal, ListsEveryAdvanceRotationAndLeaderMove) {
  Battle bt;
  bt.unit(1, kA, UT::kHeavyInfantry, {5, 3}, kS)
      .unit(2, kA, UT::kHeavyInfantry, {6, 3}, kS)
      .unit(4, kB, UT::kHeavyInfantry, {12, 8}, kN)
      .leader(1, kA, true, 1, 1)
      .leader(2, kB, true, 2, 4);
  State s = bt.start();
  const Legal l = Game::legal(s, kA);
  ASSERT_EQ(l.units.size(), 2u);
  const UnitLegal& u = l.units[0];
  EXPECT_TRUE(u.in_command);
  ASSERT_EQ(u.advances.size(), 3u);  // (4,4), (5,4) and (6,4)
  EXPECT_EQ(u.rotations, (std::vector<int>{1, 3}));
  EXPECT_TRUE(u.change_formation);
  EXPECT_TRUE(u.shoot_targets.empty());
  ASSERT_EQ(l.leaders.size(), 1u);
  EXPECT_EQ(l.leaders[0].move_to, (std::vector<int>{2}));
  EXPECT_FALSE(l.leaders[0].abandon);
  EXPECT_TRUE(l.end_phase);
  EXPECT_TRUE(listed(l, advance(1, {{{4, 4}, kS}})));
  EXPECT_FALSE(listed(l, advance(1, {{{5, 5}, kS}})));
  const Legal b = Game::legal(s, kB);
  EXPECT_TRUE(b.units.empty());
  EXPECT_FALSE(b.end_phase);
}

}  // namespace
}  // namespace castra::rules::optio::testing
