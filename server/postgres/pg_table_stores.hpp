// The PostgreSQL stores of the service thread's smaller tables, each behind the interface its
// SQLite twin implements: chat (lobby::ChatStore), campaigns (CampaignStore), notification
// targets (notify::TargetStore), a player's page (ratings::PlayerRecords), and the rating step
// run inside the transaction that records a match's end (rate_finished_match, a
// PgFinishedHook). Writes are jobs for the one writer (PgAccess), reads on its read connection.
#pragma once

#include "server/campaign/campaign_store.hpp"
#include "server/lobby/chat_store.hpp"
#include "server/notify/target_store.hpp"
#include "server/postgres/pg_access.hpp"
#include "server/ratings/player_record.hpp"

namespace castra::postgres {

class PgChatStore final : public lobby::ChatStore {
 public:
  explicit PgChatStore(PgAccess& sql) : sql_(sql) {}
  void add(lobby::ChatLine line, std::function<void(store::Status, lobby::ChatLine)> done) override;
  std::vector<lobby::ChatLine> history(const std::string& match_id, lobby::Channel channel,
                                       std::int64_t before_id, int limit,
                                       store::Status* status) override;
  void mute(const std::string& match_id, std::int64_t account_id, const std::string& muted_key,
            Done done) override;
  void unmute(const std::string& match_id, std::int64_t account_id, const std::string& muted_key,
              Done done) override;
  std::set<std::string> mutes(const std::string& match_id, std::int64_t account_id,
                              store::Status* status) override;

 private:
  PgAccess& sql_;
};

class PgCampaignStore final : public campaign_server::CampaignStore {
 public:
  explicit PgCampaignStore(PgAccess& sql) : sql_(sql) {}
  // In cluster mode (PgAccess::roles()) fenced by the campaigns role, and NOTIFYed to the
  // other nodes in the same transaction (pg_notices.hpp).
  void put(const castra::v1::StoredCampaign& state, Done done) override;
  store::Status find(const std::string& id,
                     std::optional<castra::v1::StoredCampaign>* out) override;
  store::Status unfinished(std::vector<castra::v1::StoredCampaign>* out) override;
  store::Status ids_by_status(const std::string& status, int limit,
                              std::vector<std::string>* out) override;
  store::Status ids_of_player(std::int64_t account, int limit,
                              std::vector<std::string>* out) override;

 private:
  PgAccess& sql_;
};

class PgTargetStore final : public notify::TargetStore {
 public:
  explicit PgTargetStore(PgAccess& sql) : sql_(sql) {}
  void set(std::int64_t account_id, const notify::Targets& targets, std::int64_t now_ms,
           Done done) override;
  notify::Targets find(std::int64_t account_id, store::Status* status) override;

 private:
  PgAccess& sql_;
};

class PgPlayerRecords final : public ratings::PlayerRecords {
 public:
  explicit PgPlayerRecords(PgAccess& sql) : sql_(sql) {}
  store::Status page(const std::string& name_key, std::optional<ratings::PlayerAccount>* account,
                     std::vector<ratings::FinishedMatch>* matches,
                     std::vector<ratings::StoredRating>* ratings) override;

 private:
  PgAccess& sql_;
};

// As ratings::rate_finished_match, on PostgreSQL: a PgFinishedHook.
store::Status rate_finished_match(pqxx::transaction_base& tx, const store::MatchRow& row);

}  // namespace castra::postgres
