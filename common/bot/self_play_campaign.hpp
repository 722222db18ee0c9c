// Offline self-play of a whole campaign: every battle played to its end by two Brains through
// the match layer (play_game), the rosters carried over and the next battle chosen exactly as
// the server does it with common/wire/campaign_play.hpp, every random input (dice seeds,
// entropy, selection salts) derived from one seed. Its result is the exported campaign record
// (castra.v1.CampaignRecord), for tests and tools. Pure: no clock, no I/O. One thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/bot/brain.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/campaign.pb.h"

namespace castra::bot {

// A side's secret selection for a battle with a selection limit, from its roster then.
using SelectFn =
    std::function<v1::Selection(rules::Side side, const v1::BattleNode& node, const v1::Roster&)>;

struct CampaignSetup {
  v1::CampaignDefinition definition;  // checked (wire::check_campaign)
  std::string campaign_id = "self-play-campaign";
  std::uint64_t seed = 0;
  Strength strength = Strength::kGreedy;
  // Unset: each side fields the default selection, as at a missed deadline (marked defaulted).
  SelectFn select;
  int max_commands = 20000;  // a battle is abandoned past this many commands
};

// The record of the campaign played to its end; the first refusal (a selection, a battle's
// scenario, a battle that did not end) otherwise.
rules::Checked<v1::CampaignRecord> play_campaign(const CampaignSetup& setup);

}  // namespace castra::bot
