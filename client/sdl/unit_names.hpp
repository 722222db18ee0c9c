// Unit names: what the board calls an Optio unit, the same words the log uses ("16", "cavalry
// 16", and on hover the scenario's own name, "16 cavalry: Scipio's horse"), read from the
// scenario the server listed (ScenarioInfo.scenario) and the unit's projected state; the client
// decides nothing. Render thread only.
#pragma once

#include <string>
#include <vector>

#include "proto/castra/v1/optio.pb.h"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::client {

// The scenario's name for unit `id` of the scenario `scenario` ("optio/cannae") among those the
// lobby listed; "" when it has none or the scenario is not listed.
std::string optio_scenario_unit_name(const std::vector<v1::ScenarioInfo>& scenarios,
                                     const std::string& scenario, int id);

// "16 heavy infantry", then ": " and the scenario's name when it has one.
std::string optio_unit_hover_text(const v1::optio::Unit& u, const std::string& scenario_name);

}  // namespace castra::client
