// SqlAccess: how the service thread's own tables (accounts, sessions, chat) reach the
// database. In the server, writes go through the store's one writer (and share its group
// commits with the matches') and reads use the store's read connection; tests may use one
// plain connection. Synchronous; any thread but the store writer's.
#pragma once

#include <functional>
#include <mutex>

#include "server/store/sqlite.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra::server {

class SqlAccess {
 public:
  using Work = std::function<store::Status(store::Db&)>;
  virtual ~SqlAccess() = default;
  // Runs `work` in a write transaction and waits for its commit. A failing `work` is rolled
  // back.
  virtual store::Status write(const Work& work) = 0;
  // Runs `work` on a consistent snapshot; `work` must not write.
  virtual store::Status read(const Work& work) = 0;
};

// Through a SqliteMatchStore's writer and read connection.
class StoreSqlAccess final : public SqlAccess {
 public:
  explicit StoreSqlAccess(store::SqliteMatchStore& store) : store_(store) {}
  store::Status write(const Work& work) override;
  store::Status read(const Work& work) override;

 private:
  store::SqliteMatchStore& store_;
};

// Over one connection, with a savepoint per write (tests).
class DirectSqlAccess final : public SqlAccess {
 public:
  explicit DirectSqlAccess(store::Db& db) : db_(db) {}
  store::Status write(const Work& work) override;
  store::Status read(const Work& work) override;

 private:
  std::mutex mutex_;
  store::Db& db_;
};

}  // namespace castra::server
