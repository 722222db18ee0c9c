// CampaignStore: the interface to campaigns as stored, whichever database holds them (SQLite:
// sqlite_campaign_store.hpp; PostgreSQL: server/store/postgres/): one row per campaign, its
// whole state a castra.v1.StoredCampaign blob; `done` after the commit, on the caller's
// thread. A campaign's salts and entropy live in the blob, which is never sent. Service
// thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "proto/castra/v1/campaign.pb.h"
#include "server/store/status.hpp"

namespace castra::campaign_server {

class CampaignStore {
 public:
  using Done = std::function<void(store::Status)>;
  virtual ~CampaignStore() = default;

  // Inserts or replaces the campaign's row from `state`; `done` after the commit.
  virtual void put(const castra::v1::StoredCampaign& state, Done done) = 0;
  virtual store::Status find(const std::string& id,
                             std::optional<castra::v1::StoredCampaign>* out) = 0;
  // Every campaign that is not finished or closed (start-up).
  virtual store::Status unfinished(std::vector<castra::v1::StoredCampaign>* out) = 0;
  // Ids by status ("open", "live", "finished"), most recently updated first.
  virtual store::Status ids_by_status(const std::string& status, int limit,
                                      std::vector<std::string>* out) = 0;
  // Ids of the account's campaigns (created or played), most recently updated first.
  virtual store::Status ids_of_player(std::int64_t account, int limit,
                                      std::vector<std::string>* out) = 0;
};

// The status column's words.
std::string status_word(castra::v1::CampaignStatus status);

}  // namespace castra::campaign_server
