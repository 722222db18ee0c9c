#include "server/lobby/scenarios.hpp"

#include <google/protobuf/struct.pb.h>
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

// The rules' defaults for a size or turn limit a scenario leaves 0 (optio.proto, stand.proto).
constexpr int kOptioCols = 16;
constexpr int kOptioRows = 8;
constexpr int kTurnLimit = 12;

// <dir>/library/<game>.json: for each scenario by its stem ("cannae", "lessons/charge"), the
// ScenarioInfo fields the scenario file does not hold (the armies' names where it has none,
// the measured balance), in protobuf's JSON mapping. A missing or bad file leaves them empty.
std::map<std::string, castra::v1::ScenarioInfo> load_library(const fs::path& file) {
  std::map<std::string, castra::v1::ScenarioInfo> out;
  std::ifstream in(file);
  if (!in) return out;
  std::stringstream text;
  text << in.rdbuf();
  google::protobuf::Struct all;
  if (!google::protobuf::util::JsonStringToMessage(text.str(), &all).ok()) {
    spdlog::warn("event=scenario_library_skipped file={}", file.string());
    return out;
  }
  for (const auto& [stem, value] : all.fields()) {
    std::string json;
    castra::v1::ScenarioInfo info;
    if (!google::protobuf::util::MessageToJsonString(value, &json).ok() ||
        !google::protobuf::util::JsonStringToMessage(json, &info).ok()) {
      spdlog::warn("event=scenario_library_entry_skipped file={} entry={}", file.string(), stem);
      continue;
    }
    out[stem] = std::move(info);
  }
  return out;
}

// The picker's fields of `info` from the scenario itself.
void describe(const castra::v1::ScenarioFile& scenario, castra::v1::ScenarioInfo& info) {
  if (scenario.has_optio()) {
    const auto& o = scenario.optio();
    info.set_title(o.title().empty() ? o.name() : o.title());
    info.set_description(o.description());
    info.set_cols(o.cols() == 0 ? kOptioCols : o.cols());
    info.set_rows(o.rows() == 0 ? kOptioRows : o.rows());
    info.set_turn_limit(o.turn_limit() == 0 ? kTurnLimit : o.turn_limit());
  } else {
    const auto& st = scenario.stand();
    info.set_title(st.name());
    info.set_description(st.description());
    info.set_cols(st.width());
    info.set_rows(st.height());
    info.set_turn_limit(st.turn_limit() == 0 ? kTurnLimit : st.turn_limit());
    if (info.side_a().empty()) info.set_side_a(st.side_a().name());
    if (info.side_b().empty()) info.set_side_b(st.side_b().name());
  }
  *info.mutable_scenario() = scenario;
}

// Every .json file of `folder` as the scenario `prefix` + its stem ("optio/lessons/charge");
// a file that does not parse or is of another rule set is skipped with a warning.
void load_folder(const fs::path& folder, const std::string& ruleset, const std::string& prefix,
                 const std::map<std::string, castra::v1::ScenarioInfo>& library,
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
    // The library's key drops the rule set: "optio/lessons/charge" is "lessons/charge".
    const auto known = library.find(entry.name.substr(ruleset.size() + 1));
    if (known != library.end()) entry.info = known->second;
    entry.info.set_name(entry.name);
    entry.info.set_ruleset(ruleset);
    entry.info.set_rules_version(entry.rules_version);
    describe(scenario, entry.info);
    out[entry.name] = std::move(entry);
  }
}

}  // namespace

Scenarios Scenarios::load(const std::string& dir) {
  Scenarios out;
  for (const std::string ruleset : {"optio", "stand"}) {
    const fs::path folder = fs::path(dir) / ruleset;
    const auto library = load_library(fs::path(dir) / "library" / (ruleset + ".json"));
    load_folder(folder, ruleset, ruleset + "/", library, out.entries_);
    // The lessons (one rule each) are offered too, named "optio/lessons/charge".
    load_folder(folder / "lessons", ruleset, ruleset + "/lessons/", library, out.entries_);
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
