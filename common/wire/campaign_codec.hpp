// Protobuf <-> the pure campaign model: campaign.proto's rosters, selections and definitions
// to common/campaign/'s values and back. Reading checks form only (a known unit type, rule
// set and decision, a roster and a map of some rule set) and answers a RuleError with rule
// "campaign.form" or "campaign.definition"; check_definition judges the rest. Pure; any thread.
#pragma once

#include "common/campaign/definition.hpp"
#include "common/campaign/roster.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/campaign.pb.h"

namespace castra::wire::campaign {

namespace dom = castra::campaign;
using castra::rules::Checked;

Checked<dom::Roster> to_domain(const v1::Roster& p);
v1::Roster to_proto(const dom::Roster& r);

v1::stand::Figures to_proto(const castra::rules::stand::Figures& f);

dom::Selection to_domain(const v1::Selection& p);
v1::Selection to_proto(const dom::Selection& s);

// A battle's map, or the scenario a match was fought with.
Checked<dom::Map> to_domain(const v1::ScenarioFile& p);
Checked<dom::BattleNode> to_domain(const v1::BattleNode& p);
// Definitions are written by people and only read.
Checked<dom::Definition> to_domain(const v1::CampaignDefinition& p);

}  // namespace castra::wire::campaign
