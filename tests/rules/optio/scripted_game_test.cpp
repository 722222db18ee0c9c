// A full scripted game of the training scenario, from deployment to the result. The script
// is data (data/training_game.jsonl, one optio.ScriptLine per line in protobuf's JSON
// mapping, read through the wire codec) with its dice (data/training_game.dice), so that
// castra-sim can replay the same file. script_gen.cpp wrote both.
#include <gtest/gtest.h>

#include <sstream>

#include "common/wire/optio_codec.hpp"
#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

std::vector<int> dice_faces() {
  std::istringstream in(read_file("tests/rules/optio/data/training_game.dice"));
  std::vector<int> faces;
  for (int f; in >> f;)
    faces.push_back(f);
  return faces;
}

// The golden hash was recorded under optio-1 (a state's bytes name its version).
TEST(OptioScriptedGame, TrainingBattleRunsToSideBWinning) {
  auto sc =
      wire::optio::scenario_from_json(read_file("tests/rules/optio/data/training_scenario.json"));
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  auto script =
      wire::optio::script_from_jsonl(read_file("tests/rules/optio/data/training_game.jsonl"));
  ASSERT_TRUE(script.ok()) << script.error().message;
  auto s0 = Game::initial_state(*sc, *Game::ruleset("optio-1"));
  ASSERT_TRUE(s0.ok());
  State s = *s0;
  FixedDice dice(dice_faces());
  int fights = 0, shots = 0, rolls = 0;
  for (std::size_t i = 0; i < script->size(); ++i) {
    const auto& [side, command] = (*script)[i];
    ASSERT_FALSE(Game::outcome(s)) << "the game ended before command " << i + 1;
    ASSERT_TRUE(Game::acting(s).must_act(side)) << "command " << i + 1;
    auto ev = Game::decide(s, side, command, dice);
    ASSERT_TRUE(ev.ok()) << "command " << i + 1 << ": " << ev.error().message;
    for (const Event& e : *ev) {
      Game::apply(s, e);
      ASSERT_FALSE(Game::check(s).has_value()) << *Game::check(s);
      fights += std::holds_alternative<ev::Fight>(e);
      shots += std::holds_alternative<ev::Shot>(e);
      rolls += std::holds_alternative<ev::LeaderRoll>(e);
    }
  }
  EXPECT_TRUE(dice.exhausted());
  EXPECT_GT(fights, 0);
  EXPECT_GT(shots, 0);
  EXPECT_GT(rolls, 0);

  ASSERT_TRUE(Game::outcome(s));
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kWinB);
  EXPECT_EQ(Game::outcome(s)->reason, "side A's army broke: A lost 3/6, B lost 2/6");
  std::vector<int> routed;
  for (const Unit& u : s.units) {
    if (u.routed) routed.push_back(u.id);
  }
  EXPECT_EQ(routed, (std::vector<int>{1, 4, 6, 14, 15}));
  EXPECT_EQ(state_hash(s), 0x18ee6ed8c13a6b53ull);
}

}  // namespace
}  // namespace castra::rules::optio::testing
