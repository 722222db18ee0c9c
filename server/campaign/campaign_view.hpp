// What one viewer may see of a campaign (protocol's CampaignSummary and CampaignView): a
// player his own roster whole (now and in every battle's history) and his own sealed
// selection; the opponent's roster, and every spectator both, only as far as they are public
// (what has fought and what it lost; a past battle's rosters as far as it fielded them); no
// selection before the battle it is for begins. Pure.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "proto/castra/v1/campaign.pb.h"

namespace castra::campaign_server {

using NameOf = std::function<std::string(std::int64_t)>;

v1::CampaignSummary summary_of(const v1::StoredCampaign& c, std::int64_t viewer,
                               const NameOf& name_of, bool my_action);
v1::CampaignView view_of(const v1::StoredCampaign& c, std::int64_t viewer, const NameOf& name_of,
                         bool my_action);

}  // namespace castra::campaign_server
