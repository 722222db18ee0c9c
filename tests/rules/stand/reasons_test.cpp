// STAND!'s reasons(): worked cases for each rule that stops a hex, and random games in
// which every hex of both sides is explained exactly when, and for exactly the kinds of
// action that, legal() offers it nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "common/rules/stand/reasons.hpp"
#include "common/wire/stand_codec.hpp"
#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

const Refusal* refusal_for(const Reasons& r, const std::string& action) {
  for (const Refusal& x : r.refusals) {
    if (x.action == action) return &x;
  }
  return nullptr;
}

TEST(Reasons, StandHexThatAttackedSaysSo) {
  State s = battle(6, 6, {}, Phase::kFight);
  put(s, kA, {2, 2}, infantry(6));
  put(s, kB, {3, 2}, infantry(6));
  put(s, kB, {5, 5}, infantry(12));  // so that one attack does not break side B
  ScriptedDice dice({1});
  play(s, kA, cmd::Attack{{2, 2}, {3, 2}}, dice);
  const Reasons r = reasons(s, kA, {2, 2});
  EXPECT_FALSE(r.can_act);
  EXPECT_EQ(r.refusals,
            (std::vector<Refusal>{
                {"attack", refuse("stand.4.once", "hex (2,2) has already attacked this phase")}}));
}

TEST(Reasons, StandHexWithNoEnemyNextToItHasNothingToAttack) {
  State s = battle(6, 6, {}, Phase::kFight);
  put(s, kA, {0, 0}, infantry(6));
  put(s, kB, {4, 4}, infantry(6));
  const Reasons r = reasons(s, kA, {0, 0});
  EXPECT_FALSE(r.can_act);
  ASSERT_EQ(r.refusals.size(), 1u);
  EXPECT_EQ(r.refusals[0].why, refuse("stand.4.target", "no enemy hex is next to hex (0,0)"));
}

TEST(Reasons, StandHexWhoseFiguresMovedMayStillTurnButNotMove) {
  State s = battle(6, 6);
  put(s, kA, {1, 1}, infantry(4));
  put(s, kB, {5, 5}, infantry(4));
  play(s, kA, cmd::Move{{1, 1}, {{2, 1}}, infantry(4)});
  const Reasons r = reasons(s, kA, {2, 1});
  EXPECT_TRUE(r.can_act);
  ASSERT_NE(refusal_for(r, "move"), nullptr);
  EXPECT_EQ(refusal_for(r, "move")->why.rule, "stand.3.once");
  EXPECT_EQ(refusal_for(r, "face"), nullptr);
}

TEST(Reasons, StandHexesWaitForTheirSidesTurn) {
  State s = battle(6, 6);
  put(s, kA, {1, 1}, infantry(4));
  put(s, kB, {5, 5}, infantry(4));
  const Reasons r = reasons(s, kB, {5, 5});
  EXPECT_FALSE(r.can_act);
  EXPECT_EQ(refusal_for(r, "move")->why, refuse("stand.2.turn", "it is side A's move phase"));
  EXPECT_EQ(reasons(s, kB, {1, 1}).refusals,
            (std::vector<Refusal>{
                {"select", refuse("stand.3.own", "hex (1,1) holds none of your troops")}}));
}

// ---- random games ---------------------------------------------------------------------------

using Rng = std::mt19937_64;

class RandomDice final : public Dice {
 public:
  explicit RandomDice(Rng& rng) : rng_(rng) {}
  int roll(Die die) override {
    return std::uniform_int_distribution<int>(1, static_cast<int>(die))(rng_);
  }

 private:
  Rng& rng_;
};

template <typename T, typename F>
bool any(const std::vector<T>& v, F f) {
  return std::any_of(v.begin(), v.end(), f);
}

// Every hex of `side` is explained as legal() lists it; false after the first mismatch.
bool agrees(const State& s, Side side, const std::string& where) {
  const Legal legal = Game::legal(s, side);
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    if (!s.tiles[i].held_by(side)) continue;
    const Hex h = s.hex_of(i);
    const Reasons r = reasons(s, side, h);
    const bool move = any(legal.moves, [&](const Group& g) { return g.from == h; });
    const bool face = any(legal.facings, [&](const FacingChoice& f) { return f.hex == h; });
    const bool posture = any(legal.postures, [&](const PostureChoice& p) { return p.hex == h; });
    const bool attack = any(legal.attacks, [&](const AttackChoice& a) { return a.from == h; });
    const std::string what = "hex " + to_string(h) + " " + where;
    EXPECT_EQ(r.can_act, move || face || posture || attack) << what;
    EXPECT_EQ(r.can_act, r.refusals.size() < (s.phase == Phase::kMove ? 3u : 1u)) << what;
    if (s.phase == Phase::kMove) {
      EXPECT_EQ(refusal_for(r, "move") == nullptr, move) << what;
      EXPECT_EQ(refusal_for(r, "face") == nullptr, face) << what;
      EXPECT_EQ(refusal_for(r, "posture") == nullptr, posture) << what;
    }
    if (s.phase == Phase::kFight) {
      EXPECT_EQ(refusal_for(r, "attack") == nullptr, attack) << what;
    }
    for (const Refusal& x : r.refusals) {
      EXPECT_FALSE(x.why.rule.empty() || x.why.message.empty()) << what;
    }
    if (::testing::Test::HasFailure()) return false;
  }
  return true;
}

void random_games(const std::string& file, int games) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/scenarios/stand/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  auto sc = wire::stand::scenario_from_json(ss.str());
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  auto initial = Game::initial_state(*sc, stand_1());
  ASSERT_TRUE(initial.ok()) << initial.error().message;
  Rng rng(0x2ea5'0115ull);
  RandomDice dice(rng);
  int blocked = 0;
  for (int g = 0; g < games; ++g) {
    State s = *initial;
    for (const Event& e : Game::begin(s, dice))
      Game::apply(s, e);
    for (int step = 0; step < 300 && !Game::outcome(s); ++step) {
      const std::string where =
          "(game " + std::to_string(g) + ", step " + std::to_string(step) + ")";
      for (Side side : {kA, kB}) {
        if (!agrees(s, side, where)) return;
        for (std::size_t i = 0; i < s.tiles.size(); ++i) {
          if (s.tiles[i].held_by(side) && !reasons(s, side, s.hex_of(i)).can_act) ++blocked;
        }
      }
      const Side mover = Game::acting(s).a ? kA : kB;
      const Legal legal = Game::legal(s, mover);
      const std::vector<Command> all = commands(legal);
      ASSERT_FALSE(all.empty());
      const bool end = legal.end_phase && std::bernoulli_distribution(0.15)(rng);
      const Command c =
          end ? Command{cmd::EndPhase{}}
              : all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(rng)];
      auto r = Game::decide(s, mover, c, dice);
      ASSERT_TRUE(r.ok()) << r.error().message;
      for (const Event& e : *r)
        Game::apply(s, e);
    }
  }
  EXPECT_GT(blocked, games) << "random games should reach hexes that cannot act";
}

TEST(Reasons, StandAgreeWithLegalInRandomTrainingGames) {
  random_games("training.json", 20);
}

TEST(Reasons, StandAgreeWithLegalInRandomQadeshGames) {
  random_games("qadesh.json", 3);
}

}  // namespace
}  // namespace castra::rules::stand
