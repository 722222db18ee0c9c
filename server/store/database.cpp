#include "server/store/database.hpp"

#include <string>

#include "server/store/migrations.hpp"

namespace castra::store {

namespace {
Status with_context(const std::string& path, Status s) {
  s.message = "database " + path + ": " + s.message;
  return s;
}
}  // namespace

std::optional<Db> open_database(const OpenOptions& options, Status* status) {
  std::optional<Db> db = Db::open(options.path, /*create=*/true, status);
  if (!db) {
    *status = with_context(options.path, *status);
    return std::nullopt;
  }
  // quick_check before anything writes: a damaged file is reported, never "repaired".
  {
    Status s;
    Statement check = db->prepare("PRAGMA quick_check", &s);
    if (s.ok() && check.step(&s) && check.column_text(0) != "ok") {
      s = Status{11, "integrity check failed: " + check.column_text(0)};
    }
    if (!s.ok()) {
      *status = with_context(options.path, s);
      return std::nullopt;
    }
  }
  const std::string pragmas =
      std::string(options.path == ":memory:" ? "" : "PRAGMA journal_mode=WAL;") +
      "PRAGMA synchronous=" + (options.durability == Durability::kFull ? "FULL" : "NORMAL") +
      ";PRAGMA foreign_keys=ON;PRAGMA busy_timeout=" + std::to_string(options.busy_timeout_ms) +
      ";";
  if (Status s = db->exec(pragmas); !s.ok()) {
    *status = with_context(options.path, s);
    return std::nullopt;
  }
  if (Status s = migrate(*db, embedded_migrations()); !s.ok()) {
    *status = with_context(options.path, s);
    return std::nullopt;
  }
  *status = Status::success();
  return db;
}

}  // namespace castra::store
