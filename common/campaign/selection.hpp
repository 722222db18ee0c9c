// Who of a roster fights one battle: the check of a player's selection and the selection the
// server makes for him at a missed deadline. Rules: docs/rules/campaigns.md, "Selections".
// Pure; any thread.
#pragma once

#include <optional>

#include "common/campaign/definition.hpp"
#include "common/campaign/roster.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

// Nothing when `s` may fight `node` from `roster`, else the rule it breaks:
// campaign.selection.form, .whole, .roster, .limit, .empty (STAND!), .general, .leader,
// .command (Optio).
std::optional<rules::RuleError> check_selection(const BattleNode& node, const Roster& roster,
                                                const Selection& s);

// The selection fielded at a missed deadline, from the data alone. Optio: the first unit of
// the general's command, then units in roster order, up to the limit, with every leader who has
// a selected unit of his command. STAND!: each type's share of the limit, by largest remainder.
// Limit 0, or a roster within the limit: whole_roster().
Selection default_selection(const BattleNode& node, const Roster& roster);

// The selection with its ids in ascending order: two selections of the same units and leaders
// compare equal once normalized (the commitment's bytes are of this form).
Selection normalized(Selection s);

}  // namespace castra::campaign
