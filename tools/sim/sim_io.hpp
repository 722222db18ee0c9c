// What castra-sim's two ways of running (a match from a scenario, a position from a saved
// state) share: reading files, printing JSON lines, and walking a command script with the
// output format of docs/formats.md section 6.
#pragma once

#include <google/protobuf/message.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::sim {

// Exit codes, documented in docs/formats.md 6.
constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;
constexpr int kExitRefused = 3;
constexpr int kExitVerifyFailed = 4;

bool read_file(const std::string& path, std::string* out);
std::string to_json_line(const google::protobuf::Message& m);
std::string pretty_json(const google::protobuf::Message& m);

// "3,1,6" as faces; nothing when an item is not a number.
std::optional<std::vector<int>> parse_dice(const std::string& list);

// --seed: 64 hex digits, or a random seed when empty; nothing (said on stderr) when malformed.
std::optional<match::Bytes32> parse_seed(const std::string& hex);

void print_events(const std::vector<v1::ViewEvent>& events);

// Each script line of `path` in order, parsed for `ruleset`, given to `step` with its line
// number; a refusal `step` returns is printed and ends the walk. kExitOk, kExitUsage (the
// file cannot be read or a line is malformed, said on stderr) or kExitRefused.
using ScriptStep =
    std::function<std::optional<rules::RuleError>(std::uint32_t line, const v1::ScriptLine& step)>;
int walk_script(const std::string& path, const std::string& ruleset, const ScriptStep& step);

inline rules::Side side_of(const v1::ScriptLine& step) {
  return step.side() == v1::SIDE_B ? rules::Side::kB : rules::Side::kA;
}

}  // namespace castra::sim
