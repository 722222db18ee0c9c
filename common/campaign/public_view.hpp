// What of a side's roster its opponent and spectators may see: what has fought, as it is now.
// Rules: docs/rules/campaigns.md, "What is public". Pure; any thread.
#pragma once

#include <vector>

#include "common/campaign/roster.hpp"

namespace castra::campaign {

// One battle fought, as far as one side is concerned: what it fielded and its rosters before
// (reinforcements included) and after.
struct Fought {
  Selection fielded;
  Roster before;
  Roster after;
};

struct PublicRoster {
  Roster roster;
  int hidden_units = 0;
  int hidden_figures = 0;
};

// Optio: the units and leaders of `now` that have fought in some battle of `history`, as they
// are now. STAND!: of each type, the most figures that any battle showed fielded and that the
// losses since cannot have used up, never more than `now` has.
PublicRoster public_roster(const Roster& now, const std::vector<Fought>& history);

}  // namespace castra::campaign
