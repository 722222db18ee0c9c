// A roster between battles: the reinforcements that join it before a battle, what of it can
// take the field, and whether it can still field an army at all. Rules:
// docs/rules/campaigns.md, "Rosters". Pure; any thread.
#pragma once

#include "common/campaign/definition.hpp"
#include "common/campaign/roster.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

// `roster` once `side`'s reinforcements of `node` have joined it: Optio's units and leaders
// appended in their order, STAND!'s figures added.
Roster arrive(const BattleNode& node, rules::Side side, Roster roster);

// Everything the roster can field (what a battle of selection limit 0 takes): Optio's units
// with every leader who has a unit of his command; STAND!'s figures.
Selection whole_roster(const Roster& roster);

// Whether an army can be fielded from it: Optio needs a general with a unit of his own
// command; STAND! a figure.
bool can_field(const Roster& roster);

// A unit whose command has no leader (killed and not replaced) serves under the general.
void serve_under_general(OptioRoster& roster);

}  // namespace castra::campaign
