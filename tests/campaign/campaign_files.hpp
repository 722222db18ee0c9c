// The test campaigns of tests/data/campaigns/, read, and each played once to its end by two
// greedy computer players (bot::play_campaign) into an exported campaign record. Read-only once
// played; one test thread.
#pragma once

#include <string>

#include "proto/castra/v1/campaign.pb.h"

namespace castra::campaign::testing {

// tests/data/campaigns/<name>.json's definition; fails the test when it does not parse.
v1::CampaignDefinition definition(const std::string& name);

// The record of the campaign played with seed 1 ("optio_three", "stand_three").
const v1::CampaignRecord& played(const std::string& name);

}  // namespace castra::campaign::testing
