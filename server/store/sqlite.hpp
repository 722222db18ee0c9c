// A thin RAII wrapper over SQLite's C API: a connection, prepared statements (cached per
// connection and reused), and transactions. No ORM. A Db and its statements belong to one
// thread at a time (the store's writer, or a reader holding its mutex): connections are
// opened NOMUTEX and Castra never uses one from two threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/store/status.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace castra::store {

class Statement;
class Lease;

// How Db::open opens a file. `vfs` empty: SQLite's default VFS.
struct DbFlags {
  bool create = true;
  bool read_only = false;
  std::string vfs;
};

class Db {
 public:
  // Opens (creating if asked) the database at `path`; ":memory:" for an in-memory one.
  static std::optional<Db> open(const std::string& path, bool create, Status* status);
  static std::optional<Db> open(const std::string& path, const DbFlags& flags, Status* status);
  Db(Db&& other) noexcept;
  Db& operator=(Db&& other) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  // Runs one or more statements that return no rows.
  Status exec(std::string_view sql);
  // Prepares one statement; on error the returned statement is invalid and `status` says why.
  Statement prepare(std::string_view sql, Status* status);
  // The statement for `sql`, prepared on first use and kept for reuse until the Db closes.
  // The lease resets it when it ends, so no finished query keeps a read transaction open.
  Lease statement(std::string_view sql, Status* status);
  // False while a transaction is open (SQLite may end one by itself after an I/O error).
  bool autocommit() const;
  std::int64_t last_insert_rowid() const;
  int changes() const;
  std::string error_message() const;
  sqlite3* handle() const { return db_; }

 private:
  explicit Db(sqlite3* db);
  void close();
  sqlite3* db_ = nullptr;
  // Behind a pointer so that moving a Db never moves a statement a Lease points to.
  std::unique_ptr<std::unordered_map<std::string, Statement>> cache_;
};

// A prepared statement. Bind indexes are 1-based, column indexes 0-based (as in SQLite).
class Statement {
 public:
  Statement() = default;
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  bool valid() const { return stmt_ != nullptr; }
  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, std::string_view text);
  Statement& bind_blob(int i, std::string_view bytes);
  Statement& bind_null(int i);
  Statement& bind_real(int i, double v);  // not bind(): an int would be ambiguous
  // Advances: true when a row is ready, false when done; errors land in `status`.
  bool step(Status* status);
  // Runs to completion, for statements that return no rows.
  Status run();
  void reset();

  std::int64_t column_int(int i) const;
  double column_real(int i) const;
  std::string column_text(int i) const;
  std::string column_blob(int i) const;
  bool column_is_null(int i) const;

 private:
  friend class Db;
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  sqlite3_stmt* stmt_ = nullptr;
};

// A statement borrowed from its Db's cache, reset with its bindings cleared when the lease
// ends. Invalid (and `status` says why) when the statement could not be prepared.
class Lease {
 public:
  Lease() = default;
  explicit Lease(Statement* stmt) : stmt_(stmt) {}
  Lease(Lease&& other) noexcept;
  Lease& operator=(Lease&& other) noexcept;
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  ~Lease();

  bool valid() const { return stmt_ != nullptr && stmt_->valid(); }
  Statement& operator*() const { return *stmt_; }
  Statement* operator->() const { return stmt_; }

 private:
  Statement* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() succeeded.
class Transaction {
 public:
  explicit Transaction(Db& db);
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();
  const Status& begun() const { return begun_; }
  Status commit();

 private:
  Db& db_;
  Status begun_;
  bool done_ = false;
};

}  // namespace castra::store
