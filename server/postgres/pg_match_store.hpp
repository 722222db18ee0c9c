// PgMatchStore: the MatchStore (and MatchCounts) over a PostgreSQL database, beside
// SqliteMatchStore and held to the same tests (StoreConformance.*). Two connections, each a
// PgSession made again when the database drops it: the writer's, owned by one PgWriter thread
// (every write, group-committed with synchronous_commit=on), and one for the synchronous reads
// behind a mutex, each read a REPEATABLE READ snapshot (run once more on a new connection when
// the old one was lost). Threading: every method from any thread, except that nothing may
// wait on the writer from inside an append callback (create_match, update_match, flush).
#pragma once

#include <memory>
#include <mutex>

#include "server/postgres/pg.hpp"
#include "server/postgres/pg_leases.hpp"
#include "server/postgres/pg_session.hpp"
#include "server/postgres/pg_writer.hpp"
#include "server/store/match_store.hpp"

namespace castra::postgres {

// Runs inside the transaction that writes a match row as finished (the server's rating step
// on PostgreSQL); a failure fails the write. As store::FinishedHook is for SQLite.
using PgFinishedHook =
    std::function<store::Status(pqxx::transaction_base&, const store::MatchRow&)>;

struct PgStoreOptions {
  std::string url;  // postgresql://user@host:port/database
  std::size_t queue_capacity = 4096;
  std::size_t max_batch = 512;
  // How long the writer tries to make a lost connection again before its batch fails.
  std::chrono::milliseconds reconnect_patience{5000};
  PgFinishedHook on_finished;  // empty: nothing more is written at a match's end
  // Cluster mode: every append is fenced by this node's leases (pg_leases.hpp), and a new
  // match is leased to this node; null: one server alone, no leases.
  std::shared_ptr<LeaseBook> leases;
  // Cluster mode: the cluster roles this node holds (kCampaignsRole), which every campaign
  // write is fenced by; null with `leases`.
  std::shared_ptr<LeaseBook> roles;
};

class PgMatchStore final : public store::MatchStore, public store::MatchCounts {
 public:
  // Connects twice, applies migrations/postgresql/ and starts the writer. On failure `*store`
  // is left empty and the Status says why.
  static store::Status open(const PgStoreOptions& options, std::unique_ptr<PgMatchStore>* store);
  // Commits everything queued, then closes both connections.
  ~PgMatchStore() override;

  store::Status create_match(const store::MatchRow& row, const store::Secrets& secrets) override;
  store::Status update_match(const store::MatchRow& row) override;
  store::Status find_match(const std::string& id, std::optional<store::MatchRow>* row) override;
  store::Status list_matches(store::MatchStatus status, int limit,
                             std::vector<store::MatchRow>* rows) override;
  store::Status matches_of_player(std::int64_t account, int limit,
                                  std::vector<store::MatchRow>* rows) override;
  void append(store::AppendRequest request, std::function<void(store::Status)> done) override;
  store::Status flush() override;
  store::Status find_reply(const std::string& match_id, int side, std::int64_t client_seq,
                           std::optional<std::string>* reply) override;
  store::Status replies_of(const std::string& match_id,
                           std::vector<store::StoredReply>* replies) override;
  store::Status latest_snapshot(const std::string& match_id,
                                std::optional<store::Snapshot>* snapshot) override;
  store::Status log_from(const std::string& match_id, std::uint32_t entry_index,
                         std::vector<store::LogRow>* rows) override;
  store::Status secrets(const std::string& match_id,
                        std::optional<store::Secrets>* secrets) override;

  store::Status open_created_by(std::int64_t account, std::int64_t* count) override;
  store::Status by_status(std::array<std::int64_t, 4>* counts) override;

  // The database's one writer, for the server's other tables (accounts, sessions, chat...).
  PgWriter& writer() { return *writer_; }
  // Runs `work` on the read connection in one REPEATABLE READ, read-only transaction.
  store::Status read(const std::function<store::Status(pqxx::transaction_base&)>& work);
  int schema_version();
  // Cluster mode's roles book (PgStoreOptions::roles); null for one server alone.
  const std::shared_ptr<LeaseBook>& roles() const { return roles_; }
  // How many times the two connections were made again, in all, after the database dropped one.
  std::uint64_t reconnections();

 private:
  PgMatchStore(const PgStoreOptions& options, PgSession::Prepare prepare_write);

  PgSession write_;
  PgSession read_;
  std::mutex read_mutex_;
  const PgFinishedHook on_finished_;
  const std::shared_ptr<LeaseBook> leases_;
  const std::shared_ptr<LeaseBook> roles_;
  std::unique_ptr<PgWriter> writer_;  // last: stops (and commits) before the connections close
};

}  // namespace castra::postgres
