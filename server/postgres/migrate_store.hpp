// castra-server --migrate-store FROM TO: moves an SQLite installation (its castra.db) into an
// empty PostgreSQL database, every table row for row with its ids, in one PostgreSQL
// transaction: all of it arrives or none. The SQLite file is opened read-only through the
// checksum VFS (a damaged file is refused before anything is written) and is left as it was.
// Run with the server stopped (a running server's later writes would not be moved). Called
// from main's thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "server/store/status.hpp"

namespace castra::postgres {

struct MigrationReport {
  std::map<std::string, std::int64_t> rows;  // table -> rows moved
};

// FROM: a castra.db file or the data directory holding one; TO: a postgresql:// URL of a
// database without Castra data (its schema is created or brought up to date first).
store::Status migrate_store(const std::string& from, const std::string& to,
                            MigrationReport* report);

}  // namespace castra::postgres
