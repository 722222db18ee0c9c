// Stores: every store the service thread uses, behind its interface, whichever database holds
// them: SQLite (SqliteStores, the default, over one SqliteMatchStore) or PostgreSQL
// (PgStores, server/app/pg_stores.hpp). The composition root builds one and hands the parts
// to the accounts, the lobby, the campaigns and the handlers. Built and destroyed on the
// thread that builds the ServerApp; the parts' own threading rules hold.
#pragma once

#include <functional>

#include "server/accounts/account_store.hpp"
#include "server/campaign/campaign_store.hpp"
#include "server/lobby/chat_store.hpp"
#include "server/notify/target_store.hpp"
#include "server/ratings/player_record.hpp"
#include "server/store/match_store.hpp"

namespace castra::server {

class Stores {
 public:
  // Takes a write's `done` to the service thread.
  using Post = std::function<void(std::function<void()>)>;
  virtual ~Stores() = default;

  virtual store::MatchStore& matches() = 0;
  virtual store::MatchCounts& counts() = 0;
  virtual accounts::AccountStore& accounts() = 0;
  virtual lobby::ChatStore& chat() = 0;
  virtual notify::TargetStore& targets() = 0;
  virtual campaign_server::CampaignStore& campaigns() = 0;
  virtual ratings::PlayerRecords& players() = 0;
};

// Builds the stores once the service thread's Post exists (ServerApp's constructor).
using MakeStores = std::function<std::unique_ptr<Stores>(Stores::Post)>;

}  // namespace castra::server
