// Protobuf <-> domain values for the stand rule set (proto/castra/v1/stand.proto and
// common/rules/stand/). Reading checks form only (known enum values, a command kind, the
// hexes a message must name) and answers a RuleError, never a crash; the rules engine
// judges everything else. Pure conversions, any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/rules/stand/game.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/stand.pb.h"

namespace castra::wire::stand {

namespace pb = castra::v1::stand;
namespace rs = castra::rules::stand;
using castra::rules::Checked;

// Scenario: read from files people write; written back for campaigns and tools (a
// scenario's description is not in the domain value, so it is not written).
Checked<rs::Scenario> to_domain(const pb::Scenario& p);
pb::Scenario to_proto(const rs::Scenario& sc);

Checked<rs::Command> to_domain(const pb::Command& p);
pb::Command to_proto(const rs::Command& c);

// Events are read back from stored logs; their hexes are not checked against a map.
Checked<rs::Event> to_domain(const pb::Event& p);
// The event's words are not filled: they need the state before it (Game::describe), and
// ViewEvent.text carries them.
pb::Event to_proto(const rs::Event& e);

// A state read back is re-checked whole (Game::check); a broken one is a RuleError.
Checked<rs::State> to_domain(const pb::State& p);
pb::State to_proto(const rs::State& s);

pb::Legal to_proto(const rs::Legal& l);

// Attack forecasts (common/rules/stand/forecast.hpp) onto the message of the list they were
// made for, each beside the targets of the hex it attacks from.
pb::AttackForecast to_proto(const rs::AttackForecast& f);
void add_forecasts(const std::vector<rs::AttackForecast>& forecasts, pb::Legal* p);

// JSON in protobuf's JSON mapping. A scenario file is a castra.v1.ScenarioFile holding
// {"stand": {...}}; a command script line is a castra.v1.ScriptLine,
// {"side": "SIDE_A", "command": {"stand": {...}}} (a resignation line is the match
// layer's business and is refused here).
Checked<rs::Scenario> scenario_from_json(std::string_view json);
std::string scenario_to_json(const rs::Scenario& sc);
struct ScriptStep {
  castra::rules::Side side = castra::rules::Side::kA;
  rs::Command command;
};
Checked<ScriptStep> script_line_from_json(std::string_view json);
std::string script_line_to_json(castra::rules::Side side, const rs::Command& c);

}  // namespace castra::wire::stand
