// The campaigns shipped in scenarios/campaigns/: every file checks as the server loads it, is
// named after its file and documented in the README, fights three or more battles on every
// path with a secret selection in at least one, and plays to its end by self-play into a
// record that verifies.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/bot/self_play_campaign.hpp"
#include "common/wire/campaign_play.hpp"

namespace castra::campaign {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(CASTRA_SOURCE_DIR) / "scenarios" / "campaigns";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  EXPECT_TRUE(in.good()) << p;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Each file's definition by its file name; a file that does not parse fails the test.
std::map<std::string, v1::CampaignDefinition> shipped() {
  std::map<std::string, v1::CampaignDefinition> out;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    if (entry.path().extension() != ".json") continue;
    const std::string file = entry.path().filename().string();
    auto parsed = wire::parse_campaign(read(entry.path()));
    EXPECT_TRUE(parsed.ok()) << file << ": " << parsed.error().message;
    if (parsed.ok()) out[file] = *parsed;
  }
  return out;
}

// The fewest battles fought from `id` (included) to the campaign's end.
int fewest_battles(const v1::CampaignDefinition& d, const std::string& id) {
  const v1::BattleNode* b = wire::find_battle(d, id);
  if (b == nullptr) return 0;
  int fewest = INT_MAX;
  for (const std::string& next : {b->on_a_wins(), b->on_b_wins(), b->on_draw()}) {
    fewest = std::min(fewest, next.empty() ? 1 : 1 + fewest_battles(d, next));
  }
  return fewest;
}

TEST(CampaignContent, EveryFileChecksIsNamedAfterItselfAndIsDocumented) {
  const std::string readme = read(kDir / "README.md");
  std::map<std::string, int> per_ruleset;
  for (const auto& [file, d] : shipped()) {
    const auto refused = wire::check_campaign(d);
    EXPECT_FALSE(refused.has_value()) << file << ": " << refused->message;
    EXPECT_EQ(d.name() + ".json", file);
    EXPECT_NE(readme.find("## " + file), std::string::npos) << file << " has no README section";
    ++per_ruleset[d.ruleset()];
  }
  EXPECT_EQ(per_ruleset["optio"], 2);
  EXPECT_EQ(per_ruleset["stand"], 2);
}

TEST(CampaignContent, EveryPathFightsThreeBattlesAndEveryCampaignHasASelection) {
  for (const auto& [file, d] : shipped()) {
    EXPECT_GE(fewest_battles(d, d.first_battle()), 3) << file;
    const bool selects =
        std::any_of(d.battles().begin(), d.battles().end(),
                    [](const v1::BattleNode& b) { return b.selection_limit() > 0; });
    EXPECT_TRUE(selects) << file;
  }
}

TEST(CampaignContent, EveryCampaignPlaysToItsEndAndItsRecordVerifies) {
  for (const auto& [file, d] : shipped()) {
    bot::CampaignSetup setup;
    setup.definition = d;
    setup.campaign_id = "content-" + d.name();
    setup.seed = 1;
    auto record = bot::play_campaign(setup);
    ASSERT_TRUE(record.ok()) << file << ": " << record.error().message << " ("
                             << record.error().rule << ")";
    EXPECT_TRUE(record->finished()) << file;
    EXPECT_EQ(wire::verify_campaign(*record).value_or("verified"), "verified") << file;
  }
}

}  // namespace
}  // namespace castra::campaign
