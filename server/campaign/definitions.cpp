#include "server/campaign/definitions.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/wire/campaign_play.hpp"

namespace castra::campaign_server {

namespace fs = std::filesystem;

Definitions Definitions::load(const std::string& scenarios_dir) {
  Definitions out;
  const fs::path folder = fs::path(scenarios_dir) / "campaigns";
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return out;
  for (const auto& file : fs::directory_iterator(folder, ec)) {
    if (file.path().extension() != ".json") continue;
    std::ifstream in(file.path());
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = wire::parse_campaign(text.str());
    if (!parsed) {
      spdlog::warn("event=campaign_skipped file={} rule={} error=\"{}\"", file.path().string(),
                   parsed.error().rule, parsed.error().message);
      continue;
    }
    const std::string name = parsed->name();
    if (name != file.path().stem().string()) {
      spdlog::warn("event=campaign_skipped file={} error=\"its name is {}\"", file.path().string(),
                   name);
      continue;
    }
    out.entries_[name] = std::move(*parsed);
  }
  spdlog::info("event=campaigns_loaded dir={} count={}", folder.string(), out.entries_.size());
  return out;
}

const castra::v1::CampaignDefinition* Definitions::find(const std::string& name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<const castra::v1::CampaignDefinition*> Definitions::list(
    const std::string& ruleset) const {
  std::vector<const castra::v1::CampaignDefinition*> out;
  for (const auto& [name, d] : entries_) {
    if (ruleset.empty() || d.ruleset() == ruleset) out.push_back(&d);
  }
  return out;
}

}  // namespace castra::campaign_server
