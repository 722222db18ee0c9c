// The scenario fields campaign battles need (issue 13), Optio's part: a unit that starts
// disordered, with its disorder count, or with missile hits, as its last battle left it.
// Expected turns and counts are read off shared/rules/optio.md ("Disorder", section 7).
#include <gtest/gtest.h>

#include <algorithm>

#include "common/wire/optio_codec.hpp"
#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

constexpr int kS = 2;  // facing south, side A's front
constexpr int kN = 0;  // facing north, side B's front

ScenarioUnit& unit_of(Battle& bt, int id) {
  return *std::find_if(bt.sc.units.begin(), bt.sc.units.end(),
                       [&](const ScenarioUnit& u) { return u.id == id; });
}

// Both generals' units far apart, so nothing fights unless a test makes it.
Battle quiet_battle() {
  Battle bt;
  bt.unit(3, Side::kA, UnitType::kHeavyInfantry, {14, 1}, kS)
      .unit(4, Side::kB, UnitType::kHeavyInfantry, {14, 8}, kN)
      .leader(1, Side::kA, true, 1, 3)
      .leader(2, Side::kB, true, 2, 4);
  return bt;
}

// Both sides end their move phases: the melee phase and the end of the game turn follow.
std::vector<Event> end_game_turn(State& s) {
  play(s, Side::kA, cmd::EndPhase{});
  return play(s, Side::kB, cmd::EndPhase{});
}

bool recovered(const std::vector<Event>& events, int unit) {
  const auto all = events_of<ev::DisorderRecovered>(events);
  return std::any_of(all.begin(), all.end(),
                     [&](const ev::DisorderRecovered& e) { return e.unit == unit; });
}

RuleError scenario_refusal(const Battle& bt) {
  auto s = Game::initial_state(bt.sc, *bt.rules);
  EXPECT_FALSE(s.ok()) << "the scenario was accepted";
  return s.ok() ? RuleError{} : s.error();
}

TEST(CampaignScenarioFields, OptioUnitsStartingDisorderedRecoverOnTheRulesSchedule) {
  Battle bt = quiet_battle();
  bt.unit(10, Side::kA, UnitType::kHeavyInfantry, {2, 1}, kS)    // drilled: 2 ends of turn
      .unit(11, Side::kA, UnitType::kPikes, {4, 1}, kS)          // unwieldy: 3
      .unit(12, Side::kA, UnitType::kLightInfantry, {6, 1}, kS)  // agile: 1
      .unit(13, Side::kA, UnitType::kWarband, {8, 1}, kS);       // unwieldy, 2 of 3 left
  for (int id : {10, 11, 12, 13})
    unit_of(bt, id).disordered = true;
  unit_of(bt, 13).disorder_turns = 2;

  State s = bt.start();
  EXPECT_EQ(s.unit(10)->disorder_turns, 2);  // 0 in the scenario: the drill's whole count
  EXPECT_EQ(s.unit(11)->disorder_turns, 3);
  EXPECT_EQ(s.unit(12)->disorder_turns, 1);
  EXPECT_EQ(s.unit(13)->disorder_turns, 2);
  EXPECT_TRUE(s.unit(10)->disordered);

  // The turn at whose end each unit recovers, written from the rules: a count of n ends
  // of turn recovers at the n-th end of turn, the first game turn's included.
  const std::vector<std::pair<int, int>> expected = {{10, 2}, {11, 3}, {12, 1}, {13, 2}};
  for (int turn = 1; turn <= 3; ++turn) {
    ASSERT_EQ(s.turn, turn);
    const auto events = end_game_turn(s);
    for (const auto& [id, at] : expected) {
      EXPECT_EQ(recovered(events, id), turn == at) << "unit " << id << ", turn " << turn;
      EXPECT_EQ(s.unit(id)->disordered, turn < at) << "unit " << id << ", turn " << turn;
    }
  }
}

TEST(CampaignScenarioFields, OptioADisorderedUnitStartsWithTheDisorderedModifier) {
  // Section 7: a disordered shooter shoots at -1.
  Battle bt = quiet_battle();
  bt.unit(1, Side::kA, UnitType::kArchers, {5, 3}, kS)
      .unit(2, Side::kB, UnitType::kHeavyInfantry, {5, 5}, kN);
  unit_of(bt, 1).disordered = true;
  State s = bt.start();
  const auto shots = events_of<ev::Shot>(play(s, Side::kA, cmd::Shoot{1, 2}));
  ASSERT_EQ(shots.size(), 1u);
  EXPECT_EQ(shots[0].base, 2);
  EXPECT_EQ(shots[0].shift, -1);
  EXPECT_EQ(shots[0].hits, 1);  // the hits table: 2 at -1 is 1
}

TEST(CampaignScenarioFields, OptioMissileHitsCarriedInCostAnIntervalAtTheFourth) {
  Battle bt = quiet_battle();
  bt.unit(1, Side::kA, UnitType::kSkirmishers, {5, 3}, kS)
      .unit(2, Side::kB, UnitType::kHeavyInfantry, {5, 5}, kN)
      .unit(5, Side::kA, UnitType::kSkirmishers, {9, 3}, kS)
      .unit(6, Side::kB, UnitType::kHeavyInfantry, {9, 5}, kN);
  unit_of(bt, 2).missile_hits = 3;
  unit_of(bt, 6).missile_hits = 2;
  State s = bt.start();
  EXPECT_EQ(s.unit(2)->missile_hits, 3);

  // One hit brings unit 2 to 4: it loses one interval (2-2 heavy infantry: 4 to 3) and
  // its count starts again at 0.
  const auto first = play(s, Side::kA, cmd::Shoot{1, 2});
  EXPECT_EQ(events_of<ev::Shot>(first), (std::vector<ev::Shot>{{.shooter = 1,
                                                                .target = 2,
                                                                .at_charger = false,
                                                                .base = 1,
                                                                .shift = 0,
                                                                .hits = 1,
                                                                .missile_before = 3,
                                                                .missile_after = 0,
                                                                .intervals = 1}}));
  EXPECT_EQ(events_of<ev::MoraleChanged>(first), (std::vector<ev::MoraleChanged>{{2, 4, 3}}));
  EXPECT_EQ(s.unit(2)->morale, 3);
  EXPECT_EQ(s.unit(2)->missile_hits, 0);

  // Unit 6 started with 2: one hit makes 3 and costs nothing.
  const auto second = play(s, Side::kA, cmd::Shoot{5, 6});
  EXPECT_TRUE(events_of<ev::MoraleChanged>(second).empty());
  EXPECT_EQ(s.unit(6)->missile_hits, 3);
  EXPECT_EQ(s.unit(6)->morale, 4);
}

TEST(CampaignScenarioFields, OptioOutOfRangeDisorderAndMissileHitsAreRefusedNamingTheRule) {
  const auto with = [](auto change) {
    Battle bt = quiet_battle();
    bt.unit(10, Side::kA, UnitType::kHeavyInfantry, {2, 1}, kS)
        .unit(12, Side::kA, UnitType::kLightInfantry, {6, 1}, kS);
    change(bt);
    return bt;
  };
  // A disorder count without disorder.
  RuleError e = scenario_refusal(with([](Battle& bt) { unit_of(bt, 10).disorder_turns = 1; }));
  EXPECT_EQ(e.rule, "optio.8.disorder");
  EXPECT_EQ(e.message, "unit 10: disorder_turns 1 is given but the unit is not disordered");
  // More ends of turn than the drill's recovery takes: drilled 2, agile 1.
  e = scenario_refusal(with([](Battle& bt) {
    unit_of(bt, 10).disordered = true;
    unit_of(bt, 10).disorder_turns = 3;
  }));
  EXPECT_EQ(e.rule, "optio.8.disorder");
  EXPECT_EQ(e.message,
            "unit 10: drilled units recover from disorder after 2 ends of turn; disorder_turns "
            "must be 1 to 2, or 0 for all 2, not 3");
  e = scenario_refusal(with([](Battle& bt) {
    unit_of(bt, 12).disordered = true;
    unit_of(bt, 12).disorder_turns = 2;
  }));
  EXPECT_EQ(e.rule, "optio.8.disorder");
  e = scenario_refusal(with([](Battle& bt) {
    unit_of(bt, 12).disordered = true;
    unit_of(bt, 12).disorder_turns = -1;
  }));
  EXPECT_EQ(e.rule, "optio.8.disorder");
  // Missile hits: 4 would already have cost an interval.
  e = scenario_refusal(with([](Battle& bt) { unit_of(bt, 10).missile_hits = 4; }));
  EXPECT_EQ(e.rule, "optio.7.missile_hits");
  EXPECT_EQ(e.message,
            "unit 10: missile hits 4 must be 0 to 3; each 4 hits cost an interval and the count "
            "starts again");
  e = scenario_refusal(with([](Battle& bt) { unit_of(bt, 10).missile_hits = -1; }));
  EXPECT_EQ(e.rule, "optio.7.missile_hits");

  // The edges of the ranges are accepted.
  const Battle edge = with([](Battle& bt) {
    unit_of(bt, 10).disordered = true;
    unit_of(bt, 10).disorder_turns = 2;
    unit_of(bt, 10).missile_hits = 3;
    unit_of(bt, 12).disordered = true;
    unit_of(bt, 12).disorder_turns = 1;
  });
  auto s = Game::initial_state(edge.sc, *edge.rules);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_FALSE(Game::check(*s).has_value());
}

TEST(CampaignScenarioFields, OptioStartingConditionSurvivesTheScenarioFileRoundTrip) {
  Battle bt = quiet_battle();
  bt.unit(10, Side::kA, UnitType::kHeavyInfantry, {2, 1}, kS);
  unit_of(bt, 10).disordered = true;
  unit_of(bt, 10).disorder_turns = 1;
  unit_of(bt, 10).missile_hits = 2;
  auto back = wire::optio::scenario_from_json(wire::optio::scenario_to_json(bt.sc));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, bt.sc);

  // The fields as a scenario file writes them.
  auto read = wire::optio::scenario_from_json(R"({"optio": {"units": [
      {"id": 7, "side": "SIDE_B", "type": "UNIT_TYPE_PIKES", "command": 2, "at": {"col": 3, "row": 8},
       "disordered": true, "disorder_turns": 3, "missile_hits": 1}]}})");
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->units.size(), 1u);
  EXPECT_TRUE(read->units[0].disordered);
  EXPECT_EQ(read->units[0].disorder_turns, 3);
  EXPECT_EQ(read->units[0].missile_hits, 1);
}

}  // namespace
}  // namespace castra::rules::optio::testing
