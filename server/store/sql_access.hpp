// SqlAccess: how the service thread's own tables (accounts, sessions, chat) reach the
// database. A write is a job for the store's one writer (sharing its group commits with the
// matches'), answered after its commit on the caller's thread: the caller never waits for a
// disk. Reads are synchronous, on the store's read connection (no fsync). Tests may use one
// plain connection (DirectSqlAccess). write() from one thread (the service thread); read() from
// any thread but the store writer's (both implementations take a mutex for it: the notifier's
// worker reads the accounts' reminder targets).
#pragma once

#include <functional>
#include <mutex>

#include "server/store/sqlite.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra::store {

class SqlAccess {
 public:
  using Work = std::function<Status(Db&)>;
  using Done = std::function<void(Status)>;
  using Post = std::function<void(std::function<void()>)>;
  virtual ~SqlAccess() = default;
  // Runs `work` in a write transaction; `done` gets the outcome once it is committed (a
  // failing `work` is rolled back alone), or queue_full() when the writer has no room.
  virtual void write(Work work, Done done) = 0;
  // Runs `work` on a consistent snapshot; `work` must not write.
  virtual Status read(const Work& work) = 0;
};

// Through a SqliteMatchStore's writer and read connection; `post` takes `done` back to the
// caller's thread (the service queue's post).
class StoreSqlAccess final : public SqlAccess {
 public:
  StoreSqlAccess(SqliteMatchStore& store, Post post) : store_(store), post_(std::move(post)) {}
  void write(Work work, Done done) override;
  Status read(const Work& work) override;

 private:
  SqliteMatchStore& store_;
  Post post_;
};

// Over one connection, with a savepoint per write, `done` called at once (tests).
class DirectSqlAccess final : public SqlAccess {
 public:
  explicit DirectSqlAccess(Db& db) : db_(db) {}
  void write(Work work, Done done) override;
  Status read(const Work& work) override;

 private:
  std::mutex mutex_;
  Db& db_;
};

}  // namespace castra::store
