#include "server/store/backup.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <system_error>
#include <thread>

#include "server/store/checksum_vfs.hpp"
#include "server/store/database.hpp"

namespace castra::store {

namespace {

namespace fs = std::filesystem;

Status fsync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) return Status{SQLITE_IOERR, "cannot open " + path + " to sync it"};
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Status{SQLITE_IOERR_FSYNC, "cannot sync " + path};
  return Status::success();
}

// Copies every page in one step: one read transaction on the source, hence one snapshot.
Status copy_pages(Db& source, Db& target, BackupResult* result) {
  sqlite3_backup* backup = sqlite3_backup_init(target.handle(), "main", source.handle(), "main");
  if (backup == nullptr) return Status{sqlite3_errcode(target.handle()), target.error_message()};
  int rc = SQLITE_OK;
  for (int attempt = 0; attempt < 50; ++attempt) {
    rc = sqlite3_backup_step(backup, -1);
    if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  result->pages = sqlite3_backup_pagecount(backup);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) {
    Status s{rc, sqlite3_errstr(rc)};
    if (rc == SQLITE_IOERR_DATA) {
      s.message = "the source is damaged: page " + std::to_string(last_damaged_page()) +
                  " does not match its checksum";
    }
    return s;
  }
  return Status::success();
}

Status check_copy(Db& copy) {
  Status s;
  Statement check = copy.prepare("PRAGMA quick_check", &s);
  if (s.ok() && check.step(&s) && check.column_text(0) != "ok") {
    return Status{SQLITE_CORRUPT, "the copy fails its integrity check: " + check.column_text(0)};
  }
  return s;
}

}  // namespace

Status backup_database(const std::string& source, const std::string& destination,
                       BackupResult* result, int busy_timeout_ms) {
  *result = BackupResult{};
  std::error_code ec;
  if (!fs::exists(source, ec)) return Status{SQLITE_CANTOPEN, "there is no database at " + source};
  if (fs::exists(destination, ec) && fs::equivalent(source, destination, ec)) {
    return Status{SQLITE_MISUSE, "the backup would overwrite the database it copies"};
  }
  const std::string partial = destination + ".partial";
  fs::remove(partial, ec);

  Status s;
  std::optional<Db> from = open_database_read_only(source, busy_timeout_ms, &s);
  if (!from) return s;
  {
    // SQLite's own VFS writes the copy: the backup may spill any page to the file before
    // page 1, whose header says whether pages carry checksums. They are added once it is
    // complete and closed, then every page is read back through the checksum VFS.
    std::optional<Db> to = Db::open(partial, true, &s);
    if (!to) return Status{s.code, "cannot create " + partial + ": " + s.message};
    s = copy_pages(*from, *to, result);
    // A backup is one self-contained file: no WAL beside it.
    if (s.ok()) s = to->exec("PRAGMA journal_mode=DELETE");
  }
  if (s.ok()) s = add_page_checksums(partial);
  if (s.ok()) {
    std::optional<Db> copy = open_database_read_only(partial, busy_timeout_ms, &s);
    if (copy) s = check_copy(*copy);
  }
  if (s.ok()) s = fsync_path(partial, false);
  if (!s.ok()) {
    fs::remove(partial, ec);
    return Status{s.code, "backup of " + source + " failed: " + s.message};
  }
  fs::rename(partial, destination, ec);
  if (ec) {
    fs::remove(partial, ec);
    return Status{SQLITE_IOERR, "cannot rename " + partial + " to " + destination};
  }
  const fs::path parent = fs::absolute(destination, ec).parent_path();
  if (s = fsync_path(parent.string(), true); !s.ok()) return s;
  result->bytes = static_cast<std::int64_t>(fs::file_size(destination, ec));
  return Status::success();
}

}  // namespace castra::store
