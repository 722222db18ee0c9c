// The optio wire codec: scenarios, commands, events and states survive protobuf and its
// JSON mapping unchanged; malformed messages are refused in words.
#include "common/wire/optio_codec.hpp"

#include <gtest/gtest.h>

#include "tests/rules/optio/random_player.hpp"
#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

namespace wo = castra::wire::optio;

TEST(OptioCodec, BothScenarioFilesLoadAndMakeValidStates) {
  for (const char* f :
       {"tests/rules/optio/data/training_scenario.json", "scenarios/optio/cannae.json"}) {
    auto sc = wo::scenario_from_json(read_file(f));
    ASSERT_TRUE(sc.ok()) << f << ": " << sc.error().message;
    auto s = Game::initial_state(*sc, rs());
    ASSERT_TRUE(s.ok()) << f << ": " << s.error().message;
    EXPECT_FALSE(Game::check(*s).has_value());
    auto again = wo::scenario_from_json(wo::scenario_to_json(*sc));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *sc);
  }
}

TEST(OptioCodec, CannaeHasSeveralCommandsASide) {
  auto sc = wo::scenario_from_json(read_file("scenarios/optio/cannae.json"));
  ASSERT_TRUE(sc.ok());
  int subs_a = 0, subs_b = 0;
  for (const ScenarioLeader& l : sc->leaders) {
    if (!l.general) ++(l.side == Side::kA ? subs_a : subs_b);
  }
  EXPECT_GE(subs_a, 2);
  EXPECT_GE(subs_b, 2);
}

TEST(OptioCodec, MalformedScenariosAndCommandsAreRefused) {
  EXPECT_FALSE(wo::scenario_from_json("{\"stand\":{}}").ok());
  EXPECT_FALSE(wo::scenario_from_json("not json").ok());
  EXPECT_FALSE(wo::scenario_from_json(R"({"optio":{"units":[{"id":1}]}})").ok());  // no type
  EXPECT_FALSE(wo::script_from_jsonl("{\"side\":\"SIDE_A\",\"command\":{}}\n").ok());
  auto ok = wo::script_from_jsonl("{\"side\":\"SIDE_B\",\"command\":{\"endPhase\":{}}}\n\n");
  ASSERT_TRUE(ok.ok());
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_EQ((*ok)[0].first, Side::kB);
  EXPECT_TRUE(std::holds_alternative<cmd::EndPhase>((*ok)[0].second));
}

TEST(OptioCodec, CommandsEventsAndStatesRoundTripThroughRandomGames) {
  auto sc = wo::scenario_from_json(read_file("tests/rules/optio/data/training_scenario.json"));
  ASSERT_TRUE(sc.ok());
  int commands = 0, events = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    State s = *Game::initial_state(*sc, rs());
    RandomPlayer p(seed);
    RandomDice d(seed);
    for (int step = 0; step < 400 && !Game::outcome(s); ++step) {
      const Side side = Game::acting(s).a ? Side::kA : Side::kB;
      const Command c = p.chance(0.8)
                            ? p.from_list(s, Game::legal(s, side)).value_or(cmd::EndPhase{})
                            : p.blind(s, side);
      auto back = wo::to_domain(wo::to_proto(c));
      ASSERT_TRUE(back.ok());
      ASSERT_EQ(*back, c);
      auto lines = wo::script_from_jsonl(wo::script_line_to_json(side, c));
      ASSERT_TRUE(lines.ok());
      ASSERT_EQ((*lines)[0].second, c);
      ++commands;
      auto ev = Game::decide(s, side, c, d);
      if (!ev.ok()) continue;
      for (const Event& e : *ev) {
        auto eb = wo::to_domain(wo::to_proto(e));
        ASSERT_TRUE(eb.ok());
        ASSERT_EQ(*eb, e) << Game::describe(s, e);
        ++events;
        Game::apply(s, e);
      }
      auto sb = wo::to_domain(wo::to_proto(s));
      ASSERT_TRUE(sb.ok()) << sb.error().message;
      ASSERT_EQ(*sb, s);
      (void)wo::to_proto(Game::legal(s, side));
    }
  }
  EXPECT_GT(commands, 1000);
  EXPECT_GT(events, 1000);
}

}  // namespace
}  // namespace castra::rules::optio::testing
