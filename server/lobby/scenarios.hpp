// Scenarios: the built-in battles the lobby offers, read once at start-up from
// <dir>/optio/*.json and <dir>/stand/*.json, and the lessons in <dir>/<game>/lessons/*.json
// (castra.v1.ScenarioFile in protobuf's JSON mapping), with what the client's picker shows of
// each (its title, history, size, armies and the balance measured by tools/balance, from
// <dir>/library/<game>.json: docs/formats.md). Immutable after load: any thread may read.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "proto/castra/v1/protocol.pb.h"

namespace castra::lobby {

struct ScenarioEntry {
  std::string name;               // "optio/training", "optio/lessons/charge": folder and stem
  std::string ruleset;            // "optio" or "stand"
  std::string rules_version;      // the rules data a new match of it begins with
  std::string bytes;              // castra.v1.ScenarioFile, binary
  castra::v1::ScenarioInfo info;  // what ListScenarios answers for it
};

// The rule sets the server knows and the version a new match uses, as each engine says
// (wire::current_rules_version); nullopt for any other name.
std::optional<std::string> current_rules_version(const std::string& ruleset);

class Scenarios {
 public:
  // Loads every readable scenario; a file that does not parse is skipped with a warning.
  static Scenarios load(const std::string& dir);
  const ScenarioEntry* find(const std::string& name) const;
  std::vector<const ScenarioEntry*> list(const std::string& ruleset) const;
  std::size_t size() const { return entries_.size(); }

 private:
  std::map<std::string, ScenarioEntry> entries_;
};

}  // namespace castra::lobby
