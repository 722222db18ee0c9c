#include "server/store/database.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <string>

#include "server/store/checksum_vfs.hpp"
#include "server/store/migrations.hpp"

namespace castra::store {

namespace {

constexpr const char* kNotWritten =
    "; the file was not opened for use and nothing was written to it; restore the latest "
    "backup (docs/operations.md, section Backup and restore)";

Status with_context(const std::string& path, Status s) {
  s.message = "database " + path + ": " + s.message;
  return s;
}

// Says in words what a failed read of a damaged file means.
Status damage(Status s) {
  const int primary = s.code & 0xff;
  if (s.code == SQLITE_IOERR_DATA) {
    const std::int64_t page = last_damaged_page();
    s.message = "the file is damaged: " +
                (page > 0 ? "page " + std::to_string(page) : std::string("a page")) +
                " does not match its checksum" + kNotWritten;
  } else if (primary == SQLITE_CORRUPT) {
    s.message = "the file is damaged (" + s.message + ")" + kNotWritten;
  } else if (primary == SQLITE_NOTADB) {
    s.message =
        "the file is not a SQLite database, or its header is damaged" + std::string(kNotWritten);
  }
  return s;
}

// quick_check's words for a page our VFS refused ("unable to get the page. error code=8202").
std::string explain(std::string line) {
  const std::string refused =
      ": unable to get the page. error code=" + std::to_string(SQLITE_IOERR_DATA);
  if (auto at = line.find(refused); at != std::string::npos) {
    line.replace(at, refused.size(), " does not match its checksum");
    if (line.rfind("Page ", 0) == 0) line[0] = 'p';
  }
  return line;
}

// Reads every page in use (checking each page's checksum on the way) and the b-tree structure.
// Runs before anything may write, so a damaged file is reported, never "repaired".
Status check_damage(Db& db) {
  Status s;
  Statement check = db.prepare("PRAGMA quick_check(4)", &s);
  if (!s.ok()) return damage(s);
  std::string problems;
  while (check.step(&s)) {
    std::string line = check.column_text(0);
    if (line == "ok") continue;
    if (line.rfind("*** in database", 0) == 0) line.erase(0, line.find('\n') + 1);
    problems += (problems.empty() ? "" : "; ") + explain(line);
  }
  if (!s.ok()) return damage(s);
  if (!problems.empty()) {
    return Status{SQLITE_CORRUPT, "the file is damaged (" + problems + ")" + kNotWritten};
  }
  return Status::success();
}

int count_pages(Db& db, Status* status) {
  Statement q = db.prepare("PRAGMA page_count", status);
  if (!status->ok()) return 0;
  return q.step(status) ? static_cast<int>(q.column_int(0)) : 0;
}

// A new file reserves kChecksumBytes per page before its first page is written. A file made
// before Castra kept checksums is rewritten once by VACUUM (its integrity was checked first).
Status ensure_page_checksums(Db& db, const std::string& path) {
  Status s;
  const int pages = count_pages(db, &s);
  if (!s.ok()) return s;
  int reserve = -1;  // negative: only read the current value
  int rc = sqlite3_file_control(db.handle(), "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
  if (rc != SQLITE_OK) return Status{rc, "cannot read the reserved bytes per page"};
  if (reserve == kChecksumBytes) return Status::success();
  int wanted = kChecksumBytes;
  rc = sqlite3_file_control(db.handle(), "main", SQLITE_FCNTL_RESERVE_BYTES, &wanted);
  if (rc != SQLITE_OK) return Status{rc, "cannot reserve bytes per page for checksums"};
  if (pages == 0) return Status::success();
  spdlog::warn(
      "event=database_checksums_added path={} pages={} reason=\"a file made before page "
      "checksums is rewritten once with VACUUM\"",
      path, pages);
  return db.exec("VACUUM");
}

}  // namespace

std::optional<Db> open_database(const OpenOptions& options, Status* status) {
  const bool memory = options.path == ":memory:";
  DbFlags flags;
  if (!memory) {
    if (Status s = register_checksum_vfs(); !s.ok()) {
      *status = with_context(options.path, s);
      return std::nullopt;
    }
    flags.vfs = kChecksumVfs;
  }
  std::optional<Db> db = Db::open(options.path, flags, status);
  if (!db) {
    *status = with_context(options.path, *status);
    return std::nullopt;
  }
  // busy_timeout first: another connection (a backup, a reader) must not make us fail at once.
  if (Status s = db->exec("PRAGMA busy_timeout=" + std::to_string(options.busy_timeout_ms));
      !s.ok()) {
    *status = with_context(options.path, s);
    return std::nullopt;
  }
  if (Status s = check_damage(*db); !s.ok()) {
    *status = with_context(options.path, s);
    return std::nullopt;
  }
  if (!memory) {
    if (Status s = ensure_page_checksums(*db, options.path); !s.ok()) {
      *status = with_context(options.path, s);
      return std::nullopt;
    }
    Status s;
    Statement wal = db->prepare("PRAGMA journal_mode=WAL", &s);
    if (s.ok() && wal.step(&s) && wal.column_text(0) != "wal") {
      s = Status{SQLITE_ERROR,
                 "cannot switch to WAL mode (journal mode stays " + wal.column_text(0) + ")"};
    }
    if (!s.ok()) {
      *status = with_context(options.path, s);
      return std::nullopt;
    }
  }
  const std::string pragmas = std::string("PRAGMA synchronous=") +
                              (options.durability == Durability::kFull ? "FULL" : "NORMAL") +
                              ";PRAGMA foreign_keys=ON;";
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

std::optional<Db> open_database_read_only(const std::string& path, int busy_timeout_ms,
                                          Status* status) {
  if (Status s = register_checksum_vfs(); !s.ok()) {
    *status = with_context(path, s);
    return std::nullopt;
  }
  DbFlags flags;
  flags.create = false;
  flags.read_only = true;
  flags.vfs = kChecksumVfs;
  std::optional<Db> db = Db::open(path, flags, status);
  if (!db) {
    *status = with_context(path, *status);
    return std::nullopt;
  }
  if (Status s = db->exec("PRAGMA busy_timeout=" + std::to_string(busy_timeout_ms)); !s.ok()) {
    *status = with_context(path, s);
    return std::nullopt;
  }
  *status = Status::success();
  return db;
}

}  // namespace castra::store
