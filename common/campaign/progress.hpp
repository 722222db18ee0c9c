// A campaign's way through its graph: whether it ends after a battle, and its outcome as the
// definition decides it. Rules: docs/rules/campaigns.md, "The end". Pure; any thread.
#pragma once

#include <array>
#include <vector>

#include "common/campaign/definition.hpp"
#include "common/campaign/roster.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

// Whether the campaign ends after `node` ended with `result`, leaving rosters `after`: at an
// edge to no battle, or when a side cannot field an army even with the next battle's
// reinforcements.
bool ends_after(const Definition& d, const BattleNode& node, rules::Outcome::Kind result,
                const std::array<Roster, 2>& after);

// The campaign's outcome from its battles' results in the order fought; a draw when none was.
rules::Outcome campaign_outcome(Decision decided_by, const std::vector<rules::Outcome>& results);

}  // namespace castra::campaign
