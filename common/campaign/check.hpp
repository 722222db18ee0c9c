// Whether a campaign definition is sound: ids, the battle graph (acyclic, so every campaign
// ends), the rosters and reinforcements, the carry-over numbers, and every battle's map as its
// engine accepts it with the largest armies the campaign can bring to it. The rules:
// docs/rules/campaigns.md, "The definition". Pure; any thread.
#pragma once

#include <optional>

#include "common/campaign/definition.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

// Nothing when sound, else the first rule broken ("campaign.definition", or
// "campaign.definition.<part>" with the part named).
std::optional<rules::RuleError> check_definition(const Definition& d);

}  // namespace castra::campaign
