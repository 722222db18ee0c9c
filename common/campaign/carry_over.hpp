// Carry-over: a side's roster after a battle, a pure function of its roster before, who it
// fielded and the domain events of the battle (never its protobuf). Rules:
// docs/rules/campaigns.md, "Carry-over". Pure; any thread.
#pragma once

#include <vector>

#include "common/campaign/definition.hpp"
#include "common/campaign/roster.hpp"
#include "common/rules/optio/state.hpp"
#include "common/rules/stand/command.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

// Optio: a fielded unit that routed is lost; a surviving one starts its next battle with its
// morale at the battle's end plus the data's recovery, never above its type's maximum (the
// battle's rules version `rs`); a fielded leader killed is replaced as `data` says (or is gone,
// and his units serve under the general); everything unfielded is unchanged. The events are
// the whole battle's; those of the other side's units and leaders are not this roster's.
// Refused ("campaign.carry_over") when the events contradict the roster or the selection.
rules::Checked<Roster> carry_over(const OptioCarryOver& data, const optio::Ruleset& rs,
                                  const Roster& before, const Selection& fielded,
                                  const std::vector<optio::Event>& events);

// STAND!: the figures `side` lost stay lost.
rules::Checked<Roster> carry_over(rules::Side side, const Roster& before, const Selection& fielded,
                                  const std::vector<stand::Event>& events);

}  // namespace castra::campaign
