// SqliteMatchStore: the MatchStore over one SQLite database (docs/storage.md). Two connections:
// the writer's, owned by one Writer thread (every write, group-committed), and a read-only one
// behind a mutex for the synchronous reads, which WAL lets run beside the writer. On
// ":memory:" there is only one connection: reads take the writer's batch lock instead.
// Threading: every method from any thread, except that nothing may wait on the writer from
// inside an append callback (create_match, update_match, flush).
#pragma once

#include <memory>
#include <mutex>
#include <optional>

#include "server/store/database.hpp"
#include "server/store/match_store.hpp"
#include "server/store/writer.hpp"

namespace castra::store {

// Runs inside the transaction that writes a match row as finished, after that write (the
// server rates the match there: server/ratings/rating_store.hpp). A failure fails the write.
using FinishedHook = std::function<Status(Db&, const MatchRow&)>;

struct StoreOptions {
  OpenOptions database;      // path (or ":memory:"), durability, busy timeout
  WriterOptions writer;      // queue bound and batch size
  FinishedHook on_finished;  // empty: nothing more is written at a match's end
};

class SqliteMatchStore final : public MatchStore, public MatchCounts {
 public:
  // Opens the database (applying migrations, refusing a damaged or newer one) and starts the
  // writer. On failure `*store` is left empty and the Status says why.
  static Status open(const StoreOptions& options, std::unique_ptr<SqliteMatchStore>* store);
  // Commits everything queued, then closes both connections.
  ~SqliteMatchStore() override;

  Status create_match(const MatchRow& row, const Secrets& secrets) override;
  Status update_match(const MatchRow& row) override;
  Status find_match(const std::string& id, std::optional<MatchRow>* row) override;
  Status list_matches(MatchStatus status, int limit, std::vector<MatchRow>* rows) override;
  Status matches_of_player(std::int64_t account, int limit, std::vector<MatchRow>* rows) override;

  void append(AppendRequest request, std::function<void(Status)> done) override;
  Status flush() override;

  Status replies_of(const std::string& match_id, std::vector<StoredReply>* replies) override;
  Status find_reply(const std::string& match_id, int side, std::int64_t client_seq,
                    std::optional<std::string>* reply) override;
  Status latest_snapshot(const std::string& match_id, std::optional<Snapshot>* snapshot) override;
  Status log_from(const std::string& match_id, std::uint32_t entry_index,
                  std::vector<LogRow>* rows) override;
  Status secrets(const std::string& match_id, std::optional<Secrets>* secrets) override;

  Status open_created_by(std::int64_t account, std::int64_t* count) override;
  Status by_status(std::array<std::int64_t, 4>* counts) override;

  // The database's one writer, for the server's other tables (accounts, sessions, chat), so
  // that every write in the process goes through it.
  Writer& writer() { return *writer_; }
  // Runs `work` on the read connection inside one read transaction (a consistent snapshot),
  // for the server's other tables too. `work` must not write.
  Status read(const std::function<Status(Db&)>& work);
  WriterStats writer_stats() const { return writer_->stats(); }
  int schema_version();

 private:
  SqliteMatchStore(Db write_db, std::optional<Db> read_db, FinishedHook on_finished);

  Db write_db_;
  std::optional<Db> read_db_;  // nullopt on ":memory:": reads use write_db_
  std::mutex read_mutex_;      // the read connection; on ":memory:" also the writer's batch lock
  const FinishedHook on_finished_;
  std::unique_ptr<Writer> writer_;  // last: stops (and commits) before the connections close
};

}  // namespace castra::store
