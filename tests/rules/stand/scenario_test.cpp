// The scenarios in scenarios/stand/: every file reads through the codec, builds its initial
// state, can be opened and is documented; and the maps are what their README says.
#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/wire/stand_codec.hpp"
#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;
namespace fs = std::filesystem;

const fs::path kDir = fs::path(CASTRA_SOURCE_DIR) / "scenarios" / "stand";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

State load(const std::string& file) {
  auto sc = wire::stand::scenario_from_json(read(kDir / file));
  EXPECT_TRUE(sc.ok()) << file << ": " << sc.error().message;
  auto s = Game::initial_state(*sc, stand_1());
  EXPECT_TRUE(s.ok()) << file << ": " << s.error().message;
  return *s;
}

TEST(StandScenarios, EveryScenarioFileLoadsOpensAndIsDocumented) {
  const std::string readme = read(kDir / "README.md");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const std::string file = entry.path().filename().string();
    State s = load(file);
    EXPECT_FALSE(Game::check(s).has_value()) << file;
    EXPECT_NE(readme.find(file), std::string::npos) << file << " is not in the README";
    ScriptedDice dice({6, 1});
    for (const Event& e : Game::begin(s, dice))
      Game::apply(s, e);
    // A fixed deployment (placements) skips deployment and opens on its first side's move.
    if (read(kDir / file).find("\"placements\"") != std::string::npos) {
      EXPECT_EQ(Game::acting(s).phase, "move") << file;
      continue;
    }
    EXPECT_EQ(Game::acting(s).phase, "deploy") << file;
    EXPECT_FALSE(Game::legal(s, Side::kB).deploy.empty()) << file;
  }
  EXPECT_GE(files, 2);
}

TEST(StandScenarios, TheTrainingBattleIsSmallAndEven) {
  const State s = load("training.json");
  EXPECT_EQ(s.width, 10);
  EXPECT_EQ(s.height, 8);
  EXPECT_EQ(s.turn_limit, 8);
  EXPECT_EQ(s.to_deploy[0], s.to_deploy[1]);
  EXPECT_EQ(s.at({8, 4}).terrain, Terrain::kTown);
  EXPECT_EQ(s.at({8, 4}).capacity, 6);
}

// Hexes infantry can reach from side A's edge, with or without the fords.
std::vector<bool> reachable_from_the_north(const State& s, bool fords) {
  std::vector<bool> seen(s.tiles.size(), false);
  std::deque<Hex> queue;
  auto open = [&](Hex h) {
    const Tile& t = s.at(h);
    if (t.terrain != Terrain::kWater) return true;
    return fords && t.crossing != Crossing::kNone;
  };
  for (int col = 0; col < s.width; ++col) {
    if (open({col, 0})) {
      seen[static_cast<std::size_t>(col)] = true;
      queue.push_back({col, 0});
    }
  }
  while (!queue.empty()) {
    const Hex h = queue.front();
    queue.pop_front();
    for (int d = 0; d < kDirections; ++d) {
      const Hex n = neighbour(h, d);
      if (!s.on_map(n) || !open(n)) continue;
      const auto i = static_cast<std::size_t>(n.row * s.width + n.col);
      if (seen[i]) continue;
      seen[i] = true;
      queue.push_back(n);
    }
  }
  return seen;
}

TEST(StandScenarios, AtQadeshTheOrontesIsCrossedOnlyAtItsFords) {
  const State s = load("qadesh.json");
  int fords = 0;
  for (const Tile& t : s.tiles)
    fords += t.crossing == Crossing::kFord ? 1 : 0;
  EXPECT_EQ(fords, 3);
  const auto dry = reachable_from_the_north(s, false);
  const auto wet = reachable_from_the_north(s, true);
  const std::size_t south = static_cast<std::size_t>((s.height - 1) * s.width);
  EXPECT_FALSE(dry[south]) << "the river leaves a dry way south";
  EXPECT_TRUE(wet[south]);
  // Both armies field chariots.
  EXPECT_GT(s.to_deploy[0][Troop::kChariots], 0);
  EXPECT_GT(s.to_deploy[1][Troop::kChariots], 0);
}

}  // namespace
}  // namespace castra::rules::stand
