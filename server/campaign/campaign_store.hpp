// CampaignStore: campaigns as stored (migrations/0006_campaigns.sql): one row per campaign,
// its whole state a castra.v1.StoredCampaign blob, written through the store's one writer
// (`done` after the commit, on the caller's thread) and read on its read connection. A
// campaign's salts and entropy live in the blob, which is never sent. Service thread only.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "proto/castra/v1/campaign.pb.h"
#include "server/store/sql_access.hpp"

namespace castra::campaign_server {

class CampaignStore {
 public:
  explicit CampaignStore(store::SqlAccess& sql) : sql_(sql) {}

  // Inserts or replaces the campaign's row from `state`; `done` after the commit.
  void put(const castra::v1::StoredCampaign& state, store::SqlAccess::Done done);
  store::Status find(const std::string& id, std::optional<castra::v1::StoredCampaign>* out);
  // Every campaign that is not finished or closed (start-up).
  store::Status unfinished(std::vector<castra::v1::StoredCampaign>* out);
  // Ids by status ("open", "live", "finished"), most recently updated first.
  store::Status ids_by_status(const std::string& status, int limit, std::vector<std::string>* out);
  // Ids of the account's campaigns (created or played), most recently updated first.
  store::Status ids_of_player(std::int64_t account, int limit, std::vector<std::string>* out);

 private:
  store::SqlAccess& sql_;
};

// The status column's words.
std::string status_word(castra::v1::CampaignStatus status);

}  // namespace castra::campaign_server
