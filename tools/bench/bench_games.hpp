// The two training games of tests/rules (Optio's and Ancient STAND!'s), as castra-bench-server
// plays them: each script line wrapped as the server receives it, the dice forced so the
// fights go as written, and the positions its benchmarks start from. Read-only once loaded;
// the benchmarks' threads share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::bench {

struct Game {
  std::string name;           // "optio", "stand": the benchmarks' label
  std::string scenario_name;  // "optio/training"
  v1::ScenarioFile scenario;
  std::vector<v1::ScriptLine> lines;
  std::vector<int> dice;
  // Commands [first_play, lines.size() - 1) are the game after deployment, short of the one
  // that ends it: the commands the whole-command benchmarks cycle through.
  std::size_t first_play = 0;
  // The mid-game position the projection and envelope benchmarks look at: after this many
  // commands, with the side that acts next owed a legal list.
  std::size_t mid = 0;
  std::string error;  // empty when the data loaded; else why not (the benchmarks skip)
};

// The benchmarks' first argument: 0 Optio, 1 Ancient STAND!.
const Game& game(std::int64_t which);

rules::Side side_of(const v1::ScriptLine& line);
// The salt the server would draw for command `line` (any fixed bytes do for a benchmark).
match::Bytes32 salt_of(std::size_t line);

// A match of `g` with both sides seated and the dice forced, and its first `played` commands
// applied; null if the script is refused.
std::unique_ptr<wire::AnyMatch> played_match(const Game& g, std::size_t played);

}  // namespace castra::bench
