// castra-sim run --from-state: a game cut in two (the first part saved with --save-state, the
// rest played from that file with the dice the whole game had left) ends exactly as the game
// played whole: the same events and the same final state hash. And a saved position that was
// edited into one the rules forbid is refused.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "proto/castra/v1/match.pb.h"
#include "tests/support/server_process.hpp"
#include "tests/support/tool_run.hpp"

namespace castra {
namespace {

namespace pbu = google::protobuf::util;

const std::string kSource = CASTRA_SOURCE_DIR;
const std::string kSim = std::string(CASTRA_BINARY_DIR) + "/tools/sim/castra-sim";
const std::string kSeed(64, '0');

testing::ToolRun sim(const std::string& args) {
  return testing::run_tool(kSim + " " + args);
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    out.push_back(line);
  return out;
}

void write(const std::string& path, const std::vector<std::string>& lines, std::size_t from,
           std::size_t to) {
  std::ofstream out(path);
  for (std::size_t i = from; i < to; ++i)
    out << lines[i] << "\n";
}

std::string join(const std::vector<int>& faces, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < faces.size(); ++i)
    out += (out.empty() ? "" : ",") + std::to_string(faces[i]);
  return out;
}

// The events castra-sim printed, without their numbers (a position counts from 0).
std::vector<std::string> events_of(const std::string& out) {
  std::vector<std::string> events;
  const std::string prefix = "{\"event\":";
  for (const auto& line : lines_of(out)) {
    if (line.rfind(prefix, 0) != 0) continue;
    v1::ViewEvent e;
    EXPECT_TRUE(
        pbu::JsonStringToMessage(line.substr(prefix.size(), line.size() - prefix.size() - 1), &e)
            .ok());
    events.push_back(e.event().DebugString() + e.text());
  }
  return events;
}

std::string final_line(const std::string& out) {
  const auto lines = lines_of(out);
  return lines.empty() ? "" : lines.back();
}

struct Game {
  std::string scenario;
  std::string script;
  std::vector<int> dice;
  std::string version;  // empty: the current one
};

// Plays `g` whole, and again cut after `cut` script lines; expects the same ending.
void expect_cut_game_ends_as_whole(const Game& g, std::size_t cut) {
  const std::string dir = testing::make_temp_dir("castra-from-state");
  const std::string version = g.version.empty() ? "" : " --rules-version " + g.version;
  const auto whole =
      sim("run" + version + " --scenario " + g.scenario + " --commands " + g.script + " --seed " +
          kSeed + " --dice " + join(g.dice, 0) + " --record " + dir + "/whole.json");
  ASSERT_EQ(whole.exit_code, 0) << whole.out;

  // How many faces the first part used: the rolls of its log entries (entry 0 opens the
  // match, entry i is script line i).
  v1::MatchRecord record;
  ASSERT_TRUE(pbu::JsonStringToMessage(read(dir + "/whole.json"), &record).ok());
  std::size_t used = 0;
  for (std::size_t i = 0; i <= cut; ++i)
    used += static_cast<std::size_t>(record.entries(static_cast<int>(i)).rolls_size());

  const auto script = lines_of(read(g.script));
  ASSERT_LT(cut, script.size());
  write(dir + "/first.jsonl", script, 0, cut);
  write(dir + "/rest.jsonl", script, cut, script.size());
  const auto first = sim("run" + version + " --scenario " + g.scenario + " --commands " + dir +
                         "/first.jsonl --seed " + kSeed + " --dice " + join(g.dice, 0) +
                         " --save-state " + dir + "/position.json");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const std::string rest_dice = used < g.dice.size() ? " --dice " + join(g.dice, used) : "";
  const auto rest = sim("run --from-state " + dir + "/position.json --commands " + dir +
                        "/rest.jsonl" + rest_dice);
  ASSERT_EQ(rest.exit_code, 0) << rest.out;

  auto played = events_of(first.out);
  const auto after = events_of(rest.out);
  played.insert(played.end(), after.begin(), after.end());
  EXPECT_EQ(played, events_of(whole.out));
  EXPECT_EQ(final_line(rest.out), final_line(whole.out));
}

TEST(CastraSimFromState, AnOptioGameCutInTwoEndsAsTheWholeGame) {
  // Cut in the middle of the fighting: leader dice were rolled before and are rolled after.
  expect_cut_game_ends_as_whole({kSource + "/tests/rules/optio/data/training_scenario.json",
                                 kSource + "/tests/rules/optio/data/training_game.jsonl",
                                 {5, 2, 4, 5, 2, 4, 5, 1, 3, 1, 6, 3},
                                 "optio-1"},
                                32);
}

TEST(CastraSimFromState, AStandGameCutInTwoEndsAsTheWholeGame) {
  expect_cut_game_ends_as_whole({kSource + "/scenarios/stand/training.json",
                                 kSource + "/tests/rules/stand/data/training_game.jsonl",
                                 {4, 4, 6, 3, 2, 1},
                                 ""},
                                12);
}

TEST(CastraSimFromState, TheLineStatePrintsIsAPositionToo) {
  const std::string dir = testing::make_temp_dir("castra-from-state");
  const auto script = lines_of(read(kSource + "/tests/rules/stand/data/training_game.jsonl"));
  write(dir + "/first.jsonl", script, 0, 6);
  write(dir + "/none.jsonl", script, 0, 0);
  const auto first =
      sim("run --scenario " + kSource + "/scenarios/stand/training.json" + " --commands " + dir +
          "/first.jsonl --seed " + kSeed + " --dice 4,4,6,3 --state");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const auto lines = lines_of(first.out);
  ASSERT_GE(lines.size(), 2u);
  write(dir + "/line.json", lines, lines.size() - 2, lines.size() - 1);  // the {"state":...} line
  const auto again =
      sim("run --from-state " + dir + "/line.json --commands " + dir + "/none.jsonl");
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(final_line(again.out), final_line(first.out));
}

TEST(CastraSimFromState, AnEditedPositionTheRulesForbidIsRefused) {
  const std::string dir = testing::make_temp_dir("castra-from-state");
  const auto script = lines_of(read(kSource + "/tests/rules/stand/data/training_game.jsonl"));
  write(dir + "/first.jsonl", script, 0, 6);
  const auto first = sim("run --scenario " + kSource + "/scenarios/stand/training.json" +
                         " --commands " + dir + "/first.jsonl --seed " + kSeed +
                         " --dice 4,4,6,3 --save-state " + dir + "/position.json");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  v1::Snapshot snapshot;
  ASSERT_TRUE(pbu::JsonStringToMessage(read(dir + "/position.json"), &snapshot).ok());
  // A game turn past the battle's turn limit.
  auto* state = snapshot.mutable_state()->mutable_stand();
  state->set_game_turn(state->turn_limit() + 5);
  std::string json;
  ASSERT_TRUE(pbu::MessageToJsonString(snapshot, &json).ok());
  std::ofstream(dir + "/edited.json") << json;
  const auto refused =
      sim("run --from-state " + dir + "/edited.json --commands " + dir + "/first.jsonl");
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_NE(refused.out.find("state refused"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("game turn"), std::string::npos) << refused.out;
}

}  // namespace
}  // namespace castra
