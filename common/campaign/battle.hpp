// The scenario a campaign battle is fought with: the node's map with its armies replaced by
// what each side fields. Rules: docs/rules/campaigns.md, "The battle". Pure; any thread.
#pragma once

#include <array>
#include <optional>

#include "common/campaign/definition.hpp"
#include "common/campaign/roster.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

// Optio: the fielded units and leaders by roster id, in roster order, with their carried
// morale; a fixed deployment places each unit where the map's entry of its id does (square,
// facing, formation, and any starting disorder or missile hits the entry gives it), and each
// leader with the unit of the map's entry for him, or, when that unit is not fielded, with the
// first fielded unit of his command. STAND!: the fielded figures as each side's army; a fixed
// deployment's placements, in their order, each take of every type as many fielded figures as
// the map gives it, and one left empty is dropped.
// Refused ("campaign.battle.*", or the engine's rule) when the engine does not accept it.
rules::Checked<Map> battle_scenario(const BattleNode& node, const std::array<Roster, 2>& rosters,
                                    const std::array<Selection, 2>& fielded);

// The engine's refusal of a scenario of either rule set, at the current rules version.
std::optional<rules::RuleError> engine_refusal(const Map& map);

}  // namespace castra::campaign
