// PgStores: the Stores over one PgMatchStore (castra-server --store postgresql://...), every
// table in its database, every write through its one writer (server/postgres/pg_access.hpp).
#pragma once

#include "server/app/stores.hpp"
#include "server/postgres/pg_access.hpp"
#include "server/postgres/pg_account_store.hpp"
#include "server/postgres/pg_table_stores.hpp"

namespace castra::server {

class PgStores final : public Stores {
 public:
  PgStores(postgres::PgMatchStore& store, Post post)
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
  postgres::PgMatchStore& store_;
  postgres::PgAccess sql_;
  postgres::PgAccountStore accounts_;
  postgres::PgChatStore chat_;
  postgres::PgTargetStore targets_;
  postgres::PgCampaignStore campaigns_;
  postgres::PgPlayerRecords players_;
};

}  // namespace castra::server
