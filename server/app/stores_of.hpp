// StoresOf<Backend>: the Stores over one match store, every table in its database and every
// write through its one writer. The SQLite and PostgreSQL stores are wired the same way; a
// Backend names the types (server/app/sqlite_stores.hpp, server/app/pg_stores.hpp).
#pragma once

#include <utility>

#include "server/app/stores.hpp"

namespace castra::server {

template <class Backend>
class StoresOf final : public Stores {
 public:
  using MatchStore = typename Backend::MatchStore;

  StoresOf(MatchStore& store, Post post)
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
  MatchStore& store_;
  typename Backend::Access sql_;
  typename Backend::Accounts accounts_;
  typename Backend::Chat chat_;
  typename Backend::Targets targets_;
  typename Backend::Campaigns campaigns_;
  typename Backend::Players players_;
};

}  // namespace castra::server
