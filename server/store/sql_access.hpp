// SqlAccess: how the service thread's own tables (accounts, sessions, chat) reach the
// database. In the server, writes go through the store's one writer (and share its group
// commits with the matches') and reads use the store's read connection; tests may use one
// plain connection. Synchronous; any thread but the store writer's.
#pragma once

#include <functional>
#include <mutex>

#include "server/store/sqlite.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra::store {

class SqlAccess {
 public:
  using Work = std::function<Status(Db&)>;
  virtual ~SqlAccess() = default;
  // Runs `work` in a write transaction and waits for its commit. A failing `work` is rolled
  // back.
  virtual Status write(const Work& work) = 0;
  // Runs `work` on a consistent snapshot; `work` must not write.
  virtual Status read(const Work& work) = 0;
};

// Through a SqliteMatchStore's writer and read connection.
class StoreSqlAccess final : public SqlAccess {
 public:
  explicit StoreSqlAccess(SqliteMatchStore& store) : store_(store) {}
  Status write(const Work& work) override;
  Status read(const Work& work) override;

 private:
  SqliteMatchStore& store_;
};

// Over one connection, with a savepoint per write (tests).
class DirectSqlAccess final : public SqlAccess {
 public:
  explicit DirectSqlAccess(Db& db) : db_(db) {}
  Status write(const Work& work) override;
  Status read(const Work& work) override;

 private:
  std::mutex mutex_;
  Db& db_;
};

}  // namespace castra::store
