// Section 2 of the rules: the scenario, the roll-off and deployment by zones, up to the
// first move phase.
#include <gtest/gtest.h>

#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

State fresh(const Scenario& sc) {
  auto s = Game::initial_state(sc, stand_1());
  EXPECT_TRUE(s.ok()) << s.error().message;
  return *s;
}

std::vector<Event> open_game(State& s, std::vector<int> faces) {
  ScriptedDice dice(std::move(faces));
  auto events = Game::begin(s, dice);
  for (const Event& e : events) {
    Game::apply(s, e);
    EXPECT_FALSE(Game::check(s).has_value()) << *Game::check(s);
  }
  return events;
}

TEST(StandRollOff, SideARollsFirstAndTheHigherRollMovesFirst) {
  State s = fresh(scenario(8, 8));
  const auto events = open_game(s, {5, 2});
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0], Event{(ev::RollOff{kA, 5})});
  EXPECT_EQ(events[1], Event{(ev::RollOff{kB, 2})});
  EXPECT_EQ(events[2], Event{ev::RollOffWon{kA}});
  // The loser deploys first, in the 3 rows nearest its edge (the bottom for side B).
  EXPECT_EQ(events[3], Event{(ev::DeploymentBegan{kB, RowSpan{5, 7}})});
  EXPECT_EQ(s.first, kA);
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "deploy"}));
}

TEST(StandRollOff, TiesAreRolledAgain) {
  State s = fresh(scenario(8, 8));
  ScriptedDice dice({3, 3, 1, 4});
  const auto events = Game::begin(s, dice);
  EXPECT_EQ(only<ev::RollOff>(events).size(), 4u);
  EXPECT_EQ(dice.rolled, std::vector<Die>(4, Die::kD6));
  EXPECT_EQ(only<ev::RollOffWon>(events)[0].winner, kB);
  EXPECT_EQ(only<ev::DeploymentBegan>(events)[0], (ev::DeploymentBegan{kA, RowSpan{0, 2}}));
}

TEST(StandRollOff, TheRollOffHappensOnceAndComesBeforeAnyCommand) {
  State s = fresh(scenario(8, 8));
  EXPECT_EQ(Game::acting(s), (Acting{false, false, "roll-off"}));
  EXPECT_EQ(refusal(s, kA, cmd::EndPhase{}), "stand.2.roll_off");
  open_game(s, {6, 1});
  ScriptedDice none;
  EXPECT_TRUE(Game::begin(s, none).empty());
  EXPECT_TRUE(none.rolled.empty());
}

TEST(StandDeploy, TheLoserDeploysFirstInItsFirstThreeRows) {
  State s = fresh(scenario(8, 8));
  open_game(s, {1, 6});  // side A loses: rows 0 to 2
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{3, 2}, infantry(6), 5}), "");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{3, 3}, infantry(6), 5}), "stand.2.zone");
  EXPECT_EQ(refusal_message(s, kA, cmd::Deploy{{3, 3}, infantry(6), 5}),
            "side A deploys in rows 0 to 2; hex (3,3) is in row 3");
  EXPECT_EQ(refusal(s, kB, cmd::Deploy{{3, 7}, infantry(6), 5}), "stand.2.turn");
  const auto events = play(s, kA, cmd::Deploy{{3, 2}, infantry(6), 5});
  EXPECT_EQ(events, std::vector<Event>{(ev::Deployed{kA, {3, 2}, infantry(6), 5})});
  EXPECT_EQ(s.at({3, 2}).figures, infantry(6));
  EXPECT_EQ(s.at({3, 2}).facing, 5);
  EXPECT_EQ(s.at({3, 2}).posture, Posture::kFallingBack);
  EXPECT_EQ(s.to_deploy[index(kA)], figs(6, 6, 6, 3));
}

// Deploys side A's whole test army (12 infantry, 6 archers, 6 cavalry, 3 chariots).
void deploy_all(State& s, Side side, int row) {
  play(s, side, cmd::Deploy{{0, row}, infantry(12), 5});
  play(s, side, cmd::Deploy{{1, row}, archers(6), 5});
  play(s, side, cmd::Deploy{{2, row}, cavalry(6), 5});
  play(s, side, cmd::Deploy{{3, row}, chariots(3), 5});
}

TEST(StandDeploy, TheWinnerDeploysNextInItsFirstTwoRows) {
  State s = fresh(scenario(8, 8));
  open_game(s, {1, 6});
  deploy_all(s, kA, 0);
  const auto ended = play(s, kA, cmd::EndPhase{});
  EXPECT_EQ(only<ev::DeploymentBegan>(ended)[0], (ev::DeploymentBegan{kB, RowSpan{6, 7}}));
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "deploy"}));
  EXPECT_EQ(refusal(s, kB, cmd::Deploy{{3, 5}, infantry(6), 2}), "stand.2.zone");
  EXPECT_EQ(refusal(s, kB, cmd::Deploy{{3, 6}, infantry(6), 2}), "");
}

TEST(StandDeploy, TheBattleBeginsWithTheWinnersMovePhase) {
  State s = fresh(scenario(8, 8));
  open_game(s, {1, 6});
  deploy_all(s, kA, 0);
  play(s, kA, cmd::EndPhase{});
  deploy_all(s, kB, 7);
  const auto events = play(s, kB, cmd::EndPhase{});
  const int strength = 12 + 6 + 6 * 2 + 3 * 4;
  EXPECT_EQ(only<ev::BattleBegan>(events)[0].start_strength,
            (std::array<int, 2>{strength, strength}));
  EXPECT_EQ(only<ev::PhaseBegan>(events)[0], (ev::PhaseBegan{kB, Phase::kMove, 1}));
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "move", 1}));
  EXPECT_EQ(s.at({2, 7}).unmoved, cavalry(6));
}

TEST(StandDeploy, ADeploymentTakesOnlyWhatTheArmyListHasLeft) {
  State s = fresh(scenario(8, 8));
  open_game(s, {1, 6});
  play(s, kA, cmd::Deploy{{0, 0}, cavalry(4), 0});
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{1, 0}, cavalry(3), 0}), "stand.2.army");
  EXPECT_EQ(refusal_message(s, kA, cmd::Deploy{{1, 0}, cavalry(3), 0}),
            "side A has 2 cavalry left to deploy; 3 named");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{1, 0}, cavalry(2), 0}), "");
}

TEST(StandDeploy, DeploymentObeysSharingTerrainAndCapacity) {
  Scenario sc = scenario(8, 8, {ground({4, 1}, Terrain::kWoods), ground({5, 1}, Terrain::kWater)});
  State s = fresh(sc);
  open_game(s, {1, 6});
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{0, 0}, figs(2, 0, 2, 0), 0}), "stand.1.share");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{4, 1}, chariots(1), 0}), "stand.3.terrain");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{5, 1}, infantry(1), 0}), "stand.3.terrain");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{4, 1}, infantry(9), 0}), "stand.1.capacity");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{0, 0}, figs(4, 2, 0, 0), 0}), "");
  play(s, kA, cmd::Deploy{{0, 0}, infantry(8), 0});
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{0, 0}, cavalry(1), 0}), "stand.1.share");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{0, 0}, archers(5), 0}), "stand.1.capacity");
  play(s, kA, cmd::Deploy{{0, 0}, archers(4), 3});
  EXPECT_EQ(s.at({0, 0}).figures, figs(8, 4, 0, 0));
  EXPECT_EQ(s.at({0, 0}).facing, 3);  // the facing given last
}

TEST(StandDeploy, ADeploymentNamesFiguresAndAFacing) {
  State s = fresh(scenario(8, 8));
  open_game(s, {1, 6});
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{0, 0}, Figures{}, 0}), "stand.3.figures");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{0, 0}, infantry(-2), 0}), "stand.3.figures");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{0, 0}, infantry(2), 6}), "stand.7.facing");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{8, 0}, infantry(2), 0}), "stand.7.grid");
}

TEST(StandDeploy, DeploymentEndsOnlyWhenNoFigureFitsAnyMore) {
  State s = fresh(scenario(8, 8));
  open_game(s, {1, 6});
  play(s, kA, cmd::Deploy{{0, 0}, infantry(12), 0});
  EXPECT_EQ(refusal(s, kA, cmd::EndPhase{}), "stand.2.deploy_all");
  EXPECT_EQ(refusal_message(s, kA, cmd::EndPhase{}),
            "deploy every figure that fits before ending: 6 archers, 6 cavalry and 3 chariots "
            "still have room in your zone");
}

TEST(StandDeploy, FiguresThatFindNoRoomStayOut) {
  Scenario sc =
      scenario(2, 5,
               {ground({0, 0}, Terrain::kOpen, Crossing::kNone, 4), ground({1, 0}, Terrain::kWoods),
                ground({0, 1}, Terrain::kWoods), ground({1, 1}, Terrain::kWoods),
                ground({0, 2}, Terrain::kWoods), ground({1, 2}, Terrain::kWoods)});
  sc.armies[0].figures = chariots(3);
  sc.armies[1].figures = infantry(2);
  State s = fresh(sc);
  open_game(s, {1, 6});
  play(s, kA, cmd::Deploy{{0, 0}, chariots(1), 3});
  const auto events = play(s, kA, cmd::EndPhase{});
  EXPECT_EQ(only<ev::DeploymentEnded>(events)[0], (ev::DeploymentEnded{kA, chariots(2)}));
  EXPECT_TRUE(s.to_deploy[index(kA)].empty());
  play(s, kB, cmd::Deploy{{0, 4}, infantry(2), 1});
  const auto begun = play(s, kB, cmd::EndPhase{});
  // Starting strength is what each side has on the map when the battle begins.
  EXPECT_EQ(only<ev::BattleBegan>(begun)[0].start_strength, (std::array<int, 2>{4, 2}));
}

TEST(StandDeploy, FacingMayChangeDuringDeploymentButPostureWaitsForTheMovePhase) {
  State s = fresh(scenario(8, 8));
  open_game(s, {1, 6});
  play(s, kA, cmd::Deploy{{0, 0}, infantry(12), 0});
  play(s, kA, cmd::Face{{0, 0}, 4});
  EXPECT_EQ(s.at({0, 0}).facing, 4);
  EXPECT_EQ(refusal(s, kA, cmd::SetPosture{{0, 0}, Posture::kStanding}), "stand.2.phase");
  EXPECT_EQ(refusal(s, kA, cmd::Move{{0, 0}, {{1, 0}}, infantry(1)}), "stand.2.phase");
  EXPECT_EQ(refusal(s, kA, cmd::Attack{{0, 0}, {1, 0}}), "stand.2.phase");
}

TEST(StandScenario, AScenarioBuildsItsMapWithDefaultsAndOverrides) {
  Scenario sc = scenario(
      6, 6,
      {ground({1, 1}, Terrain::kWoods), ground({2, 2}, Terrain::kWater, Crossing::kFord),
       ground({3, 3}, Terrain::kHill, Crossing::kNone, 20), ground({4, 4}, Terrain::kWater)});
  State s = fresh(sc);
  EXPECT_EQ(s.version, "stand-1");
  EXPECT_EQ(s.turn_limit, 12);
  EXPECT_EQ(s.at({0, 0}).terrain, Terrain::kOpen);
  EXPECT_EQ(s.at({0, 0}).capacity, 12);
  EXPECT_EQ(s.at({1, 1}).capacity, 8);
  EXPECT_EQ(s.at({2, 2}).capacity, 12);
  EXPECT_EQ(s.at({3, 3}).capacity, 20);
  EXPECT_EQ(s.at({4, 4}).capacity, 0);
  EXPECT_EQ(s.to_deploy[index(kA)], sc.armies[0].figures);
  EXPECT_EQ(s.army_names[1], "Red");
  sc.turn_limit = 7;
  EXPECT_EQ(fresh(sc).turn_limit, 7);
}

TEST(StandScenario, AMalformedScenarioIsARuleErrorNotACrash) {
  auto refused = [](const Scenario& sc) {
    auto s = Game::initial_state(sc, stand_1());
    return s.ok() ? std::string() : s.error().rule;
  };
  EXPECT_EQ(refused(scenario(0, 8)), "stand.scenario");
  EXPECT_EQ(refused(scenario(8, 4)), "stand.7.map_height");  // the default rows need 5
  EXPECT_EQ(refused(scenario(8, 65)), "stand.scenario");
  EXPECT_EQ(refused(scenario(8, 8, {ground({8, 0}, Terrain::kWoods)})), "stand.scenario");
  EXPECT_EQ(
      refused(scenario(8, 8, {ground({1, 1}, Terrain::kWoods), ground({1, 1}, Terrain::kHill)})),
      "stand.scenario");
  EXPECT_EQ(refused(scenario(8, 8, {ground({1, 1}, Terrain::kWoods, Crossing::kFord)})),
            "stand.scenario");
  EXPECT_EQ(refused(scenario(8, 8, {ground({1, 1}, Terrain::kOpen, Crossing::kNone, -1)})),
            "stand.scenario");
  EXPECT_EQ(refused(scenario(8, 8, {ground({1, 1}, static_cast<Terrain>(9))})), "stand.scenario");
  Scenario sc = scenario(8, 8);
  sc.armies[1].figures = Figures{};
  EXPECT_EQ(refused(sc), "stand.scenario");
  sc.armies[1].figures = infantry(-1);
  EXPECT_EQ(refused(sc), "stand.scenario");
  sc = scenario(8, 8);
  sc.turn_limit = -1;
  EXPECT_EQ(refused(sc), "stand.scenario");
  // Side A's first two rows are all water: it could never deploy a figure.
  std::vector<HexSpec> water;
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 8; ++col)
      water.push_back(ground({col, row}, Terrain::kWater));
  }
  EXPECT_EQ(refused(scenario(8, 8, water)), "stand.scenario");
  EXPECT_EQ(refused(scenario(8, 8)), "");
}

TEST(StandRuleset, TheReleasedVersionIsLoadableAndOthersAreNot) {
  EXPECT_EQ(Game::current_version(), "stand-1");
  ASSERT_NE(Game::ruleset("stand-1"), nullptr);
  EXPECT_EQ(Game::ruleset("stand-1")->version, "stand-1");
  EXPECT_EQ(Game::ruleset("stand-2"), nullptr);
  EXPECT_EQ(Game::ruleset(""), nullptr);
}

}  // namespace
}  // namespace castra::rules::stand
