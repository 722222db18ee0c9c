// The legal-command list: what it offers, that it is complete enough for a client, and
// that allows() answers as decide does.
#include "common/rules/stand/legal.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

const Group* group(const std::vector<Group>& groups, Hex from, TroopMask types) {
  for (const Group& g : groups) {
    if (g.from == from && g.types == types) return &g;
  }
  return nullptr;
}

const Destination* to(const Group& g, Hex h) {
  for (const Destination& d : g.destinations) {
    if (d.hex == h) return &d;
  }
  return nullptr;
}

TEST(StandLegal, EveryHexWithinReachIsOfferedWithAShortestPath) {
  State s = battle(12, 12);
  const Hex from{5, 5};
  put(s, kA, from, cavalry(3));
  put(s, kB, {11, 11}, infantry(1));
  start(s);
  const Legal legal = Game::legal(s, kA);
  const Group* g = group(legal.moves, from, bit(Troop::kCavalry));
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->reach, 5);
  EXPECT_EQ(g->available, cavalry(3));
  int within = 0;
  for (int row = 0; row < 12; ++row) {
    for (int col = 0; col < 12; ++col) {
      const Hex h{col, row};
      const int d = distance(from, h);
      if (d < 1 || d > 5) {
        EXPECT_EQ(to(*g, h), nullptr) << to_string(h);
        continue;
      }
      ++within;
      const Destination* dest = to(*g, h);
      ASSERT_NE(dest, nullptr) << to_string(h);
      EXPECT_EQ(static_cast<int>(dest->path.size()), d);
      EXPECT_EQ(dest->path.back(), h);
      EXPECT_EQ(dest->most, cavalry(3));
      EXPECT_EQ(dest->room, 12);
      EXPECT_EQ(refusal(s, kA, cmd::Move{from, dest->path, cavalry(3)}), "");
    }
  }
  EXPECT_EQ(static_cast<int>(g->destinations.size()), within);
}

TEST(StandLegal, PathsGoAroundWaterAndEnemiesAndStopShortOfThem) {
  State s = battle(8, 8, {ground({2, 2}, Terrain::kWater), ground({2, 3}, Terrain::kWater)});
  put(s, kA, {1, 2}, infantry(4));
  put(s, kB, {2, 1}, infantry(4));
  start(s);
  const Legal legal = Game::legal(s, kA);
  const Group* g = group(legal.moves, {1, 2}, bit(Troop::kInfantry));
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(to(*g, {2, 2}), nullptr);  // water
  EXPECT_EQ(to(*g, {2, 1}), nullptr);  // enemy
  EXPECT_EQ(to(*g, {3, 2}), nullptr);  // 2 hexes away, but only past water or the enemy
  ASSERT_NE(to(*g, {1, 1}), nullptr);
  ASSERT_NE(to(*g, {1, 4}), nullptr);
  EXPECT_EQ(to(*g, {1, 4})->path.size(), 2u);
}

TEST(StandLegal, TheMostFiguresOfEachTypeFitTheRoomLeft) {
  State s = battle(8, 8);
  put(s, kA, {1, 2}, figs(0, 0, 5, 2));
  put(s, kA, {2, 2}, cavalry(3));  // 6 of 12 space used
  put(s, kB, {7, 7}, infantry(1));
  start(s);
  const Legal legal = Game::legal(s, kA);
  const Group* cav = group(legal.moves, {1, 2}, bit(Troop::kCavalry));
  const Group* both = group(legal.moves, {1, 2},
                            static_cast<TroopMask>(bit(Troop::kCavalry) | bit(Troop::kChariots)));
  const Group* cha = group(legal.moves, {1, 2}, bit(Troop::kChariots));
  ASSERT_TRUE(cav && both && cha);
  EXPECT_EQ(to(*cav, {2, 2})->most, cavalry(3));
  EXPECT_EQ(to(*cav, {2, 2})->room, 6);
  EXPECT_EQ(to(*cha, {2, 2})->most, chariots(1));
  EXPECT_EQ(to(*both, {2, 2})->most, figs(0, 0, 1, 1));
  EXPECT_EQ(to(*cav, {3, 2})->most, cavalry(5));
  EXPECT_EQ(to(*both, {3, 2})->most, figs(0, 0, 4, 2));
  EXPECT_TRUE(allows(legal, cmd::Move{{1, 2}, {{2, 2}, {3, 2}}, figs(0, 0, 2, 2)}));
  EXPECT_FALSE(allows(legal, cmd::Move{{1, 2}, {{2, 2}, {3, 2}}, figs(0, 0, 3, 2)}));
  EXPECT_EQ(refusal(s, kA, cmd::Move{{1, 2}, {{2, 2}, {3, 2}}, figs(0, 0, 3, 2)}),
            "stand.1.capacity");
}

TEST(StandLegal, TerrainLimitsShapeEachGroupOfTypes) {
  State s = battle(8, 8, {ground({2, 2}, Terrain::kWoods)});
  put(s, kA, {1, 2}, figs(0, 0, 2, 1));
  put(s, kB, {7, 7}, infantry(1));
  start(s);
  const Legal legal = Game::legal(s, kA);
  const TroopMask both = static_cast<TroopMask>(bit(Troop::kCavalry) | bit(Troop::kChariots));
  EXPECT_NE(to(*group(legal.moves, {1, 2}, bit(Troop::kCavalry)), {2, 2}), nullptr);
  EXPECT_EQ(to(*group(legal.moves, {1, 2}, bit(Troop::kChariots)), {2, 2}), nullptr);
  EXPECT_EQ(to(*group(legal.moves, {1, 2}, both), {2, 2}), nullptr);
  const auto woods =
      std::find_if(legal.passages.begin(), legal.passages.end(),
                   [](const Passage& p) { return p.types == bit(Troop::kChariots); });
  ASSERT_NE(woods, legal.passages.end());
  EXPECT_FALSE(std::binary_search(woods->hexes.begin(), woods->hexes.end(), Hex{2, 2}));
}

TEST(StandLegal, TheMovePhaseOffersFacingsPosturesAndTheEnd) {
  State s = battle(8, 8);
  put(s, kA, {1, 2}, infantry(3), 2, Posture::kStanding);
  put(s, kB, {7, 7}, infantry(1));
  start(s);
  const Legal legal = Game::legal(s, kA);
  EXPECT_TRUE(legal.end_phase);
  EXPECT_EQ(legal.facings, (std::vector<FacingChoice>{{{1, 2}, 2}}));
  EXPECT_EQ(legal.postures, (std::vector<PostureChoice>{{{1, 2}, Posture::kStanding}}));
  EXPECT_TRUE(legal.attacks.empty());
  EXPECT_TRUE(allows(legal, cmd::Face{{1, 2}, 3}));
  EXPECT_FALSE(allows(legal, cmd::Face{{1, 2}, 2}));
  EXPECT_TRUE(allows(legal, cmd::SetPosture{{1, 2}, Posture::kFallingBack}));
  EXPECT_FALSE(allows(legal, cmd::SetPosture{{1, 2}, Posture::kStanding}));
  EXPECT_FALSE(allows(legal, cmd::Attack{{1, 2}, {2, 2}}));
}

TEST(StandLegal, TheFightPhaseOffersEachUnusedHexItsNeighbouringEnemies) {
  State s = battle(8, 8, {}, Phase::kFight);
  put(s, kA, {2, 2}, infantry(3));
  put(s, kA, {5, 5}, infantry(3));
  put(s, kB, {3, 2}, infantry(3));
  put(s, kB, {2, 3}, infantry(3));
  put(s, kB, {4, 2}, infantry(3));
  start(s);
  Legal legal = Game::legal(s, kA);
  ASSERT_EQ(legal.attacks.size(), 1u);
  EXPECT_EQ(legal.attacks[0].from, (Hex{2, 2}));
  EXPECT_EQ(legal.attacks[0].targets, (std::vector<Hex>{{3, 2}, {2, 3}}));
  EXPECT_TRUE(legal.facings.empty());
  ScriptedDice dice({10, 10});
  play(s, kA, cmd::Attack{{2, 2}, {3, 2}}, dice);
  legal = Game::legal(s, kA);
  EXPECT_TRUE(legal.attacks.empty());
  EXPECT_TRUE(legal.end_phase);
}

TEST(StandLegal, ASideThatNeedNotActIsOfferedNothing) {
  State s = battle(8, 8);
  put(s, kA, {1, 2}, infantry(3));
  put(s, kB, {2, 2}, infantry(3));
  start(s);
  const Legal legal = Game::legal(s, kB);
  EXPECT_TRUE(legal.empty());
  EXPECT_FALSE(allows(legal, cmd::EndPhase{}));
}

TEST(StandLegal, DeploymentOffersTheZoneAndWithholdsTheEndUntilAllIsPlaced) {
  Scenario sc = scenario(6, 6, {ground({0, 0}, Terrain::kWoods)});
  sc.armies[0].figures = figs(0, 0, 1, 1);
  State s = *Game::initial_state(sc, stand_1());
  ScriptedDice dice({1, 2});
  for (const Event& e : Game::begin(s, dice))
    Game::apply(s, e);
  ASSERT_EQ(s.active, kA);
  Legal legal = Game::legal(s, kA);
  EXPECT_FALSE(legal.end_phase);
  ASSERT_EQ(legal.deploy.size(), 3u);  // cavalry, chariots, both
  for (const Group& g : legal.deploy) {
    for (const Destination& d : g.destinations)
      EXPECT_LE(d.hex.row, 2);
  }
  const Group* chariot = group(legal.deploy, {}, bit(Troop::kChariots));
  ASSERT_NE(chariot, nullptr);
  EXPECT_EQ(to(*chariot, {0, 0}), nullptr);  // woods
  EXPECT_EQ(chariot->destinations.size(), 6u * 3 - 1);
  EXPECT_TRUE(allows(legal, cmd::Deploy{{1, 0}, figs(0, 0, 1, 1), 4}));
  EXPECT_FALSE(allows(legal, cmd::Deploy{{1, 3}, figs(0, 0, 1, 1), 4}));
  play(s, kA, cmd::Deploy{{1, 0}, figs(0, 0, 1, 1), 4});
  legal = Game::legal(s, kA);
  EXPECT_TRUE(legal.end_phase);
  EXPECT_TRUE(legal.deploy.empty());
  EXPECT_EQ(legal.facings, (std::vector<FacingChoice>{{{1, 0}, 4}}));
}

TEST(StandLegal, EveryCommandDrawnFromTheListIsAccepted) {
  State s = battle(
      10, 8, {ground({4, 3}, Terrain::kWoods), ground({5, 3}, Terrain::kWater, Crossing::kFord)});
  put(s, kA, {1, 2}, figs(0, 0, 3, 2));
  put(s, kA, {2, 3}, figs(6, 3, 0, 0));
  put(s, kA, {3, 3}, infantry(12));
  put(s, kB, {5, 4}, figs(0, 0, 2, 0));
  put(s, kB, {6, 6}, archers(5));
  start(s);
  const std::vector<Command> all = commands(Game::legal(s, kA));
  EXPECT_GT(all.size(), 100u);
  for (const Command& c : all)
    EXPECT_EQ(refusal(s, kA, c), "");
}

}  // namespace
}  // namespace castra::rules::stand
