#include "tests/campaign/campaign_files.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "common/bot/self_play_campaign.hpp"
#include "common/wire/campaign_play.hpp"

namespace castra::campaign::testing {

v1::CampaignDefinition definition(const std::string& name) {
  const std::string path =
      std::string(CASTRA_SOURCE_DIR) + "/tests/data/campaigns/" + name + ".json";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = wire::parse_campaign(ss.str());
  EXPECT_TRUE(parsed.ok()) << name << ": " << parsed.error().message << " (" << parsed.error().rule
                           << ")";
  return parsed.ok() ? *parsed : v1::CampaignDefinition{};
}

const v1::CampaignRecord& played(const std::string& name) {
  static std::map<std::string, v1::CampaignRecord> records;
  auto it = records.find(name);
  if (it != records.end()) return it->second;
  bot::CampaignSetup setup;
  setup.definition = definition(name);
  setup.campaign_id = "test-" + name;
  setup.seed = 1;
  auto record = bot::play_campaign(setup);
  EXPECT_TRUE(record.ok()) << name << ": " << record.error().message;
  return records[name] = record.ok() ? *record : v1::CampaignRecord{};
}

}  // namespace castra::campaign::testing
