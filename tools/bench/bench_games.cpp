#include "tools/bench/bench_games.hpp"

#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <sstream>

#include "proto/castra/v1/optio.pb.h"

namespace castra::bench {

namespace {

namespace pbu = google::protobuf::util;

// The file under the source tree; empty (and `*error` set) when it cannot be read.
std::string read(const std::string& path, std::string* error) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/" + path);
  if (!in) *error = "cannot read " + path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

v1::ScenarioFile scenario(const std::string& name, std::string* error) {
  v1::ScenarioFile f;
  if (!pbu::JsonStringToMessage(read("scenarios/" + name + ".json", error), &f).ok()) {
    *error = "scenario " + name + " does not parse";
  }
  return f;
}

std::vector<std::string> data_lines(const std::string& path, std::string* error) {
  std::istringstream in(read(path, error));
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

Game optio() {
  Game g;
  g.name = "optio";
  g.scenario_name = "optio/training";
  g.scenario = scenario(g.scenario_name, &g.error);
  // The data file holds bare Optio commands; wrap them as the server receives them.
  for (const auto& line : data_lines("tests/rules/optio/data/training_game.jsonl", &g.error)) {
    v1::optio::ScriptLine bare;
    if (!pbu::JsonStringToMessage(line, &bare).ok()) g.error = "a script line does not parse";
    v1::ScriptLine wrapped;
    wrapped.set_side(bare.side());
    *wrapped.mutable_command()->mutable_optio() = bare.command();
    g.lines.push_back(wrapped);
  }
  std::istringstream dice(read("tests/rules/optio/data/training_game.dice", &g.error));
  int face = 0;
  while (dice >> face)
    g.dice.push_back(face);
  g.first_play = 20;  // both orders cards are in: the first advance
  g.mid = 33;         // turn 1, side B has advanced and must shoot or end its phase
  return g;
}

Game stand() {
  Game g;
  g.name = "stand";
  g.scenario_name = "stand/training";
  g.scenario = scenario(g.scenario_name, &g.error);
  for (const auto& line : data_lines("tests/rules/stand/data/training_game.jsonl", &g.error)) {
    v1::ScriptLine parsed;
    if (!pbu::JsonStringToMessage(line, &parsed).ok()) g.error = "a script line does not parse";
    g.lines.push_back(parsed);
  }
  // As tests/rules/stand/scripted_game_test.cpp explains them: a tied roll-off, the roll-off,
  // then one d10 for each of the two turns' fractional fights.
  g.dice = {4, 4, 6, 3, 2, 1};
  g.first_play = 10;  // both armies deployed: side A's first move
  g.mid = 23;         // turn 1, side B has moved and must attack
  return g;
}

}  // namespace

const Game& game(std::int64_t which) {
  static const Game kOptio = optio();
  static const Game kStand = stand();
  return which == 0 ? kOptio : kStand;
}

rules::Side side_of(const v1::ScriptLine& line) {
  return line.side() == v1::SIDE_B ? rules::Side::kB : rules::Side::kA;
}

match::Bytes32 salt_of(std::size_t line) {
  match::Bytes32 salt{};
  salt.fill(0x5a);
  salt[0] = static_cast<std::uint8_t>(line);
  return salt;
}

std::unique_ptr<wire::AnyMatch> played_match(const Game& g, std::size_t played) {
  match::Bytes32 seed{};
  seed.fill(0x42);
  auto m = wire::make_match({"bench-" + g.name, g.scenario, "", seed});
  if (!m) return nullptr;
  (*m)->force_rolls(g.dice);
  (*m)->seat(rules::Side::kA, "entropy-a");
  (*m)->seat(rules::Side::kB, "entropy-b");
  for (std::size_t i = 0; i < played; ++i) {
    if (!(*m)->submit(side_of(g.lines[i]), g.lines[i].command(), salt_of(i))) return nullptr;
  }
  return std::move(*m);
}

}  // namespace castra::bench
