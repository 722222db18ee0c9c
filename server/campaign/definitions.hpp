// Definitions: the campaigns the server offers, read once at start-up from
// <dir>/campaigns/*.json (castra.v1.CampaignFile), each checked by the campaign rules
// (wire::parse_campaign); a file that does not parse or check is skipped with a warning.
// Immutable after load: any thread may read.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "proto/castra/v1/campaign.pb.h"

namespace castra::campaign_server {

class Definitions {
 public:
  static Definitions load(const std::string& scenarios_dir);
  const castra::v1::CampaignDefinition* find(const std::string& name) const;
  std::vector<const castra::v1::CampaignDefinition*> list(const std::string& ruleset) const;
  std::size_t size() const { return entries_.size(); }

 private:
  std::map<std::string, castra::v1::CampaignDefinition> entries_;
};

}  // namespace castra::campaign_server
