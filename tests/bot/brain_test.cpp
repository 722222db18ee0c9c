// The brain plays whole games of every scenario, at both strengths, through the match layer
// (common/bot/self_play.hpp): every command it sends is accepted, every game ends, and the
// same seed plays the same game.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/bot/brain.hpp"
#include "common/bot/self_play.hpp"

namespace castra::bot {
namespace {

const std::vector<std::string> kScenarios = {"optio/training", "optio/cannae", "stand/training",
                                             "stand/qadesh"};

v1::ScenarioFile scenario(const std::string& name) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/scenarios/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  v1::ScenarioFile out;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(text.str(), &out).ok()) << name;
  return out;
}

GameResult play(const std::string& name, Strength a, Strength b, std::uint64_t seed) {
  Brain brain_a(a, seed * 2 + 1);
  Brain brain_b(b, seed * 2 + 2);
  auto result = play_game({scenario(name), seed, 20000}, brain_a, brain_b);
  EXPECT_TRUE(result.ok()) << name;
  return result.ok() ? *result : GameResult{};
}

void expect_a_whole_honest_game(const std::string& name, const GameResult& r) {
  EXPECT_EQ(r.refused, 0) << name << ": " << r.first_refusal;
  EXPECT_TRUE(r.outcome.has_value()) << name << " did not end in " << r.commands << " commands";
  EXPECT_GT(r.commands, 0) << name;
}

TEST(Brain, RandomPlaysEveryScenarioToAnEndWithOnlyLegalCommands) {
  for (const auto& name : kScenarios) {
    for (std::uint64_t seed : {1u, 2u}) {
      expect_a_whole_honest_game(name, play(name, Strength::kRandom, Strength::kRandom, seed));
    }
  }
}

TEST(Brain, GreedyPlaysEveryScenarioToAnEndWithOnlyLegalCommands) {
  for (const auto& name : kScenarios) {
    expect_a_whole_honest_game(name, play(name, Strength::kGreedy, Strength::kGreedy, 3));
  }
}

TEST(Brain, GreedyAndRandomPlayEachOtherToAnEndOnEitherSide) {
  for (const auto& name : kScenarios) {
    expect_a_whole_honest_game(name, play(name, Strength::kGreedy, Strength::kRandom, 4));
    expect_a_whole_honest_game(name, play(name, Strength::kRandom, Strength::kGreedy, 5));
  }
}

TEST(Brain, SameSeedSameGame) {
  for (const auto& name : kScenarios) {
    for (Strength s : {Strength::kRandom, Strength::kGreedy}) {
      const GameResult first = play(name, s, Strength::kRandom, 7);
      const GameResult again = play(name, s, Strength::kRandom, 7);
      EXPECT_EQ(first.commands, again.commands) << name;
      EXPECT_EQ(first.entries, again.entries) << name;
      EXPECT_EQ(first.outcome, again.outcome) << name;
    }
  }
}

TEST(Brain, NothingToPickWhenTheLegalListIsEmpty) {
  for (const auto& name : kScenarios) {
    const v1::ScenarioFile sf = scenario(name);
    for (Strength s : {Strength::kRandom, Strength::kGreedy}) {
      Brain brain(s, 9);
      v1::Snapshot view;
      v1::GameLegal legal;
      if (sf.has_optio()) {
        view.mutable_state()->mutable_optio();
        legal.mutable_optio();
      } else {
        view.mutable_state()->mutable_stand();
        legal.mutable_stand();
      }
      EXPECT_FALSE(brain.pick(view, legal, rules::Side::kA).has_value()) << name;
      EXPECT_FALSE(brain.pick(view, v1::GameLegal{}, rules::Side::kB).has_value()) << name;
    }
  }
}

TEST(Brain, StrengthsAreNamedRandomAndGreedy) {
  EXPECT_EQ(strength_from_name("random"), Strength::kRandom);
  EXPECT_EQ(strength_from_name("greedy"), Strength::kGreedy);
  EXPECT_FALSE(strength_from_name("clever").has_value());
  EXPECT_EQ(strength_name(Strength::kGreedy), "greedy");
  EXPECT_EQ(strength_name(Strength::kRandom), "random");
}

}  // namespace
}  // namespace castra::bot
