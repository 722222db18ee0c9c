// SqliteCampaignStore: CampaignStore over the SQLite table campaigns
// (migrations/0006_campaigns.sql), written through the store's one writer and read on its read
// connection (server/store/sql_access.hpp). Service thread only.
#pragma once

#include "server/campaign/campaign_store.hpp"
#include "server/store/sql_access.hpp"

namespace castra::campaign_server {

class SqliteCampaignStore final : public CampaignStore {
 public:
  explicit SqliteCampaignStore(store::SqlAccess& sql) : sql_(sql) {}

  void put(const castra::v1::StoredCampaign& state, Done done) override;
  store::Status find(const std::string& id,
                     std::optional<castra::v1::StoredCampaign>* out) override;
  store::Status unfinished(std::vector<castra::v1::StoredCampaign>* out) override;
  store::Status ids_by_status(const std::string& status, int limit,
                              std::vector<std::string>* out) override;
  store::Status ids_of_player(std::int64_t account, int limit,
                              std::vector<std::string>* out) override;

 private:
  store::SqlAccess& sql_;
};

}  // namespace castra::campaign_server
