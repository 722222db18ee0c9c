// A whole game of the training scenario from a command script (the JSON lines castra-sim
// reads), with fixed dice: it must run to the same result and the same final state hash.
// The expected tallies are worked out by hand in the comments below.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/rules/canonical.hpp"
#include "common/wire/stand_codec.hpp"
#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

const std::string kSource = CASTRA_SOURCE_DIR;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// The dice of the game, in the order they are drawn:
//   4, 4   roll-off tie, rolled again;
//   6, 3   side A wins the roll-off: side B deploys first (rows 5-7), A in rows 0-1;
//   2      turn 1, A's 4 cavalry hit B's 8 infantry Falling back in front: T 3.2, the d10
//          for 0.2 rolls 2: 4 casualties (A's chariot then takes 2 archers: T 1.6, sure);
//          B's cavalry kill A's chariot (T 3.2 against 1 figure), B's infantry and archers
//          take 2 of A's cavalry (T 0.8 and 0.6, each one sure casualty);
//   1      turn 2, A's 8 infantry hit B's 4 infantry, now Standing: T 3.2, the d10 rolls 1:
//          4 casualties; A's 4 archers then take B's last 2 archers (T 1.6: 2 sure).
// Side B has lost 8 infantry and 4 archers, 12 of its 24 strength: its army breaks.
const std::vector<int> kDice = {4, 4, 6, 3, 2, 1};

TEST(StandScriptedGame, TheTrainingBattleRunsToItsResult) {
  auto scenario = wire::stand::scenario_from_json(read(kSource + "/scenarios/stand/training.json"));
  ASSERT_TRUE(scenario.ok()) << scenario.error().message;
  auto initial = Game::initial_state(*scenario, stand_1());
  ASSERT_TRUE(initial.ok()) << initial.error().message;
  State s = *initial;

  ScriptedDice dice(kDice);
  std::ostringstream log;
  for (const Event& e : Game::begin(s, dice)) {
    log << Game::describe(s, e) << "\n";
    Game::apply(s, e);
  }

  std::istringstream script(read(kSource + "/tests/rules/stand/data/training_game.jsonl"));
  std::string line;
  int number = 0;
  while (std::getline(script, line)) {
    ++number;
    if (line.empty()) continue;
    auto step = wire::stand::script_line_from_json(line);
    ASSERT_TRUE(step.ok()) << "line " << number << ": " << step.error().message;
    auto events = Game::decide(s, step->side, step->command, dice);
    ASSERT_TRUE(events.ok()) << "line " << number << ": " << events.error().rule << ": "
                             << events.error().message << "\n"
                             << log.str();
    for (const Event& e : *events) {
      log << Game::describe(s, e) << "\n";
      Game::apply(s, e);
      const auto broken = Game::check(s);
      ASSERT_FALSE(broken.has_value()) << *broken;
    }
  }

  EXPECT_EQ(dice.rolled.size(), kDice.size()) << "every die of the list is drawn";
  ASSERT_TRUE(Game::outcome(s).has_value()) << log.str();
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kWinA);
  EXPECT_EQ(Game::outcome(s)->reason, "side B's army broke: it lost 12 of 24 strength");
  EXPECT_EQ(s.start_strength, (std::array<int, 2>{24, 24}));
  EXPECT_EQ(s.losses[index(Side::kA)], figs(0, 0, 2, 1));
  EXPECT_EQ(s.losses[index(Side::kB)], figs(8, 4, 0, 0));
  EXPECT_EQ(s.lost_strength, (std::array<int, 2>{8, 12}));
  EXPECT_EQ(s.game_turn, 2);

  ByteWriter w;
  Game::encode(s, w);
  EXPECT_EQ(fnv1a64(w.bytes()), 0x0d8405a0aef60bb3ull) << log.str();
}

}  // namespace
}  // namespace castra::rules::stand
