// Forecasts never lie: in random games of the STAND! scenarios, every listed attack is
// forecast, then made once with each face of the d10 forced, and the forecast is held to
// the events decide produces: T, the sure casualties, whether the die is rolled, how many
// of its faces take one more figure, and the figures and strength lost either way.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "common/rules/fixed_dice.hpp"
#include "common/wire/stand_codec.hpp"
#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;
using Rng = std::mt19937_64;

struct Tally {
  int attacks = 0, rolled = 0, rear = 0, cover = 0;
};

template <typename E>
std::vector<E> all_of(const std::vector<Event>& events) {
  std::vector<E> out;
  for (const Event& e : events) {
    if (const auto* x = std::get_if<E>(&e)) out.push_back(*x);
  }
  return out;
}

void check(const State& s, Side side, const cmd::Attack& c, Tally& t) {
  const auto f = Game::forecast(Game::project(s, viewer_of(side)), side, c);
  ASSERT_TRUE(f.has_value());
  // Each term is its figures times their chance plus rear bonus; T is their sum.
  Tenths sum = 0;
  Figures attacking;
  for (const AttackTerm& term : f->terms) {
    EXPECT_EQ(term.total, term.figures * (term.chance + term.rear_bonus));
    if (!f->rear) {
      EXPECT_EQ(term.rear_bonus, 0);
    }
    attacking[term.troop] += term.figures;
    sum += term.total;
  }
  EXPECT_EQ(sum, f->total);
  EXPECT_EQ(attacking, s.at(c.from).figures);
  int extra_faces = 0;
  for (int face = 1; face <= 10; ++face) {
    FixedDice dice({face});
    auto events = Game::decide(s, side, c, dice);
    ASSERT_TRUE(events.ok());
    const auto attacked = all_of<ev::Attacked>(*events);
    const auto rolled = all_of<ev::FractionRolled>(*events);
    const auto casualties = all_of<ev::Casualties>(*events);
    ASSERT_EQ(attacked.size(), 1u);
    ASSERT_EQ(casualties.size(), 1u);
    EXPECT_EQ(attacked[0].total, f->total);
    EXPECT_EQ(attacked[0].sure, f->sure);
    EXPECT_EQ(attacked[0].rear, f->rear);
    EXPECT_EQ(attacked[0].cover, f->cover);
    EXPECT_EQ(attacked[0].posture, f->posture);
    EXPECT_EQ(attacked[0].attackers, attacking);
    EXPECT_EQ(rolled.size(), f->roll ? 1u : 0u);
    const bool extra = !rolled.empty() && rolled[0].extra;
    if (extra) ++extra_faces;
    if (!rolled.empty()) {
      EXPECT_EQ(rolled[0].fraction, f->fraction);
    }
    EXPECT_EQ(casualties[0].lost, extra ? f->lost_extra : f->lost);
    EXPECT_EQ(casualties[0].strength, extra ? f->strength_extra : f->strength);
    EXPECT_EQ(casualties[0].lost.total(), f->sure + (extra ? 1 : 0));
    if (!f->roll) break;  // no die: every face is the same attack
  }
  EXPECT_EQ(extra_faces, f->extra_faces);
  EXPECT_EQ(f->die_faces, 10);
  ++t.attacks;
  if (f->roll) ++t.rolled;
  if (f->rear) ++t.rear;
  if (f->cover) ++t.cover;
}

Scenario load(const std::string& file) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/scenarios/stand/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  auto sc = wire::stand::scenario_from_json(ss.str());
  EXPECT_TRUE(sc.ok()) << sc.error().message;
  return *sc;
}

class RandomDice final : public Dice {
 public:
  explicit RandomDice(Rng& rng) : rng_(rng) {}
  int roll(Die die) override {
    return std::uniform_int_distribution<int>(1, static_cast<int>(die))(rng_);
  }

 private:
  Rng& rng_;
};

Tally run(const std::string& file, int games) {
  Tally t;
  auto initial = Game::initial_state(load(file), *Game::ruleset(Game::current_version()));
  EXPECT_TRUE(initial.ok());
  if (!initial.ok()) return t;
  Rng rng(0xf04eca57ull ^ std::hash<std::string>{}(file));
  for (int g = 0; g < games && !::testing::Test::HasFailure(); ++g) {
    State s = *initial;
    RandomDice dice(rng);
    for (const Event& e : Game::begin(s, dice))
      Game::apply(s, e);
    for (int step = 0; step < 400 && !Game::outcome(s) && !::testing::Test::HasFailure(); ++step) {
      const Side side = Game::acting(s).a ? Side::kA : Side::kB;
      const Legal legal = Game::legal(s, side);
      for (const AttackChoice& choice : legal.attacks) {
        for (Hex target : choice.targets)
          check(s, side, cmd::Attack{choice.from, target}, t);
      }
      const std::vector<Command> options = commands(legal);
      if (options.empty()) break;
      const Command& c =
          options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
      auto events = Game::decide(s, side, c, dice);
      EXPECT_TRUE(events.ok());
      if (!events.ok()) break;
      for (const Event& e : *events)
        Game::apply(s, e);
    }
  }
  return t;
}

TEST(Forecast, StandAttacksForecastWhatDecideDoesForEveryFaceOfTheDie) {
  // Qadesh's armies meet later on a bigger map: more games to reach as many attacks.
  for (const auto& [file, games] :
       {std::pair{"training.json", 40}, std::pair{"qadesh.json", 200}}) {
    const Tally t = run(file, games);
    // The games reach attacks that roll the die, strike the rear and strike into cover.
    EXPECT_GT(t.attacks, 100) << file;
    EXPECT_GT(t.rolled, 10) << file;
    EXPECT_GT(t.rear, 5) << file;
    std::cout << file << ": " << t.attacks << " attacks, " << t.rolled << " roll the d10, "
              << t.rear << " from the rear, " << t.cover << " into cover\n";
  }
}

TEST(Forecast, StandForecastIsOnlyForAttacks) {
  const State s = Game::initial_state(load("training.json"), stand_1()).value();
  EXPECT_FALSE(Game::forecast(s, Side::kA, cmd::EndPhase{}).has_value());
  // Before the roll-off no attack is legal.
  EXPECT_FALSE(Game::forecast(s, Side::kA, cmd::Attack{{1, 1}, {1, 2}}).has_value());
}

}  // namespace
}  // namespace castra::rules::stand
