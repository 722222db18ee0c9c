#include "server/lobby/scenarios.hpp"

#include <google/protobuf/util/json_util.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/wire/any_match.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::lobby {

namespace fs = std::filesystem;

std::optional<std::string> current_rules_version(const std::string& ruleset) {
  return wire::current_rules_version(ruleset);
}

namespace {

// Every .json file of `folder` as the scenario `prefix` + its stem ("optio/lessons/charge");
// a file that does not parse or is of another rule set is skipped with a warning.
void load_folder(const fs::path& folder, const std::string& ruleset, const std::string& prefix,
                 std::map<std::string, ScenarioEntry>& out) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return;
  for (const auto& file : fs::directory_iterator(folder, ec)) {
    if (file.path().extension() != ".json") continue;
    std::ifstream in(file.path());
    std::stringstream text;
    text << in.rdbuf();
    castra::v1::ScenarioFile scenario;
    google::protobuf::util::JsonParseOptions options;
    const auto status = google::protobuf::util::JsonStringToMessage(text.str(), &scenario, options);
    const bool right_game =
        (ruleset == "optio" && scenario.game_case() == castra::v1::ScenarioFile::kOptio) ||
        (ruleset == "stand" && scenario.game_case() == castra::v1::ScenarioFile::kStand);
    if (!status.ok() || !right_game) {
      spdlog::warn("event=scenario_skipped file={} error=\"{}\"", file.path().string(),
                   status.ok() ? "not a " + ruleset + " scenario" : status.ToString());
      continue;
    }
    ScenarioEntry entry;
    entry.name = prefix + file.path().stem().string();
    entry.ruleset = ruleset;
    entry.rules_version = *current_rules_version(ruleset);
    scenario.SerializeToString(&entry.bytes);
    out[entry.name] = std::move(entry);
  }
}

}  // namespace

Scenarios Scenarios::load(const std::string& dir) {
  Scenarios out;
  for (const std::string ruleset : {"optio", "stand"}) {
    const fs::path folder = fs::path(dir) / ruleset;
    load_folder(folder, ruleset, ruleset + "/", out.entries_);
    // The lessons (one rule each) are offered too, named "optio/lessons/charge".
    load_folder(folder / "lessons", ruleset, ruleset + "/lessons/", out.entries_);
  }
  spdlog::info("event=scenarios_loaded dir={} count={}", dir, out.entries_.size());
  return out;
}

const ScenarioEntry* Scenarios::find(const std::string& name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<const ScenarioEntry*> Scenarios::list(const std::string& ruleset) const {
  std::vector<const ScenarioEntry*> out;
  for (const auto& [name, entry] : entries_) {
    if (ruleset.empty() || entry.ruleset == ruleset) out.push_back(&entry);
  }
  return out;
}

}  // namespace castra::lobby
