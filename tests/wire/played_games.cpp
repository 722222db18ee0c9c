#include "tests/wire/played_games.hpp"

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "common/bot/brain.hpp"
#include "proto/castra/v1/optio.pb.h"

namespace castra::wire::testing {
namespace {

namespace pbu = google::protobuf::util;
using rules::Side;

// Far above what a greedy game needs; a game cut here still has a long log to look at.
constexpr int kMaxCommands = 600;

std::string read(const std::string& path) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/" + path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

v1::ScenarioFile scenario_file(const std::string& path) {
  v1::ScenarioFile f;
  EXPECT_TRUE(pbu::JsonStringToMessage(read(path), &f).ok()) << path;
  return f;
}

v1::ScenarioFile scenario(const std::string& name) {
  return scenario_file("scenarios/" + name + ".json");
}

std::vector<std::string> lines_of(const std::string& path) {
  std::istringstream in(read(path));
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// The Optio data file holds bare Optio commands; they are wrapped as the server receives them.
std::vector<v1::ScriptLine> optio_script() {
  std::vector<v1::ScriptLine> out;
  for (const auto& line : lines_of("tests/rules/optio/data/training_game.jsonl")) {
    v1::optio::ScriptLine bare;
    EXPECT_TRUE(pbu::JsonStringToMessage(line, &bare).ok()) << line;
    v1::ScriptLine& wrapped = out.emplace_back();
    wrapped.set_side(bare.side());
    *wrapped.mutable_command()->mutable_optio() = bare.command();
  }
  return out;
}

std::vector<v1::ScriptLine> stand_script() {
  std::vector<v1::ScriptLine> out;
  for (const auto& line : lines_of("tests/rules/stand/data/training_game.jsonl")) {
    EXPECT_TRUE(pbu::JsonStringToMessage(line, &out.emplace_back()).ok()) << line;
  }
  return out;
}

std::vector<int> optio_dice() {
  std::istringstream in(read("tests/rules/optio/data/training_game.dice"));
  std::vector<int> out;
  int face = 0;
  while (in >> face)
    out.push_back(face);
  return out;
}

void keep_log(PlayedGame& g) {
  for (std::size_t i = 0; i < g.match->entry_count(); ++i) {
    g.log.push_back(g.match->log_entry(i));
    g.salts.push_back(g.match->salts(i));
  }
}

PlayedGame scripted(std::string name, v1::ScenarioFile sc, std::vector<int> dice,
                    const std::vector<v1::ScriptLine>& script) {
  PlayedGame g{std::move(name), std::move(sc), std::move(dice), nullptr, {}, {}};
  g.match = fresh(g);
  seat(*g.match);
  for (std::size_t i = 0; i < script.size(); ++i) {
    const Side side = side_from_proto(script[i].side());
    auto done = g.match->submit(side, script[i].command(), salt_of(i));
    EXPECT_TRUE(done.ok()) << g.name << " line " << i + 1 << ": " << done.error().message;
  }
  EXPECT_TRUE(g.match->outcome().has_value()) << g.name << " does not reach its result";
  keep_log(g);
  return g;
}

// Greedy against greedy on fair dice, one command of whichever side must act at a time.
PlayedGame computer_game(std::string name, v1::ScenarioFile sc) {
  PlayedGame g{std::move(name), std::move(sc), {}, nullptr, {}, {}};
  g.match = fresh(g);
  seat(*g.match);
  std::map<Side, bot::Brain> brains;
  brains.emplace(Side::kA, bot::Brain(bot::Strength::kGreedy, 11));
  brains.emplace(Side::kB, bot::Brain(bot::Strength::kGreedy, 12));
  for (int n = 0; n < kMaxCommands && !g.match->outcome(); ++n) {
    const rules::Acting acting = g.match->acting();
    const Side side = acting.a ? Side::kA : Side::kB;
    auto command =
        brains.at(side).pick(g.match->snapshot(rules::viewer_of(side)), g.match->legal(side), side);
    if (!command) break;
    auto done = g.match->submit(side, *command, salt_of(static_cast<std::size_t>(n)));
    EXPECT_TRUE(done.ok()) << g.name << " command " << n << ": " << done.error().message;
    if (!done) break;
  }
  keep_log(g);
  return g;
}

}  // namespace

const PlayedGame& played(Which which) {
  static const PlayedGame kOptioScript =
      scripted("OptioScript", scenario_file("tests/rules/optio/data/training_scenario.json"),
               optio_dice(), optio_script());
  // The dice of tests/rules/stand/scripted_game_test.cpp: a tied roll-off rolled again, then
  // one d10 for each of the two turns' fractional fights.
  static const PlayedGame kStandScript =
      scripted("StandScript", scenario("stand/training"), {4, 4, 6, 3, 2, 1}, stand_script());
  static const PlayedGame kOptioFair = computer_game("OptioFair", scenario("optio/training"));
  static const PlayedGame kStandFair = computer_game("StandFair", scenario("stand/qadesh"));
  switch (which) {
    case Which::kOptioScript:
      return kOptioScript;
    case Which::kStandScript:
      return kStandScript;
    case Which::kOptioFair:
      return kOptioFair;
    case Which::kStandFair:
      break;
  }
  return kStandFair;
}

std::unique_ptr<AnyMatch> fresh(const PlayedGame& g) {
  match::Bytes32 seed{};
  seed.fill(0x42);
  auto m = make_match({"checkpoints-" + g.name, g.scenario, "", seed});
  EXPECT_TRUE(m.ok()) << g.name;
  if (!g.dice.empty()) (*m)->force_rolls(g.dice);
  return std::move(*m);
}

void seat(AnyMatch& m) {
  EXPECT_FALSE(m.seat(Side::kA, "entropy-a"));
  EXPECT_FALSE(m.seat(Side::kB, "entropy-b"));
}

std::unique_ptr<AnyMatch> replayed(const PlayedGame& g, std::size_t entries) {
  return adopted_then_replayed(g, 0, entries);
}

std::unique_ptr<AnyMatch> adopted_then_replayed(const PlayedGame& g, std::size_t adopted,
                                                std::size_t entries) {
  auto m = fresh(g);
  if (entries > 0 && g.log[0].kind() == v1::ENTRY_START) seat(*m);
  std::size_t rolled = 0;
  for (std::size_t i = 0; i < adopted; ++i) {
    rolled += static_cast<std::size_t>(g.log[i].rolls_size());
    auto err = m->adopt(g.log[i], g.salts[i]);
    EXPECT_FALSE(err) << g.name << " adopting entry " << i << ": " << *err;
  }
  if (!g.dice.empty() && adopted > 0) {
    const auto skip = static_cast<std::ptrdiff_t>(std::min(g.dice.size(), rolled));
    m->force_rolls(std::vector<int>(g.dice.begin() + skip, g.dice.end()));
  }
  for (std::size_t i = adopted; i < entries; ++i) {
    auto err = m->replay(g.log[i], g.salts[i]);
    EXPECT_FALSE(err) << g.name << " replaying entry " << i << ": " << *err;
  }
  return m;
}

match::Bytes32 salt_of(std::size_t i) {
  match::Bytes32 salt{};
  salt.fill(0x5a);
  salt[0] = static_cast<std::uint8_t>(i);
  salt[1] = static_cast<std::uint8_t>(i >> 8);
  return salt;
}

}  // namespace castra::wire::testing
