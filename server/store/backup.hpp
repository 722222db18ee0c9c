// Online backup (docs/operations.md, "Backup and restore"): a consistent copy of a database
// that a running server may be writing, taken through SQLite's backup API from a read-only
// connection in one read transaction (WAL gives it a fixed snapshot and never blocks the
// writer). The copy is written beside its destination, checked, synced, then renamed into
// place. Any thread; it uses its own connections.
#pragma once

#include <cstdint>
#include <string>

#include "server/store/sqlite.hpp"

namespace castra::store {

struct BackupResult {
  std::int64_t pages = 0;
  std::int64_t bytes = 0;
};

// Copies the database at `source` to `destination` (replaced only once the new copy is
// complete and passes an integrity check). Refuses a missing or damaged source, and a
// destination that is the source itself.
Status backup_database(const std::string& source, const std::string& destination,
                       BackupResult* result, int busy_timeout_ms = 5000);

}  // namespace castra::store
