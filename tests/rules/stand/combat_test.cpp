// Section 4 of the rules: the fight phase, the chance table, the rear bonus, casualties in
// tenths with the d10, casualty order and facing after an attack. Every worked example of
// the rules document is a test here.
#include <gtest/gtest.h>

#include "common/rules/stand/combat.hpp"
#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

constexpr Hex kFrom{2, 2};
constexpr Hex kTarget{3, 2};  // east of kFrom: the attack crosses the target's W hexside
constexpr int kW = 3;
constexpr int kE = 0;

// Side A's hex at kFrom attacks side B's at kTarget in A's fight phase. A defender facing
// W faces the attacker (front); facing E, the attacker is on its rear hexside.
State fight(const Figures& attackers, const Figures& defenders, Posture posture, bool cover,
            bool rear) {
  std::vector<HexSpec> hexes;
  if (cover) hexes.push_back(ground(kTarget, Terrain::kWoods));
  State s = battle(6, 6, hexes, Phase::kFight, kA);
  put(s, kA, kFrom, attackers);
  put(s, kB, kTarget, defenders, rear ? kE : kW, posture);
  put(s, kB, {5, 5}, infantry(12));  // keeps side B far from breaking
  start(s);
  return s;
}

struct Result {
  ev::Attacked attacked;
  std::vector<ev::FractionRolled> rolls;
  ev::Casualties casualties;
  std::vector<Die> dice;
};

Result attack(State& s, std::vector<int> faces = {}) {
  ScriptedDice dice(std::move(faces));
  const auto events = play(s, kA, cmd::Attack{kFrom, kTarget}, dice);
  Result r;
  const auto attacked = only<ev::Attacked>(events);
  const auto casualties = only<ev::Casualties>(events);
  EXPECT_EQ(attacked.size(), 1u);
  EXPECT_EQ(casualties.size(), 1u);
  if (attacked.size() == 1) r.attacked = attacked[0];
  if (casualties.size() == 1) r.casualties = casualties[0];
  r.rolls = only<ev::FractionRolled>(events);
  r.dice = dice.rolled;
  return r;
}

constexpr Posture kStanding = Posture::kStanding;
constexpr Posture kFallingBack = Posture::kFallingBack;

// Worked example 1: 10 infantry, Standing, open, front: T 4.0, 4 casualties, no roll.
TEST(StandWorkedExample, TenInfantryAgainstStandingInTheOpenMakeFour) {
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.total, 40);
  EXPECT_FALSE(r.attacked.rear);
  EXPECT_FALSE(r.attacked.cover);
  EXPECT_EQ(r.casualties.lost, infantry(4));
  EXPECT_TRUE(r.dice.empty());
  EXPECT_EQ(s.at(kTarget).figures, infantry(8));
}

// Worked example 2: 6 cavalry, Falling back, open, front: T 4.8, 5.
TEST(StandWorkedExample, SixCavalryAgainstFallingBackMakeFive) {
  State s = fight(cavalry(6), infantry(12), kFallingBack, false, false);
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.total, 48);
  EXPECT_EQ(r.attacked.sure, 5);
  EXPECT_EQ(r.casualties.lost, infantry(5));
  EXPECT_TRUE(r.dice.empty());
}

// Worked example 3: 3 chariots, Standing, open, front: T 3.9, 4.
TEST(StandWorkedExample, ThreeChariotsAgainstStandingMakeFour) {
  State s = fight(chariots(3), infantry(12), kStanding, false, false);
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.total, 39);
  EXPECT_EQ(r.casualties.lost, infantry(4));
  EXPECT_TRUE(r.dice.empty());
}

// Worked example 4: 7 archers, Standing in cover, front: T 1.4, 1, then d10: 1-4 makes 2.
TEST(StandWorkedExample, SevenArchersAgainstStandingInCoverRollFourOrLessForASecond) {
  State s = fight(archers(7), infantry(8), kStanding, true, false);
  const Result r = attack(s, {4});
  EXPECT_EQ(r.attacked.total, 14);
  EXPECT_TRUE(r.attacked.cover);
  EXPECT_EQ(r.attacked.sure, 1);
  ASSERT_EQ(r.rolls.size(), 1u);
  EXPECT_EQ(r.rolls[0].fraction, 4);
  EXPECT_EQ(r.rolls[0].face, 4);
  EXPECT_TRUE(r.rolls[0].extra);
  EXPECT_EQ(r.dice, std::vector<Die>{Die::kD10});
  EXPECT_EQ(r.casualties.lost, infantry(2));
}

TEST(StandWorkedExample, SevenArchersAgainstStandingInCoverRollingFiveMakeOnlyOne) {
  State s = fight(archers(7), infantry(8), kStanding, true, false);
  const Result r = attack(s, {5});
  ASSERT_EQ(r.rolls.size(), 1u);
  EXPECT_EQ(r.rolls[0].face, 5);
  EXPECT_FALSE(r.rolls[0].extra);
  EXPECT_EQ(r.casualties.lost, infantry(1));
}

// Worked example 5: 5 infantry, Falling back in cover, rear: T 1.0, 1.
TEST(StandWorkedExample, FiveInfantryInTheRearOfFallingBackInCoverMakeOne) {
  State s = fight(infantry(5), infantry(8), kFallingBack, true, true);
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.total, 10);
  EXPECT_TRUE(r.attacked.rear);
  EXPECT_EQ(r.casualties.lost, infantry(1));
  EXPECT_TRUE(r.dice.empty());
}

// Worked example 6: 2 chariots, Standing, open, rear: T 4.4, 4, then d10: 1-4 makes 5.
TEST(StandWorkedExample, TwoChariotsInTheRearOfStandingRollFourOrLessForAFifth) {
  State s = fight(chariots(2), infantry(12), kStanding, false, true);
  const Result r = attack(s, {1});
  EXPECT_EQ(r.attacked.total, 44);
  EXPECT_EQ(r.attacked.sure, 4);
  ASSERT_EQ(r.rolls.size(), 1u);
  EXPECT_TRUE(r.rolls[0].extra);
  EXPECT_EQ(r.casualties.lost, infantry(5));
}

TEST(StandWorkedExample, TwoChariotsInTheRearOfStandingRollingTenMakeFour) {
  State s = fight(chariots(2), infantry(12), kStanding, false, true);
  const Result r = attack(s, {10});
  ASSERT_EQ(r.rolls.size(), 1u);
  EXPECT_FALSE(r.rolls[0].extra);
  EXPECT_EQ(r.casualties.lost, infantry(4));
}

// Worked example 7: 4 cavalry + 1 chariot, Standing, open, front: T 3.7, 4.
TEST(StandWorkedExample, FourCavalryAndAChariotAgainstStandingMakeFour) {
  State s = fight(figs(0, 0, 4, 1), infantry(12), kStanding, false, false);
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.total, 37);
  EXPECT_EQ(r.casualties.lost, infantry(4));
  EXPECT_TRUE(r.dice.empty());
}

// Worked example 8: 1 infantry, Falling back in cover, front: T 0.0, 0, no roll.
TEST(StandWorkedExample, OneInfantryAgainstFallingBackInCoverMakesNothing) {
  State s = fight(infantry(1), infantry(8), kFallingBack, true, false);
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.total, 0);
  EXPECT_TRUE(r.casualties.lost.empty());
  EXPECT_TRUE(r.dice.empty());
  EXPECT_EQ(s.at(kTarget).figures, infantry(8));
}

TEST(StandCombat, ChanceTableMatchesTheRules) {
  const Ruleset& rs = stand_1();
  struct Row {
    Troop troop;
    Tenths standing, falling_back, standing_cover, falling_back_cover;
  };
  for (const Row& row : {Row{Troop::kInfantry, 4, 2, 2, 0}, Row{Troop::kCavalry, 6, 8, 2, 4},
                         Row{Troop::kChariots, 13, 16, 2, 4}, Row{Troop::kArchers, 4, 3, 2, 1}}) {
    Figures one;
    one[row.troop] = 1;
    EXPECT_EQ(attack_total(rs, one, kStanding, false, false), row.standing);
    EXPECT_EQ(attack_total(rs, one, kFallingBack, false, false), row.falling_back);
    EXPECT_EQ(attack_total(rs, one, kStanding, true, false), row.standing_cover);
    EXPECT_EQ(attack_total(rs, one, kFallingBack, true, false), row.falling_back_cover);
  }
}

TEST(StandCombat, RearAttackAddsPerFigureBonus) {
  const Ruleset& rs = stand_1();
  const Tenths bonus[] = {2, 2, 4, 9};  // infantry, archers, cavalry, chariots
  for (Troop t : kAllTroops) {
    Figures three;
    three[t] = 3;
    EXPECT_EQ(attack_total(rs, three, kStanding, false, true) -
                  attack_total(rs, three, kStanding, false, false),
              3 * bonus[index(t)])
        << name(t);
  }
}

TEST(StandCombat, AnAttackAcrossAFlankHexsideIsNotARearAttack) {
  // The attacker lies W (3) of the target. Facing NW (2), W is beside the facing hexside;
  // facing NE (1), W is facing + 2, a rear hexside.
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  s.at(kTarget).facing = 2;
  EXPECT_FALSE(attack(s).attacked.rear);
  State t = fight(infantry(10), infantry(12), kStanding, false, false);
  t.at(kTarget).facing = 1;
  EXPECT_TRUE(attack(t).attacked.rear);
}

TEST(StandCombat, WoodsAndTownsAreCoverAndHillsAreNot) {
  for (Terrain terrain : {Terrain::kWoods, Terrain::kTown, Terrain::kHill}) {
    State s = battle(6, 6, {ground(kTarget, terrain)}, Phase::kFight, kA);
    put(s, kA, kFrom, infantry(5));
    put(s, kB, kTarget, infantry(8), kW, kStanding);
    put(s, kB, {5, 5}, infantry(12));
    start(s);
    const bool cover = terrain != Terrain::kHill;
    EXPECT_EQ(attack(s, {10}).attacked.cover, cover) << name(terrain);
  }
}

TEST(StandCombat, CasualtiesLeaveAMountedHexCavalryFirst) {
  State s = fight(infantry(10), figs(0, 0, 2, 1), kStanding, false, false);
  const Result r = attack(s);  // T 4.0: 4 casualties, but the hex holds 3 figures
  EXPECT_EQ(r.casualties.lost, figs(0, 0, 2, 1));
  EXPECT_FALSE(s.at(kTarget).occupied());

  State t = fight(infantry(5), figs(0, 0, 4, 1), kStanding, false, false);
  EXPECT_EQ(attack(t, {10}).casualties.lost, cavalry(2));  // T 2.0
  EXPECT_EQ(t.at(kTarget).figures, figs(0, 0, 2, 1));
}

TEST(StandCombat, CasualtiesLeaveAFootHexInfantryBeforeArchers) {
  State s = fight(infantry(10), figs(3, 4, 0, 0), kStanding, false, false);
  EXPECT_EQ(attack(s).casualties.lost, figs(3, 1, 0, 0));
  EXPECT_EQ(s.at(kTarget).figures, archers(3));
  EXPECT_EQ(s.losses[index(kB)], figs(3, 1, 0, 0));
  EXPECT_EQ(s.lost_strength[index(kB)], 4);
}

TEST(StandCombat, CasualtiesNeverExceedWhatTheHexHolds) {
  State s = fight(chariots(3), infantry(2), kStanding, false, false);
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.sure, 2);
  EXPECT_EQ(r.casualties.lost, infantry(2));
  EXPECT_TRUE(r.dice.empty());
  EXPECT_FALSE(s.at(kTarget).occupied());
}

TEST(StandCombat, NoDieIsDrawnWhenTheSureCasualtiesEmptyTheHex) {
  State s = fight(archers(7), infantry(1), kStanding, true, false);  // T 1.4
  const Result r = attack(s);
  EXPECT_TRUE(r.dice.empty());
  EXPECT_TRUE(r.rolls.empty());
  EXPECT_EQ(r.casualties.lost, infantry(1));
}

TEST(StandCombat, AFractionOfHalfOrMoreIsASureCasualty) {
  const Ruleset& rs = stand_1();
  EXPECT_EQ(casualties_of(rs, 45, 10).sure, 5);
  EXPECT_FALSE(casualties_of(rs, 45, 10).roll);
  EXPECT_EQ(casualties_of(rs, 44, 10).sure, 4);
  EXPECT_TRUE(casualties_of(rs, 44, 10).roll);
  EXPECT_FALSE(casualties_of(rs, 40, 10).roll);
  EXPECT_FALSE(casualties_of(rs, 44, 4).roll);
  EXPECT_TRUE(fraction_hits(1, 1));
  EXPECT_FALSE(fraction_hits(2, 1));
}

TEST(StandCombat, TheAttackingHexFacesTheHexsideItAttackedAcross) {
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  s.at(kFrom).facing = kW;
  const Result r = attack(s);
  EXPECT_EQ(r.attacked.facing, kE);
  EXPECT_EQ(s.at(kFrom).facing, kE);
  EXPECT_TRUE(s.at(kFrom).attacked);
}

TEST(StandCombat, BeingAttackedNeverTurnsTheDefenderNorStrikesBack) {
  State s = fight(infantry(10), infantry(12), kStanding, false, true);
  attack(s);
  EXPECT_EQ(s.at(kTarget).facing, kE);
  EXPECT_EQ(s.at(kTarget).posture, kStanding);
  EXPECT_EQ(s.at(kFrom).figures, infantry(10));
}

TEST(StandCombat, AHexAttacksOncePerFightPhase) {
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  attack(s);
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kFrom, kTarget}), "stand.4.once");
}

TEST(StandCombat, SeveralHexesAttackOneTargetOneAfterAnother) {
  State s = fight(infantry(10), infantry(5), kStanding, false, false);
  const Hex second{2, 3};  // SW of kTarget, on its front like kFrom
  put(s, kA, second, cavalry(6));
  start(s);
  ScriptedDice none;
  const auto first = play(s, kA, cmd::Attack{kFrom, kTarget}, none);
  EXPECT_EQ(only<ev::Casualties>(first)[0].lost, infantry(4));
  // The second attack is resolved against what the first left: 1 figure.
  const auto then = play(s, kA, cmd::Attack{second, kTarget}, none);
  const auto attacked = only<ev::Attacked>(then);
  ASSERT_EQ(attacked.size(), 1u);
  EXPECT_EQ(attacked[0].total, 36);
  EXPECT_EQ(attacked[0].sure, 1);
  EXPECT_EQ(only<ev::Casualties>(then)[0].lost, infantry(1));
  EXPECT_FALSE(s.at(kTarget).occupied());
  EXPECT_TRUE(none.rolled.empty());
}

TEST(StandCombat, AnAttackMayCrossAnyOfTheAttackersHexsides) {
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  s.at(kFrom).facing = kW;  // the target is behind the attacker
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kFrom, kTarget}), "");
}

TEST(StandCombat, AnAttackGoesOnlyToANeighbouringEnemyHex) {
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  put(s, kB, {4, 2}, infantry(3));
  put(s, kA, {1, 2}, infantry(3));
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kFrom, {4, 2}}), "stand.4.adjacent");
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kFrom, {1, 2}}), "stand.4.target");
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kFrom, {2, 1}}), "stand.4.target");
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kTarget, kFrom}), "stand.4.own");
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kFrom, {9, 9}}), "stand.7.grid");
  EXPECT_EQ(refusal(s, kB, cmd::Attack{kTarget, kFrom}), "stand.2.turn");
}

TEST(StandCombat, AttacksAreMadeOnlyInTheFightPhase) {
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  s.phase = Phase::kMove;
  EXPECT_EQ(refusal(s, kA, cmd::Attack{kFrom, kTarget}), "stand.2.phase");
}

TEST(StandCombat, TheDefendersFacingIsReadAtTheMomentOfEachAttack) {
  State s = fight(infantry(10), infantry(12), kStanding, false, false);
  EXPECT_FALSE(attack(s).attacked.rear);
  const Hex second{3, 3};
  put(s, kA, second, infantry(5));
  s.at(kTarget).facing = 2;  // NW: (3,3) lies SE (5) of the target, a rear hexside
  ScriptedDice dice;
  const auto events = play(s, kA, cmd::Attack{second, kTarget}, dice);
  EXPECT_TRUE(only<ev::Attacked>(events)[0].rear);
}

}  // namespace
}  // namespace castra::rules::stand
