// The scenario fields campaign battles need (issue 13), Ancient STAND!'s part: the rulings'
// "Scenario deployment" (a fixed deployment, deployment zones listed hex by hex) and "Map
// height", through the engine and the scenario file.
#include <gtest/gtest.h>

#include "common/wire/stand_codec.hpp"
#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

constexpr int kE = 0;
constexpr int kNW = 2;
constexpr int kSW = 4;
constexpr int kSE = 5;

Placement placed(Side side, Hex hex, Figures f, int facing = kSE,
                 Posture posture = Posture::kFallingBack) {
  return {side, hex, f, facing, posture};
}

// A fixed deployment on an open 8 x 8 map: side A 8 infantry and 4 cavalry, side B 6
// infantry and 2 chariots, side B moving first. Side B's army names no figures: it is the
// sum of its placements.
Scenario fixed_battle(std::vector<HexSpec> hexes = {}, int height = 8) {
  Scenario sc = scenario(8, height, std::move(hexes));
  sc.armies[0].figures = figs(8, 0, 4, 0);
  sc.armies[1].figures = Figures{};
  sc.placements = {
      placed(kA, {1, 0}, infantry(8), kSE, Posture::kStanding), placed(kA, {2, 0}, cavalry(4), kSW),
      placed(kB, {1, height - 1}, infantry(6), kNW), placed(kB, {3, height - 1}, chariots(2), kNW)};
  sc.first_side = kB;
  return sc;
}

RuleError refused(const Scenario& sc) {
  auto s = Game::initial_state(sc, stand_1());
  EXPECT_FALSE(s.ok()) << "the scenario was accepted";
  return s.ok() ? RuleError{} : s.error();
}

State accepted(const Scenario& sc) {
  auto s = Game::initial_state(sc, stand_1());
  EXPECT_TRUE(s.ok()) << s.error().rule << ": " << s.error().message;
  if (!s.ok()) return {};
  EXPECT_FALSE(Game::check(*s).has_value()) << *Game::check(*s);
  return *s;
}

void open(State& s, std::vector<int> faces) {
  ScriptedDice dice(std::move(faces));
  for (const Event& e : Game::begin(s, dice)) {
    Game::apply(s, e);
    ASSERT_FALSE(Game::check(s).has_value()) << *Game::check(s);
  }
}

TEST(CampaignScenarioFields, StandFixedDeploymentThatOverfillsAHexIsRefused) {
  Scenario sc = fixed_battle({ground({4, 0}, Terrain::kWoods)});
  // 7 cavalry take 14 space; open ground holds 12.
  sc.placements[1] = placed(kA, {2, 0}, cavalry(7));
  sc.armies[0].figures = Figures{};
  RuleError e = refused(sc);
  EXPECT_EQ(e.rule, "stand.1.capacity");
  EXPECT_EQ(e.message,
            "scenario: side A's placement 2 at (2,0): hex (2,0) holds 0 of 12 space; 7 cavalry "
            "need 14");
  // 9 infantry in woods, which hold 8.
  sc.placements[1] = placed(kA, {4, 0}, infantry(9));
  EXPECT_EQ(refused(sc).rule, "stand.1.capacity");
  // 8 infantry fit the woods exactly.
  sc.placements[1] = placed(kA, {4, 0}, infantry(8));
  accepted(sc);
  // Foot and mounted in one body of troops.
  sc.placements[1] = placed(kA, {2, 0}, figs(2, 0, 1, 0));
  EXPECT_EQ(refused(sc).rule, "stand.1.share");
  // One body of troops a hex: a second placement in a hex is refused, whoever's it is.
  sc.placements[1] = placed(kA, {1, 0}, cavalry(1));
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  sc.placements[1] = placed(kB, {1, 0}, infantry(1));
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
}

TEST(CampaignScenarioFields, StandFixedDeploymentThatBreaksATerrainRuleIsRefused) {
  const std::vector<HexSpec> ground_of_the_battle = {
      ground({3, 0}, Terrain::kWoods), ground({4, 0}, Terrain::kWater),
      ground({5, 0}, Terrain::kWater, Crossing::kFord), ground({6, 0}, Terrain::kSteep)};
  Scenario sc = fixed_battle(ground_of_the_battle);
  sc.armies[0].figures = Figures{};

  sc.placements[1] = placed(kA, {3, 0}, chariots(1));
  RuleError e = refused(sc);
  EXPECT_EQ(e.rule, "stand.3.terrain");
  EXPECT_EQ(e.message,
            "scenario: side A's placement 2 at (3,0): chariots may not enter woods "
            "(hex (3,0))");
  // Water without a crossing, whatever troops.
  sc.placements[1] = placed(kA, {4, 0}, infantry(1));
  e = refused(sc);
  EXPECT_EQ(e.rule, "stand.3.terrain");
  EXPECT_EQ(e.message,
            "scenario: side A's placement 2 at (4,0): hex (4,0) is water; troops "
            "cross water only at a ford or bridge");
  // Cavalry may not climb steep ground.
  sc.placements[1] = placed(kA, {6, 0}, cavalry(1));
  EXPECT_EQ(refused(sc).rule, "stand.3.terrain");
  // A ford takes every type; infantry may stand in woods and on steep ground.
  sc.placements[1] = placed(kA, {5, 0}, chariots(3));
  accepted(sc);
  sc.placements[1] = placed(kA, {3, 0}, infantry(2));
  accepted(sc);
  sc.placements[1] = placed(kA, {6, 0}, infantry(2));
  accepted(sc);
}

TEST(CampaignScenarioFields, StandFixedDeploymentStartsWithoutARollOffAndTheNamedSideMoves) {
  State s = accepted(fixed_battle());
  EXPECT_EQ(s.phase, Phase::kRollOff);
  EXPECT_EQ(Game::acting(s), (Acting{false, false, "roll-off"}));
  EXPECT_EQ(s.at({1, 0}).figures, infantry(8));
  EXPECT_EQ(s.at({1, 0}).facing, kSE);
  EXPECT_EQ(s.at({1, 0}).posture, Posture::kStanding);
  EXPECT_EQ(s.at({3, 7}).side, kB);
  EXPECT_EQ(s.at({3, 7}).figures, chariots(2));
  EXPECT_EQ(s.to_deploy, (std::array<Figures, 2>{}));

  // No die: the battle begins with side B's move phase. Strength: A 8 + 4 x 2 = 16,
  // B 6 + 2 x 4 = 14.
  ScriptedDice dice;
  const std::vector<Event> events = Game::begin(s, dice);
  EXPECT_TRUE(dice.rolled.empty());
  EXPECT_EQ(events,
            (std::vector<Event>{ev::BattleBegan{{16, 14}}, ev::PhaseBegan{kB, Phase::kMove, 1}}));
  for (const Event& e : events)
    Game::apply(s, e);
  EXPECT_FALSE(Game::check(s).has_value()) << *Game::check(s);
  EXPECT_EQ(s.first, kB);
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "move", 1}));
  EXPECT_EQ(s.at({3, 7}).unmoved, chariots(2));
  EXPECT_EQ(refusal(s, kA, cmd::EndPhase{}), "stand.2.turn");

  // Side B's turn, then side A's move phase of the same game turn.
  play(s, kB, cmd::Move{{3, 7}, {{3, 6}, {3, 5}}, chariots(2)});
  play(s, kB, cmd::EndPhase{});
  play(s, kB, cmd::EndPhase{});
  EXPECT_EQ(Game::acting(s), (Acting{true, false, "move", 1}));
  ScriptedDice none;
  EXPECT_TRUE(Game::begin(s, none).empty());
}

TEST(CampaignScenarioFields, StandFixedDeploymentPlacesTheWholeArmy) {
  Scenario sc = fixed_battle();
  sc.armies[1].figures = figs(6, 0, 0, 1);  // the placements hold 2 chariots
  RuleError e = refused(sc);
  EXPECT_EQ(e.rule, "stand.7.deployment");
  EXPECT_EQ(e.message,
            "scenario: side B's army is 6 infantry and 1 chariot but its placements "
            "hold 6 infantry and 2 chariots; a fixed deployment places the whole army");
  // An army with no placement at all.
  sc = fixed_battle();
  sc.placements.pop_back();
  sc.placements.pop_back();
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  // A placement off the map, or of no figures.
  sc = fixed_battle();
  sc.placements[0].hex = {8, 0};
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  sc = fixed_battle();
  sc.placements[2].figures = Figures{};
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  // A fixed deployment has no zones; without one, the roll-off names who moves first.
  sc = fixed_battle();
  sc.zones = {std::vector<Hex>{{0, 0}}, std::vector<Hex>{{0, 7}}};
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  sc = scenario(8, 8);
  sc.first_side = kB;
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
}

// Zones other than the default rows: side A holds a ridge in the middle of the map, side B
// two hexes near its edge. The lists are given out of order on purpose.
Scenario zoned_battle(int height = 8) {
  Scenario sc = scenario(8, height);
  sc.armies[0].figures = figs(12, 0, 2, 0);
  sc.armies[1].figures = figs(12, 0, 2, 0);
  sc.zones[0] = {{4, 3}, {2, 2}, {3, 3}};
  sc.zones[1] = {{4, height - 2}, {3, height - 2}};
  return sc;
}

TEST(CampaignScenarioFields, StandListedZonesKeepTheRollOffAndRefuseHexesOutsideThem) {
  State s = accepted(zoned_battle());
  EXPECT_EQ(s.zones[0], (std::vector<Hex>{{2, 2}, {3, 3}, {4, 3}}));  // row by row
  ScriptedDice dice({5, 2});  // side A wins: side B deploys first
  const std::vector<Event> events = Game::begin(s, dice);
  EXPECT_EQ(events, (std::vector<Event>{ev::RollOff{kA, 5}, ev::RollOff{kB, 2}, ev::RollOffWon{kA},
                                        ev::DeploymentBegan{kB, RowSpan{}}}));
  for (const Event& e : events)
    Game::apply(s, e);
  EXPECT_FALSE(Game::check(s).has_value()) << *Game::check(s);

  // Row 7 is in side B's default rows, but not in its zone.
  EXPECT_EQ(refusal(s, kB, cmd::Deploy{{3, 7}, infantry(12), kNW}), "stand.2.zone");
  EXPECT_EQ(refusal_message(s, kB, cmd::Deploy{{3, 7}, infantry(12), kNW}),
            "side B deploys in the 2 hexes of its zone the scenario gives; hex (3,7) is not one "
            "of them");
  const Legal legal = Game::legal(s, kB);
  ASSERT_FALSE(legal.deploy.empty());
  std::vector<Hex> offered;
  for (const Destination& d : legal.deploy[0].destinations)
    offered.push_back(d.hex);
  EXPECT_EQ(offered, (std::vector<Hex>{{3, 6}, {4, 6}}));
  play(s, kB, cmd::Deploy{{3, 6}, infantry(12), kNW});
  play(s, kB, cmd::Deploy{{4, 6}, cavalry(2), kNW});
  const auto ended = play(s, kB, cmd::EndPhase{});
  EXPECT_EQ(ended, (std::vector<Event>{ev::DeploymentEnded{kB, Figures{}},
                                       ev::DeploymentBegan{kA, RowSpan{}}}));

  // Side A deploys on its ridge, never in its default rows.
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{2, 0}, infantry(1), kSE}), "stand.2.zone");
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{3, 6}, infantry(1), kSE}), "stand.2.zone");
  play(s, kA, cmd::Deploy{{2, 2}, infantry(12), kSE});
  play(s, kA, cmd::Deploy{{4, 3}, cavalry(2), kE});
  play(s, kA, cmd::EndPhase{});
  EXPECT_EQ(Game::acting(s), (Acting{true, false, "move", 1}));
  EXPECT_EQ(s.start_strength, (std::array<int, 2>{16, 16}));
}

TEST(CampaignScenarioFields, StandMalformedZonesAreRefusedNamingTheRuling) {
  Scenario sc = zoned_battle();
  sc.zones[1].clear();  // one side only
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  sc = zoned_battle();
  sc.zones[1].push_back({2, 2});  // in both zones
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  sc = zoned_battle();
  sc.zones[0].push_back({0, 8});  // off the map
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  sc = zoned_battle();
  sc.zones[0].push_back({2, 2});  // twice
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
  // A zone that can take no figure of its army: chariots only, woods only.
  sc = zoned_battle();
  sc.armies[0].figures = chariots(2);
  sc.hexes = {ground({2, 2}, Terrain::kWoods), ground({3, 3}, Terrain::kWoods),
              ground({4, 3}, Terrain::kSwamp)};
  EXPECT_EQ(refused(sc).rule, "stand.7.deployment");
}

TEST(CampaignScenarioFields, StandAMapUnderFiveRowsNeedsZonesOrAFixedDeployment) {
  RuleError e = refused(scenario(8, 4));
  EXPECT_EQ(e.rule, "stand.7.map_height");
  EXPECT_EQ(e.message,
            "scenario: the map has 4 rows; the default deployment rows (3 for the "
            "roll-off's loser, 2 for the winner) need 5: give deployment zones or a "
            "fixed deployment");
  accepted(scenario(8, 5));
  accepted(zoned_battle(4));
  accepted(fixed_battle({}, 4));
  // Three rows with zones: row 0 for side A, row 2 for side B.
  Scenario narrow = scenario(8, 3);
  narrow.armies[0].figures = infantry(12);
  narrow.armies[1].figures = infantry(12);
  narrow.zones = {std::vector<Hex>{{0, 0}, {1, 0}}, std::vector<Hex>{{0, 2}, {1, 2}}};
  State s = accepted(narrow);
  open(s, {1, 6});  // side A loses and deploys first
  play(s, kA, cmd::Deploy{{1, 0}, infantry(12), kSE});
  EXPECT_EQ(refusal(s, kA, cmd::Deploy{{2, 0}, infantry(1), kSE}), "stand.2.zone");
}

TEST(CampaignScenarioFields, StandDeploymentFieldsSurviveTheScenarioFileRoundTrip) {
  Scenario fixed = fixed_battle({ground({5, 0}, Terrain::kWater, Crossing::kFord, 16)});
  auto back = wire::stand::scenario_from_json(wire::stand::scenario_to_json(fixed));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, fixed);
  Scenario zoned = zoned_battle();
  back = wire::stand::scenario_from_json(wire::stand::scenario_to_json(zoned));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, zoned);

  // The fields as a scenario file writes them.
  auto read = wire::stand::scenario_from_json(R"({"stand": {"name": "ambush", "width": 6,
      "height": 4, "side_a": {"name": "Hittites"}, "side_b": {"name": "Egyptians"},
      "placements": [
        {"side": "SIDE_A", "hex": {"col": 1, "row": 0}, "figures": {"chariots": 3},
         "facing": "FACING_SE", "posture": "POSTURE_STANDING"},
        {"side": "SIDE_B", "hex": {"col": 2, "row": 3}, "figures": {"infantry": 10}}],
      "first_side": "SIDE_A", "zone_a": [], "zone_b": []}})");
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->placements,
            (std::vector<Placement>{placed(kA, {1, 0}, chariots(3), kSE, Posture::kStanding),
                                    placed(kB, {2, 3}, infantry(10), kE)}));
  EXPECT_EQ(read->first_side, kA);
  State s = accepted(*read);
  EXPECT_EQ(s.at({2, 3}).figures, infantry(10));

  read = wire::stand::scenario_from_json(R"({"stand": {"width": 6, "height": 4,
      "side_a": {"figures": {"infantry": 4}}, "side_b": {"figures": {"infantry": 4}},
      "zone_a": [{"col": 0, "row": 0}], "zone_b": [{"col": 5, "row": 3}]}})");
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->zones[0], (std::vector<Hex>{{0, 0}}));
  EXPECT_EQ(read->zones[1], (std::vector<Hex>{{5, 3}}));

  // A malformed placement is the codec's refusal, before any rule is read.
  read = wire::stand::scenario_from_json(R"({"stand": {"width": 6, "height": 6,
      "side_a": {}, "side_b": {}, "placements": [{"side": "SIDE_A", "figures": {"infantry": 1}}]}})");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().rule, "stand.wire.scenario");
}

TEST(CampaignScenarioFields, StandAStateWithListedZonesSurvivesTheWireWithItsBytes) {
  State s = accepted(zoned_battle());
  open(s, {2, 5});  // side A loses and deploys first, in its listed zone
  ASSERT_EQ(s.phase, Phase::kDeploy);
  auto back = wire::stand::to_domain(wire::stand::to_proto(s));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, s);
  ByteWriter a;
  ByteWriter b;
  Game::encode(s, a);
  Game::encode(*back, b);
  EXPECT_EQ(a.bytes(), b.bytes());
  // The zones are part of the state's bytes: the same battle with other zones differs.
  Scenario other = zoned_battle();
  other.zones[0] = {{2, 2}, {3, 3}, {5, 3}};
  State t = accepted(other);
  open(t, {2, 5});
  ByteWriter c;
  Game::encode(t, c);
  EXPECT_NE(a.bytes(), c.bytes());
}

}  // namespace
}  // namespace castra::rules::stand
