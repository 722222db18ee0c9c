// Sections 1 and 3 of the rules and their rulings: sharing, capacity, reach, paths, terrain
// limits, never entering an enemy hex, each figure moving once, facing and posture.
#include <gtest/gtest.h>

#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

// A straight path east along row 2 from column `from_col`, entering `steps` hexes.
std::vector<Hex> east(int from_col, int steps, int row = 2) {
  std::vector<Hex> path;
  for (int i = 1; i <= steps; ++i)
    path.push_back({from_col + i, row});
  return path;
}

State field(std::vector<HexSpec> hexes = {}) {
  State s = battle(10, 8, std::move(hexes));
  put(s, kB, {9, 7}, infantry(12));
  start(s);
  return s;
}

TEST(StandMove, InfantryMoveTwoHexes) {
  State s = field();
  put(s, kA, {1, 2}, infantry(6));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), infantry(6)}), "");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 3), infantry(6)}), "stand.3.reach");
  EXPECT_EQ(refusal_message(s, kA, cmd::Move{{1, 2}, east(1, 3), infantry(6)}),
            "infantry move at most 2 hexes; that path enters 3");
}

TEST(StandMove, ArchersMoveTwoHexes) {
  State s = field();
  put(s, kA, {1, 2}, archers(4));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), archers(4)}), "");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 3), archers(4)}), "stand.3.reach");
}

TEST(StandMove, CavalryAndChariotsMoveFiveHexes) {
  State s = field();
  put(s, kA, {1, 2}, figs(0, 0, 2, 2));
  for (const Figures& f : {cavalry(2), chariots(2), figs(0, 0, 2, 2)}) {
    EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 5), f}), "") << to_string(f);
    EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 6), f}), "stand.3.reach") << to_string(f);
  }
}

TEST(StandMove, InfantryAndArchersMayMoveTogether) {
  State s = field();
  put(s, kA, {1, 2}, figs(3, 3, 0, 0));
  const auto events = play(s, kA, cmd::Move{{1, 2}, east(1, 2), figs(2, 1, 0, 0)});
  ASSERT_EQ(only<ev::Moved>(events).size(), 1u);
  EXPECT_EQ(s.at({3, 2}).figures, figs(2, 1, 0, 0));
  EXPECT_EQ(s.at({1, 2}).figures, figs(1, 2, 0, 0));
}

TEST(StandMove, TroopsNeverEnterAnEnemyHex) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  put(s, kB, {3, 2}, infantry(2));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), cavalry(2)}), "stand.3.enemy");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 3), cavalry(2)}), "stand.3.enemy");
  // Around it, through row 1.
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{2, 2}, {2, 1}, {3, 1}, {4, 2}}, cavalry(2)}), "");
}

TEST(StandMove, APathMayPassThroughAnyFriendlyHex) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  put(s, kA, {2, 2}, infantry(12));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), cavalry(2)}), "");
}

TEST(StandMove, FootAndMountedNeverShareAHex) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  put(s, kA, {2, 2}, infantry(4));
  const cmd::Move into{{1, 2}, east(1, 1), cavalry(2)};
  EXPECT_EQ(refusal(s, kA, into), "stand.1.share");
  EXPECT_EQ(refusal_message(s, kA, into),
            "hex (2,2) holds infantry; cavalry may not share it (foot and mounted never share a "
            "hex)");
}

TEST(StandMove, CavalryAndChariotsMayShareAHex) {
  State s = field();
  put(s, kA, {1, 2}, chariots(1));
  put(s, kA, {2, 2}, cavalry(4));
  play(s, kA, cmd::Move{{1, 2}, east(1, 1), chariots(1)});
  EXPECT_EQ(s.at({2, 2}).figures, figs(0, 0, 4, 1));
}

TEST(StandMove, AMoveMayNotOverfillItsEndHex) {
  State s = field();
  put(s, kA, {4, 2}, infantry(10));
  put(s, kA, {2, 2}, infantry(3));
  const cmd::Move three{{2, 2}, east(2, 2), infantry(3)};
  EXPECT_EQ(refusal(s, kA, three), "stand.1.capacity");
  EXPECT_EQ(refusal_message(s, kA, three), "hex (4,2) holds 10 of 12 space; 3 infantry need 3");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{2, 2}, east(2, 2), infantry(2)}), "");
}

TEST(StandMove, MountedFiguresTakeMoreSpace) {
  State s = field();
  put(s, kA, {4, 2}, cavalry(4));
  put(s, kA, {1, 2}, figs(0, 0, 3, 1));
  EXPECT_EQ(refusal_message(s, kA, cmd::Move{{1, 2}, east(1, 3), cavalry(3)}),
            "hex (4,2) holds 8 of 12 space; 3 cavalry need 6");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 3), cavalry(2)}), "");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 3), chariots(1)}), "");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 3), figs(0, 0, 1, 1)}), "stand.1.capacity");
}

TEST(StandMove, DefaultCapacityFollowsTheTerrain) {
  const Ruleset& rs = stand_1();
  EXPECT_EQ(rs.default_capacity(Terrain::kOpen, Crossing::kNone), 12);
  EXPECT_EQ(rs.default_capacity(Terrain::kHill, Crossing::kNone), 12);
  EXPECT_EQ(rs.default_capacity(Terrain::kWoods, Crossing::kNone), 8);
  EXPECT_EQ(rs.default_capacity(Terrain::kSwamp, Crossing::kNone), 8);
  EXPECT_EQ(rs.default_capacity(Terrain::kTown, Crossing::kNone), 8);
  EXPECT_EQ(rs.default_capacity(Terrain::kSteep, Crossing::kNone), 8);
  EXPECT_EQ(rs.default_capacity(Terrain::kWater, Crossing::kFord), 12);
  EXPECT_EQ(rs.default_capacity(Terrain::kWater, Crossing::kBridge), 12);

  State s = field({ground({3, 2}, Terrain::kWoods)});
  put(s, kA, {1, 2}, infantry(9));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), infantry(9)}), "stand.1.capacity");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), infantry(8)}), "");
}

TEST(StandMove, AScenarioMaySetAHexsCapacity) {
  State s = field({ground({3, 2}, Terrain::kOpen, Crossing::kNone, 4)});
  EXPECT_EQ(s.at({3, 2}).capacity, 4);
  put(s, kA, {1, 2}, infantry(6));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), infantry(5)}), "stand.1.capacity");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 2), infantry(4)}), "");
}

TEST(StandMove, WaterIsCrossedOnlyAtAFordOrBridge) {
  State s =
      field({ground({2, 2}, Terrain::kWater), ground({2, 3}, Terrain::kWater, Crossing::kFord),
             ground({2, 1}, Terrain::kWater, Crossing::kBridge)});
  put(s, kA, {1, 2}, chariots(2));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 1), chariots(2)}), "stand.3.terrain");
  EXPECT_EQ(refusal_message(s, kA, cmd::Move{{1, 2}, east(1, 1), chariots(2)}),
            "hex (2,2) is water; troops cross water only at a ford or bridge");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{1, 3}, {2, 3}}, chariots(2)}), "");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{1, 1}, {2, 1}}, chariots(2)}), "");
}

TEST(StandMove, WaterStaysClosedWhateverItsCapacity) {
  State s = field({ground({2, 2}, Terrain::kWater, Crossing::kNone, 12)});
  put(s, kA, {1, 2}, infantry(2));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 1), infantry(2)}), "stand.3.terrain");
}

TEST(StandMove, MountedTroopsMayNotEnterSteep) {
  State s = field({ground({2, 2}, Terrain::kSteep)});
  put(s, kA, {1, 2}, cavalry(2));
  put(s, kA, {1, 3}, infantry(2));
  EXPECT_EQ(refusal_message(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(2)}),
            "cavalry may not enter steep (hex (2,2))");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 3}, {{2, 2}}, infantry(2)}), "");
}

TEST(StandMove, ChariotsMayNotEnterWoodsOrSwamp) {
  State s = field({ground({2, 2}, Terrain::kWoods), ground({2, 3}, Terrain::kSwamp)});
  put(s, kA, {1, 2}, figs(0, 0, 2, 1));
  EXPECT_EQ(refusal_message(s, kA, cmd::Move{{1, 2}, {{2, 2}}, chariots(1)}),
            "chariots may not enter woods (hex (2,2))");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{1, 3}, {2, 3}}, chariots(1)}), "stand.3.terrain");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{2, 2}}, cavalry(2)}), "");
  // Moving together, every terrain limit of every moving type applies.
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{2, 2}}, figs(0, 0, 1, 1)}), "stand.3.terrain");
  // Terrain limits bind the whole path, not only its end.
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{2, 2}, {3, 2}}, chariots(1)}), "stand.3.terrain");
}

TEST(StandMove, EachFigureMovesOnceATurn) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(5));
  play(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(3)});
  EXPECT_EQ(refusal(s, kA, cmd::Move{{2, 2}, east(2, 1), cavalry(1)}), "stand.3.once");
  // The hex's other figures may still move, to another place.
  play(s, kA, cmd::Move{{1, 2}, {{1, 1}}, cavalry(2)});
  EXPECT_FALSE(s.at({1, 2}).occupied());
}

TEST(StandMove, FiguresArrivingInAHexDoNotLendTheirMoveToItsOwn) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  put(s, kA, {2, 2}, cavalry(2));
  play(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(2)});
  EXPECT_EQ(s.at({2, 2}).unmoved, cavalry(2));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{2, 2}, east(2, 1), cavalry(3)}), "stand.3.once");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{2, 2}, east(2, 1), cavalry(2)}), "");
}

TEST(StandMove, FiguresMoveAgainNextTurn) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  play(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(2)});
  play(s, kA, cmd::EndPhase{});
  play(s, kA, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  EXPECT_EQ(s.game_turn, 2);
  EXPECT_EQ(refusal(s, kA, cmd::Move{{2, 2}, east(2, 1), cavalry(2)}), "");
}

TEST(StandMove, APathEntersAtLeastOneNeighbouringHexAndDoesNotEndWhereItBegan) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {}, cavalry(2)}), "stand.3.path");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{3, 2}}, cavalry(2)}), "stand.3.path");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{2, 2}, {1, 2}}, cavalry(2)}), "stand.3.path");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{1, 2}}, cavalry(2)}), "stand.3.path");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{0, 2}, {-1, 2}}, cavalry(2)}), "stand.7.grid");
}

TEST(StandMove, APathMayRevisitAHexAndEveryEntryCounts) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  const std::vector<Hex> there_and_back{{2, 2}, {1, 2}, {2, 2}, {1, 2}, {2, 2}};
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, there_and_back, cavalry(2)}), "");
  auto longer = there_and_back;
  longer.push_back({3, 2});
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, longer, cavalry(2)}), "stand.3.reach");
}

TEST(StandMove, AMoveNamesFiguresTheHexHas) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(3)}), "stand.3.figures");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 1), chariots(1)}), "stand.3.figures");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 1), Figures{}}), "stand.3.figures");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(-1)}), "stand.3.figures");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{5, 5}, east(5, 1), cavalry(1)}), "stand.3.own");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{9, 7}, {{8, 7}}, infantry(1)}), "stand.3.own");
}

TEST(StandMove, MovesAreMadeInTheMoversOwnMovePhase) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  EXPECT_EQ(refusal(s, kB, cmd::Move{{9, 7}, {{8, 7}}, infantry(1)}), "stand.2.turn");
  s.phase = Phase::kFight;
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(2)}), "stand.2.phase");
}

TEST(StandMove, TroopsMovingIntoAnEmptyHexFallBackFacingTheirLastStep) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2), 3, Posture::kStanding);
  const auto events = play(s, kA, cmd::Move{{1, 2}, {{2, 2}, {2, 1}}, cavalry(1)});
  const Tile& end = s.at({2, 1});
  EXPECT_EQ(end.facing, 1);  // (2,2) to (2,1) is a step NE
  EXPECT_EQ(end.posture, Posture::kFallingBack);
  EXPECT_EQ(only<ev::Moved>(events)[0].facing, 1);
  // The sending hex keeps its own.
  EXPECT_EQ(s.at({1, 2}).facing, 3);
  EXPECT_EQ(s.at({1, 2}).posture, Posture::kStanding);
}

TEST(StandMove, AHexReceivingTroopsKeepsItsPostureAndFacing) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  put(s, kA, {2, 2}, cavalry(2), 4, Posture::kStanding);
  play(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(2)});
  EXPECT_EQ(s.at({2, 2}).facing, 4);
  EXPECT_EQ(s.at({2, 2}).posture, Posture::kStanding);
  EXPECT_EQ(s.at({2, 2}).figures, cavalry(4));
  EXPECT_FALSE(s.at({1, 2}).occupied());
}

TEST(StandFacing, AHexMayTurnToAnyHexsideInItsMovePhase) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  play(s, kA, cmd::Face{{1, 2}, 4});
  EXPECT_EQ(s.at({1, 2}).facing, 4);
  // Before, during and after movement alike.
  play(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(1)});
  play(s, kA, cmd::Face{{2, 2}, 3});
  play(s, kA, cmd::Face{{1, 2}, 5});
  EXPECT_EQ(s.at({2, 2}).facing, 3);
}

TEST(StandFacing, FacingChangesNameAnOwnHexANewHexsideAndTheMovePhase) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2), 2);
  EXPECT_EQ(refusal(s, kA, cmd::Face{{1, 2}, 2}), "stand.3.facing");
  EXPECT_EQ(refusal(s, kA, cmd::Face{{1, 2}, 6}), "stand.7.facing");
  EXPECT_EQ(refusal(s, kA, cmd::Face{{1, 2}, -1}), "stand.7.facing");
  EXPECT_EQ(refusal(s, kA, cmd::Face{{9, 7}, 1}), "stand.3.own");
  EXPECT_EQ(refusal(s, kA, cmd::Face{{3, 3}, 1}), "stand.3.own");
  s.phase = Phase::kFight;
  EXPECT_EQ(refusal(s, kA, cmd::Face{{1, 2}, 1}), "stand.2.phase");
}

TEST(StandPosture, AHexMayStandAndItStaysStandingUntilChanged) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  EXPECT_EQ(s.at({1, 2}).posture, Posture::kFallingBack);
  play(s, kA, cmd::SetPosture{{1, 2}, Posture::kStanding});
  play(s, kA, cmd::EndPhase{});
  play(s, kA, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  EXPECT_EQ(s.at({1, 2}).posture, Posture::kStanding);
  play(s, kA, cmd::SetPosture{{1, 2}, Posture::kFallingBack});
  EXPECT_EQ(s.at({1, 2}).posture, Posture::kFallingBack);
}

TEST(StandPosture, PostureChangesNameAnOwnHexANewPostureAndTheMovePhase) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  EXPECT_EQ(refusal(s, kA, cmd::SetPosture{{1, 2}, Posture::kFallingBack}), "stand.3.posture");
  EXPECT_EQ(refusal(s, kA, cmd::SetPosture{{9, 7}, Posture::kStanding}), "stand.3.own");
  s.phase = Phase::kFight;
  EXPECT_EQ(refusal(s, kA, cmd::SetPosture{{1, 2}, Posture::kStanding}), "stand.2.phase");
}

TEST(StandMove, WhenTroopsMergeTheHexKeepsTheFacingTheOwnerGivesItLast) {
  State s = field();
  put(s, kA, {1, 2}, cavalry(2));
  put(s, kA, {2, 2}, cavalry(2), 0);
  play(s, kA, cmd::Move{{1, 2}, east(1, 1), cavalry(2)});
  play(s, kA, cmd::Face{{2, 2}, 5});
  play(s, kA, cmd::SetPosture{{2, 2}, Posture::kStanding});
  EXPECT_EQ(s.at({2, 2}).facing, 5);
  EXPECT_EQ(s.at({2, 2}).posture, Posture::kStanding);
}

}  // namespace
}  // namespace castra::rules::stand
