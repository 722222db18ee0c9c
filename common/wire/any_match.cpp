// The one place that picks a rules engine by rule set.
#include "common/wire/any_match.hpp"

#include "common/wire/match_adapter.hpp"
#include "common/wire/wires.hpp"

namespace castra::wire {

std::optional<std::string> current_rules_version(std::string_view ruleset) {
  if (ruleset == rules::optio::Game::kName)
    return std::string(rules::optio::Game::current_version());
  if (ruleset == rules::stand::Game::kName)
    return std::string(rules::stand::Game::current_version());
  return std::nullopt;
}

Checked<std::unique_ptr<AnyMatch>> make_match(const MatchSetup& setup) {
  switch (setup.scenario.game_case()) {
    case v1::ScenarioFile::kOptio:
      return make_adapter<OptioWire>(setup);
    case v1::ScenarioFile::kStand:
      return make_adapter<StandWire>(setup);
    default:
      return rules::refuse("wire.scenario", "the scenario names no rule set (optio or stand)");
  }
}

std::optional<std::string> verify_record(const v1::MatchRecord& record) {
  switch (record.scenario().game_case()) {
    case v1::ScenarioFile::kOptio:
      return verify_with<OptioWire>(record);
    case v1::ScenarioFile::kStand:
      return verify_with<StandWire>(record);
    default:
      return "the record's scenario names no rule set";
  }
}

}  // namespace castra::wire
