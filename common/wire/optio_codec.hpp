// Protobuf <-> domain values for the optio rule set. Pure conversions, any thread.
// Messages come from proto/castra/v1/optio.proto; domain values from
// common/rules/optio/state.hpp. A message that no domain value matches (an unknown unit
// type, a command with no kind) is a RuleError with rule "wire.optio".
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/rules/optio/forecast.hpp"
#include "common/rules/optio/state.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/optio.pb.h"

namespace castra::wire::optio {

namespace dom = castra::rules::optio;
namespace pb = castra::v1::optio;
using castra::rules::Checked;

Checked<dom::Scenario> to_domain(const pb::Scenario& m);
pb::Scenario to_proto(const dom::Scenario& s);

Checked<dom::Command> to_domain(const pb::Command& m);
pb::Command to_proto(const dom::Command& c);

Checked<dom::Event> to_domain(const pb::Event& m);
pb::Event to_proto(const dom::Event& e);

Checked<dom::State> to_domain(const pb::State& m);
pb::State to_proto(const dom::State& s);

pb::Legal to_proto(const dom::Legal& l);

// Forecasts (common/rules/optio/forecast.hpp) onto the message of the list they were made
// for: each charge's on its advance option, each shot's beside the unit's shoot targets.
pb::Forecast to_proto(const dom::Forecast& f);
void add_forecasts(const std::vector<dom::UnitForecasts>& forecasts, pb::Legal* m);

castra::v1::Side to_proto(castra::rules::Side s);
castra::rules::Side to_domain(castra::v1::Side s);

// JSON in protobuf's mapping. A scenario file is a castra.v1.ScenarioFile whose `optio`
// is set (scenarios/optio/*.json).
Checked<dom::Scenario> scenario_from_json(std::string_view json);
std::string scenario_to_json(const dom::Scenario& s);

// A command script: one optio.ScriptLine per line ({"side":"SIDE_A","command":{...}});
// blank lines are skipped.
using ScriptLine = std::pair<castra::rules::Side, dom::Command>;
Checked<std::vector<ScriptLine>> script_from_jsonl(std::string_view text);
std::string script_line_to_json(castra::rules::Side side, const dom::Command& c);

std::string event_to_json(const dom::Event& e);

}  // namespace castra::wire::optio
