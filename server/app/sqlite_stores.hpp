// SqliteStores: the Stores over one SqliteMatchStore, every table in its database, every write
// through its one writer (server/store/sql_access.hpp).
#pragma once

#include "server/accounts/sqlite_account_store.hpp"
#include "server/app/stores.hpp"
#include "server/campaign/sqlite_campaign_store.hpp"
#include "server/lobby/sqlite_chat_store.hpp"
#include "server/notify/sqlite_target_store.hpp"
#include "server/store/sql_access.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra::server {

class SqliteStores final : public Stores {
 public:
  SqliteStores(store::SqliteMatchStore& store, Post post)
      : store_(store),
        sql_(store, std::move(post)),
        accounts_(sql_),
        chat_(sql_),
        targets_(sql_),
        campaigns_(sql_),
        players_(sql_) {}

  store::MatchStore& matches() override { return store_; }
  store::MatchCounts& counts() override { return store_; }
  accounts::AccountStore& accounts() override { return accounts_; }
  lobby::ChatStore& chat() override { return chat_; }
  notify::TargetStore& targets() override { return targets_; }
  campaign_server::CampaignStore& campaigns() override { return campaigns_; }
  ratings::PlayerRecords& players() override { return players_; }

 private:
  store::SqliteMatchStore& store_;
  store::StoreSqlAccess sql_;
  accounts::SqliteAccountStore accounts_;
  lobby::SqliteChatStore chat_;
  notify::SqliteTargetStore targets_;
  campaign_server::SqliteCampaignStore campaigns_;
  ratings::SqlitePlayerRecords players_;
};

}  // namespace castra::server
