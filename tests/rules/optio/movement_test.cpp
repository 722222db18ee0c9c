// Sections 2 to 5: deployment, orders cards, the sequence, command, leaders, movement and
// terrain. Each rule has a legal and an illegal case.
#include <gtest/gtest.h>

#include "common/rules/optio/internal.hpp"
#include "common/wire/optio_codec.hpp"
#include "tests/rules/optio/random_player.hpp"
#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

constexpr int kN = 0, kE = 1, kS = 2, kW = 3;
constexpr Side kA = Side::kA, kB = Side::kB;
using UT = UnitType;

// Side A's general stands with `a_unit`, side B's with unit 91 far away at (16,8).
Battle with_generals(Battle b, int a_unit) {
  b.unit(91, kB, UT::kHeavyInfantry, {16, 8}, kN)
      .leader(1, kA, true, 1, a_unit)
      .leader(2, kB, true, 2, 91);
  return b;
}

// One side-A unit of the given type at (5,3) facing south with its general.
State lone(UT type, Square at = {5, 3}, int facing = kS, Formation f = Formation::kLine,
           int bases = 2, std::vector<std::pair<Square, Terrain>> terrain = {}) {
  Battle b;
  b.unit(1, kA, type, at, facing, 0, bases, f);
  for (auto& [q, t] : terrain)
    b.terrain(q, t);
  return with_generals(b, 1).start();
}

// ---- deployment -------------------------------------------------------------------------------

State training() {
  auto sc =
      wire::optio::scenario_from_json(read_file("tests/rules/optio/data/training_scenario.json"));
  EXPECT_TRUE(sc.ok());
  auto s = Game::initial_state(*sc, rs());
  EXPECT_TRUE(s.ok());
  return *s;
}

TEST(OptioDeployment, FirstSideDeploysInItsZone) {
  State s = training();
  EXPECT_EQ(Game::acting(s), (Acting{true, false, "deployment"}));
  play(s, kA, cmd::Deploy{1, {4, 2}, kS, Formation::kLine});
  EXPECT_EQ(s.unit(1)->pos, (Square{4, 2}));
  play(s, kA, cmd::Deploy{1, {5, 1}, kS, Formation::kColumn});  // placed again, in column
  EXPECT_EQ(s.unit(1)->formation, Formation::kColumn);
}

TEST(OptioDeployment, OutsideTheZoneIsRefused) {
  State s = training();
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{1, {4, 3}, kS, Formation::kLine}).message,
            "(4,3) is outside your deployment zone");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{1, {11, 1}, kS, Formation::kLine}).message,
            "(11,1) is off the board");
}

TEST(OptioDeployment, SecondSideWaitsAndOccupiedSquaresAreRefused) {
  State s = training();
  EXPECT_EQ(refusal(s, kB, cmd::Deploy{11, {4, 8}, kN, Formation::kLine}).message,
            "it is side A's deployment phase");
  play(s, kA, cmd::Deploy{1, {4, 2}, kS, Formation::kLine});
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{2, {4, 2}, kS, Formation::kLine}).message,
            "(4,2) is occupied");
}

TEST(OptioDeployment, EndingNeedsEveryUnitAndLeaderPlaced) {
  State s = training();
  EXPECT_EQ(refusal(s, kA, cmd::EndDeployment{}).message, "unit 1 is not deployed yet");
  int col = 1;
  for (int id : {1, 2, 3, 4, 5, 6})
    play(s, kA, cmd::Deploy{id, {col++, 2}, kS, Formation::kLine});
  EXPECT_EQ(refusal(s, kA, cmd::EndDeployment{}).message, "leader 1 is not placed yet");
  EXPECT_EQ(refusal(s, kA, cmd::PlaceLeader{2, 1}).rule, "optio.3.leader");  // wrong command
  play(s, kA, cmd::PlaceLeader{1, 2});
  play(s, kA, cmd::PlaceLeader{2, 5});
  const auto ev = play(s, kA, cmd::EndDeployment{});
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "deployment"}));
  EXPECT_EQ(refusal(s, kB, cmd::Deploy{11, {4, 7}, kN, Formation::kColumn}).rule,
            "optio.5.formation");
}

// ---- orders cards -------------------------------------------------------------------------------

Battle two_subs() {
  Battle b;
  b.unit(1, kA, UT::kHeavyInfantry, {3, 2}, kS, 3)
      .unit(2, kA, UT::kHeavyInfantry, {8, 2}, kS)
      .unit(3, kB, UT::kHeavyInfantry, {3, 7}, kN, 4)
      .unit(4, kB, UT::kHeavyInfantry, {8, 7}, kN)
      .leader(1, kA, true, 1, 2)
      .leader(2, kB, true, 2, 4)
      .leader(3, kA, false, 3, 1)
      .leader(4, kB, false, 4, 3);
  return b;
}

State at_orders(const Battle& b) {
  return *Game::initial_state(b.sc, rs());
}

TEST(OptioOrders, BothSidesActAtOnceAndCardsAreSealed) {
  State s = at_orders(two_subs());
  EXPECT_EQ(Game::acting(s), (Acting{true, true, "orders"}));
  const auto ev = play(s, kA, cmd::SubmitOrders{{{3, {{3, 2}, {3, 3}, {4, 4}}}}});
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(Game::visibility(ev[0]), Visibility::sealed(kA));
  EXPECT_EQ(Game::visibility(ev[1]), Visibility::everyone());
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "orders"}));
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{{3, {{3, 2}}}}}).message,
            "your orders card is already in");
  play(s, kB, cmd::SubmitOrders{{{4, {{3, 7}}}}});
  EXPECT_EQ(Game::acting(s), (Acting{true, false, "move", 1}));
  EXPECT_EQ(s.turn, 1);
}

TEST(OptioOrders, CanonicalCardBytesFollowTheDocumentedLayout) {
  const std::string bytes = orders_card_bytes(kB, {{4, {{3, 7}, {4, 6}}}, {6, {{1, 2}}}});
  const std::string want{'O', 1, 2, 4, 2, 3, 7, 4, 6, 6, 1, 1, 2};
  EXPECT_EQ(bytes, want);
  const Event e = ev::OrdersCard{kB, {{4, {{3, 7}, {4, 6}}}, {6, {{1, 2}}}}};
  EXPECT_EQ(Game::sealed_bytes(e), want);
  EXPECT_EQ(Game::sealed_bytes(Event{ev::OrdersSubmitted{kB}}), "");
}

TEST(OptioOrders, IllFormedCardsAreRefusedWithTheReason) {
  State s = at_orders(two_subs());
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{}}).message, "subcommander 3 needs an orders path");
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{{1, {{8, 2}}}, {3, {{3, 2}}}}}).message,
            "leader 1 is the general; the general has no orders path");
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{{3, {{3, 3}}}}}).message,
            "the path for leader 3 starts at (3,3); he stands on (3,2)");
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{{3, {{3, 2}, {5, 2}}}}}).message,
            "the path for leader 3: (5,2) is not next to (3,2)");
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{{3, {{3, 2}, {3, 2}}}}}).message,
            "the path for leader 3: (3,2) is not next to (3,2)");
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{{3, {{3, 2}}}, {3, {{3, 2}}}}}).message,
            "two paths for leader 3");
  EXPECT_EQ(refusal(s, kA, cmd::SubmitOrders{{{4, {{3, 7}}}, {3, {{3, 2}}}}}).message,
            "leader 4 is not yours");
  EXPECT_EQ(refusal(s, kA, cmd::EndPhase{}).rule, "optio.2.sequence");
}

TEST(OptioOrders, ProjectionHidesTheOpponentsPathsAndProgress) {
  State s = two_subs().start({{3, {{3, 2}, {3, 3}, {3, 4}}}}, {{4, {{3, 7}, {3, 6}}}});
  play(s, kA, advance(1, {{{3, 3}, kS}}));
  EXPECT_EQ(s.leader(3)->progress, 1);
  const State a = Game::project(s, Viewer::kSideA);
  EXPECT_EQ(a.leader(3)->path.size(), 3u);
  EXPECT_EQ(a.leader(3)->progress, 1);
  EXPECT_TRUE(a.leader(4)->path.empty());
  const State spectator = Game::project(s, Viewer::kSpectator);
  EXPECT_TRUE(spectator.leader(3)->path.empty());
  EXPECT_EQ(spectator.leader(3)->progress, 0);
  EXPECT_TRUE(spectator.leader(4)->path.empty());
  EXPECT_EQ(Game::project(s, Viewer::kEveryone), s);
  EXPECT_EQ(Game::visibility(Event{ev::Progress{3, kA, 1}}), Visibility::only(kA));
}

TEST(OptioOrders, AdvanceCarryingTheSubcommanderOutOfRangeIsRefused) {
  Battle b = two_subs();
  b.sc.units[0].type = UT::kCavalry;
  State s = b.start({{3, {{3, 2}}}});
  NoDice d;
  EXPECT_TRUE(Game::decide(s, kA, advance(1, {{{3, 3}, kS}, {{3, 4}, kS}}), d).ok());
  const RuleError e = refusal(s, kA, advance(1, {{{3, 3}, kS}, {{3, 4}, kS}, {{3, 5}, kS}}));
  EXPECT_EQ(e.rule, "optio.4.orders");
  EXPECT_EQ(e.message,
            "orders: the advance would carry subcommander 3 to (3,5), 3 squares from your progress "
            "square (3,2); range is 2");
}

TEST(OptioOrders, AbandonOnlyWhenACommandedUnitIsNextToTheEnemy) {
  Battle b = two_subs();
  b.sc.units[2].at = Square{4, 4};  // B's unit 3, not yet adjacent to A's unit 1 at (3,2)
  State s = b.start();
  EXPECT_EQ(refusal(s, kA, cmd::AbandonOrders{3}).rule, "optio.4.abandon");
  EXPECT_EQ(refusal(s, kA, cmd::AbandonOrders{1}).message, "the general has no orders to abandon");
  play(s, kA, advance(1, {{{3, 3}, kS}}));  // now diagonally next to (4,4)
  const auto ev = play(s, kA, cmd::AbandonOrders{3});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(Game::visibility(ev[0]), Visibility::everyone());
  EXPECT_TRUE(s.leader(3)->abandoned);
  EXPECT_EQ(refusal(s, kA, cmd::AbandonOrders{3}).rule, "optio.4.abandon");
}

// ---- sequence ---------------------------------------------------------------------------------

TEST(OptioSequence, FirstSideMovesThenSecondThenMeleeAndEndOfTurn) {
  State s = lone(UT::kHeavyInfantry);
  EXPECT_EQ(refusal(s, kB, cmd::EndPhase{}).message, "it is side A's move phase");
  play(s, kA, cmd::EndPhase{});
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "move", 1}));
  const auto ev = play(s, kB, cmd::EndPhase{});
  const auto phases = events_of<ev::PhaseStarted>(ev);
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].phase, Phase::kMelee);
  EXPECT_EQ(phases[1].phase, Phase::kMove);
  EXPECT_EQ(phases[1].turn, 2);
  EXPECT_EQ(events_of<ev::TurnEnded>(ev).size(), 1u);
  EXPECT_EQ(Game::acting(s), (Acting{true, false, "move", 2}));
}

// ---- advance
// -------------------------------------------------------------------------------------

TEST(OptioAdvance, HeavyInfantryAdvanceOneSquare) {
  State s = lone(UT::kHeavyInfantry);
  play(s, kA, advance(1, {{{6, 4}, kS}}));
  EXPECT_EQ(s.unit(1)->pos, (Square{6, 4}));
  State t = lone(UT::kHeavyInfantry);
  const RuleError e = refusal(t, kA, advance(1, {{{5, 4}, kS}, {{5, 5}, kS}}));
  EXPECT_EQ(e.rule, "optio.5.advance");
  EXPECT_EQ(e.message, "heavy_infantry advance 1 square; that path is 2");
}

TEST(OptioAdvance, StepsGoStraightOrDiagonallyAheadOnly) {
  State s = lone(UT::kCavalry);
  play(s, kA, advance(1, {{{5, 4}, kS}, {{4, 5}, kS}, {{4, 6}, kS}}));
  State t = lone(UT::kCavalry);
  EXPECT_EQ(refusal(t, kA, advance(1, {{{6, 3}, kS}})).message,
            "(6,3) is not straight or diagonally ahead of (5,3)");
  EXPECT_EQ(refusal(t, kA, advance(1, {{{5, 2}, kS}})).rule, "optio.5.advance");
}

TEST(OptioAdvance, NeverOffTheBoardNorIntoAnOccupiedSquare) {
  State s = lone(UT::kCavalry, {5, 1}, kN);
  EXPECT_EQ(refusal(s, kA, advance(1, {{{5, 0}, kN}})).message, "(5,0) is off the board");
  Battle b;
  b.unit(1, kA, UT::kCavalry, {5, 3}, kS)
      .unit(2, kA, UT::kCavalry, {5, 4}, kS)
      .unit(3, kA, UT::kCavalry, {6, 4}, kS);
  State t = with_generals(b, 1).start();
  EXPECT_EQ(refusal(t, kA, advance(1, {{{5, 4}, kS}})).message, "(5,4) is occupied");
  play(t, kA, advance(1, {{{4, 4}, kS}}));  // beside the occupied squares
}

TEST(OptioAdvance, DiagonalStepsMayPassBetweenTwoOccupiedSquares) {
  Battle b;
  b.unit(1, kA, UT::kCavalry, {5, 3}, kS)
      .unit(2, kA, UT::kCavalry, {5, 4}, kS)
      .unit(3, kA, UT::kCavalry, {6, 3}, kS);
  State s = with_generals(b, 1).start();
  play(s, kA, advance(1, {{{6, 4}, kS}}));
  EXPECT_EQ(s.unit(1)->pos, (Square{6, 4}));
}

TEST(OptioAdvance, RiversBarTheWayButFordsDoNot) {
  State s = lone(UT::kHeavyInfantry, {5, 3}, kS, Formation::kLine, 2,
                 {{{5, 4}, Terrain::kRiver}, {{6, 4}, Terrain::kFord}});
  EXPECT_EQ(refusal(s, kA, advance(1, {{{5, 4}, kS}})).message,
            "heavy_infantry may not enter river at (5,4)");
  play(s, kA, advance(1, {{{6, 4}, kS}}));
}

TEST(OptioAdvance, ChariotsMayNotEnterWoodsOrMarsh) {
  State s = lone(UT::kChariots, {5, 3}, kS, Formation::kLine, 2,
                 {{{5, 4}, Terrain::kWoods}, {{6, 4}, Terrain::kMarsh}});
  EXPECT_EQ(refusal(s, kA, advance(1, {{{5, 4}, kS}})).rule, "optio.5.terrain");
  EXPECT_EQ(refusal(s, kA, advance(1, {{{6, 4}, kS}})).rule, "optio.5.terrain");
  play(s, kA, advance(1, {{{4, 4}, kS}}));
}

TEST(OptioAdvance, EnteringWoodsEndsTheMoveAndDisordersCavalry) {
  State s = lone(UT::kCavalry, {5, 3}, kS, Formation::kLine, 2, {{{5, 4}, Terrain::kWoods}});
  EXPECT_EQ(refusal(s, kA, advance(1, {{{5, 4}, kS}, {{5, 5}, kS}})).message,
            "entering woods at (5,4) ends the move");
  const auto ev = play(s, kA, advance(1, {{{5, 4}, kS}}));
  EXPECT_TRUE(s.unit(1)->disordered);
  EXPECT_EQ(s.unit(1)->disorder_turns, 2);  // cavalry is drilled
}

TEST(OptioAdvance, AgileFootEnterMarshInOrder) {
  State s = lone(UT::kLightInfantry, {5, 3}, kS, Formation::kLine, 2, {{{5, 4}, Terrain::kMarsh}});
  play(s, kA, advance(1, {{{5, 4}, kS}}));
  EXPECT_FALSE(s.unit(1)->disordered);
}

TEST(OptioAdvance, ALineMayNotTurnButAColumnTurnsBeforeEachStep) {
  State s = lone(UT::kCavalry);
  EXPECT_EQ(refusal(s, kA, advance(1, {{{6, 3}, kE}})).message,
            "a unit in line advances without turning; rotate it instead");
  State c = lone(UT::kCavalry, {5, 3}, kS, Formation::kColumn);
  play(c, kA, advance(1, {{{6, 3}, kE}, {{7, 4}, kS}, {{8, 4}, kE}}));
  EXPECT_EQ(c.unit(1)->facing, kE);
  EXPECT_FALSE(c.unit(1)->disordered);
  State d = lone(UT::kCavalry, {5, 3}, kS, Formation::kColumn);
  EXPECT_EQ(refusal(d, kA, advance(1, {{{5, 2}, kN}})).message,
            "a column turns 90 degrees at most before each step");
}

TEST(OptioAdvance, EachUnitMovesOncePerTurn) {
  State s = lone(UT::kCavalry);
  play(s, kA, advance(1, {{{5, 4}, kS}}));
  EXPECT_EQ(refusal(s, kA, advance(1, {{{5, 5}, kS}})).rule, "optio.5.once");
  EXPECT_EQ(refusal(s, kA, cmd::Rotate{1, kE}).rule, "optio.5.once");
}

TEST(OptioAdvance, AUnitInContactMayNotAdvanceButMayRotate) {
  Battle b;
  b.unit(1, kA, UT::kHeavyInfantry, {5, 4}, kS).unit(2, kB, UT::kHeavyInfantry, {5, 5}, kN);
  State s = with_generals(b, 1).start();
  EXPECT_EQ(refusal(s, kA, advance(1, {{{4, 5}, kS}})).rule, "optio.5.contact");
  play(s, kA, cmd::Rotate{1, kE});
}

// ---- rotate and formation
// --------------------------------------------------------------------------

TEST(OptioRotate, ALineTurnsNinetyDegreesAndIsDisordered) {
  State s = lone(UT::kHeavyInfantry);
  play(s, kA, cmd::Rotate{1, kW});
  EXPECT_EQ(s.unit(1)->facing, kW);
  EXPECT_TRUE(s.unit(1)->disordered);
  State t = lone(UT::kHeavyInfantry);
  EXPECT_EQ(refusal(t, kA, cmd::Rotate{1, kN}).message,
            "a unit rotates 90 degrees: from facing 2 to 1 or 3");
}

TEST(OptioRotate, AColumnTurnsWithoutDisorder) {
  State s = lone(UT::kHeavyInfantry, {5, 3}, kS, Formation::kColumn);
  play(s, kA, cmd::Rotate{1, kE});
  EXPECT_FALSE(s.unit(1)->disordered);
}

TEST(OptioFormation, DrilledAndAgileFormColumnUnwieldyAndThinDoNot) {
  State s = lone(UT::kHeavyInfantry);
  play(s, kA, cmd::ChangeFormation{1});
  EXPECT_EQ(s.unit(1)->formation, Formation::kColumn);
  State w = lone(UT::kWarband);
  EXPECT_EQ(refusal(w, kA, cmd::ChangeFormation{1}).message, "warband may not form column");
  State thin = lone(UT::kHeavyInfantry, {5, 3}, kS, Formation::kLine, 1);
  EXPECT_EQ(refusal(thin, kA, cmd::ChangeFormation{1}).message,
            "heavy_infantry of 1 base may not form column");
  State c = lone(UT::kHeavyInfantry, {5, 3}, kS, Formation::kColumn);
  play(c, kA, cmd::ChangeFormation{1});
  EXPECT_EQ(c.unit(1)->formation, Formation::kLine);
}

// ---- command
// ----------------------------------------------------------------------------------------

// Unit 1 with the general; unit 2 orthogonally next to it; unit 3 only diagonally next to 2.
State chain_battle() {
  Battle b;
  b.unit(1, kA, UT::kCavalry, {5, 2}, kS)
      .unit(2, kA, UT::kCavalry, {6, 2}, kS)
      .unit(3, kA, UT::kCavalry, {7, 3}, kS)
      .unit(4, kB, UT::kHeavyInfantry, {7, 6}, kN);
  return with_generals(b, 1).start();
}

TEST(OptioCommand, TheChainRunsThroughOrthogonalNeighboursOnly) {
  State s = chain_battle();
  const Legal l = Game::legal(s, kA);
  EXPECT_TRUE(l.units[0].in_command);
  EXPECT_TRUE(l.units[1].in_command);
  EXPECT_FALSE(l.units[2].in_command);
  play(s, kA, advance(2, {{{6, 3}, kS}, {{6, 4}, kS}}));
}

TEST(OptioCommand, OutOfCommandMovesOneSquareAndNeverCharges) {
  State s = chain_battle();
  const RuleError e = refusal(s, kA, advance(3, {{{7, 4}, kS}, {{7, 5}, kS}}));
  EXPECT_EQ(e.rule, "optio.3.out_of_command");
  EXPECT_EQ(e.message, "cavalry 3 at (7,3) is out of command; it may move only one square");
  State t = s;
  t.unit(4)->pos = {7, 5};
  EXPECT_EQ(refusal(t, kA, advance(3, {{{7, 4}, kS}})).message,
            "cavalry 3 at (7,3) is out of command; it may not charge");
  play(s, kA, advance(3, {{{7, 4}, kS}}));
}

TEST(OptioCommand, OutOfCommandNotTwoTurnsRunning) {
  State s = chain_battle();
  play(s, kA, cmd::Rotate{3, kE});  // a rotation is a move
  play(s, kA, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  EXPECT_EQ(refusal(s, kA, advance(3, {{{8, 4}, kE}})).message,
            "cavalry 3 at (7,3) is out of command and moved last turn; it may not move in two "
            "turns running");
  play(s, kA, advance(1, {{{5, 3}, kS}}));  // in command, moved or not, it moves
  play(s, kA, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  play(s, kA, advance(3, {{{8, 4}, kE}}));
}

// ---- leaders
// ----------------------------------------------------------------------------------------

State leader_battle() {
  Battle b;
  b.unit(1, kA, UT::kHeavyInfantry, {2, 2}, kS)
      .unit(2, kA, UT::kHeavyInfantry, {5, 2}, kS)
      .unit(3, kA, UT::kHeavyInfantry, {6, 2}, kS)
      .unit(4, kA, UT::kHeavyInfantry, {3, 3}, kS, 3)
      .unit(5, kA, UT::kHeavyInfantry, {12, 2}, kS, 3);
  b.leader(3, kA, false, 3, 5, 8);
  return with_generals(b, 1).start();
}

TEST(OptioLeaders, ALeaderMovesUpToThreeSquaresToAUnitOfHisCommand) {
  State s = leader_battle();
  play(s, kA, cmd::MoveLeader{1, 2});
  EXPECT_EQ(s.leader(1)->unit, 2);
  EXPECT_EQ(refusal(s, kA, cmd::MoveLeader{1, 1}).message, "leader 1 has already moved this phase");
  State t = leader_battle();
  EXPECT_EQ(refusal(t, kA, cmd::MoveLeader{1, 3}).message,
            "a leader moves 3 squares; (6,2) is 4 from (2,2)");
  EXPECT_EQ(refusal(t, kA, cmd::MoveLeader{1, 4}).rule, "optio.3.leader");
}

TEST(OptioLeaders, AKilledSubcommandersCommandFollowsTheGeneral) {
  State s = leader_battle();
  EXPECT_EQ(refusal(s, kA, cmd::MoveLeader{1, 4}).rule, "optio.3.leader");
  s.leader(3)->status = LeaderStatus::kKilled;
  s.leader(3)->unit = 0;
  play(s, kA, cmd::MoveLeader{1, 4});
  for (const UnitLegal& u : Game::legal(s, kA).units) {
    EXPECT_EQ(u.in_command, u.unit == 4)
        << "unit " << u.unit;  // units 1-3 and 5 are not chained to 4
  }
}

TEST(OptioLeaders, AKilledGeneralLeavesHisCommandOutOfCommand) {
  State s = leader_battle();
  s.leader(1)->status = LeaderStatus::kKilled;
  s.leader(1)->unit = 0;
  for (const UnitLegal& u : Game::legal(s, kA).units) {
    EXPECT_EQ(u.in_command, u.unit == 5) << "unit " << u.unit;
  }
}

// legal() walks an advance's paths as a tree and stops at a refused step; the list must be
// every candidate path validate() accepts, in the candidates' order, on every unit of both
// sides in every position of random games.
std::vector<std::vector<Step>> accepted_candidates(const State& s, Side side, const Unit& u) {
  std::vector<std::vector<Step>> out;
  detail::advance_paths(u, rs().stats(u.type).move, [&](const std::vector<Step>& path) {
    if (!detail::validate(s, side, cmd::Advance{u.id, path})) out.push_back(path);
    return true;
  });
  return out;
}

TEST(OptioMovement, ListedAdvancesAreTheCandidatesValidateAccepts) {
  for (const char* file :
       {"tests/rules/optio/data/training_scenario.json", "scenarios/optio/cannae.json"}) {
    auto sc = wire::optio::scenario_from_json(read_file(file));
    ASSERT_TRUE(sc.ok()) << sc.error().message;
    int advances = 0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      State s = *Game::initial_state(*sc, rs());
      RandomPlayer player(seed);
      RandomDice dice(seed);
      for (int step = 0; step < 400 && !Game::outcome(s); ++step) {
        for (Side side : {Side::kA, Side::kB}) {
          detail::Ctx ctx(s);
          for (const Unit& u : s.units) {
            if (u.side != side || !u.on_board()) continue;
            const auto listed = detail::allowed_advances(ctx, side, u);
            ASSERT_EQ(listed, accepted_candidates(s, side, u)) << file << " seed " << seed;
            advances += static_cast<int>(listed.size());
          }
        }
        const Side side = Game::acting(s).a ? Side::kA : Side::kB;
        const auto c = player.from_list(s, Game::legal(s, side));
        if (!c) break;
        auto events = Game::decide(s, side, *c, dice);
        ASSERT_TRUE(events.ok()) << events.error().message;
        for (const Event& e : *events)
          Game::apply(s, e);
      }
    }
    EXPECT_GT(advances, 1000) << file << ": the games should reach move phases";
  }
}

}  // namespace
}  // namespace castra::rules::optio::testing
