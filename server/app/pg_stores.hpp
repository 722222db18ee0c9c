// PgStores: the Stores over one PgMatchStore (castra-server --store postgresql://...), every
// write through its one writer (server/postgres/pg_access.hpp).
#pragma once

#include "server/app/stores_of.hpp"
#include "server/postgres/pg_access.hpp"
#include "server/postgres/pg_account_store.hpp"
#include "server/postgres/pg_table_stores.hpp"

namespace castra::server {

struct PgBackend {
  using MatchStore = postgres::PgMatchStore;
  using Access = postgres::PgAccess;
  using Accounts = postgres::PgAccountStore;
  using Chat = postgres::PgChatStore;
  using Targets = postgres::PgTargetStore;
  using Campaigns = postgres::PgCampaignStore;
  using Players = postgres::PgPlayerRecords;
};

using PgStores = StoresOf<PgBackend>;

}  // namespace castra::server
