// SqliteStores: the Stores over one SqliteMatchStore, every write through its one writer
// (server/store/sql_access.hpp).
#pragma once

#include "server/accounts/sqlite_account_store.hpp"
#include "server/app/stores_of.hpp"
#include "server/campaign/sqlite_campaign_store.hpp"
#include "server/lobby/sqlite_chat_store.hpp"
#include "server/notify/sqlite_target_store.hpp"
#include "server/store/sql_access.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra::server {

struct SqliteBackend {
  using MatchStore = store::SqliteMatchStore;
  using Access = store::StoreSqlAccess;
  using Accounts = accounts::SqliteAccountStore;
  using Chat = lobby::SqliteChatStore;
  using Targets = notify::SqliteTargetStore;
  using Campaigns = campaign_server::SqliteCampaignStore;
  using Players = ratings::SqlitePlayerRecords;
};

using SqliteStores = StoresOf<SqliteBackend>;

}  // namespace castra::server
