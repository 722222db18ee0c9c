// Opening Castra's database: the file, its pragmas (WAL, synchronous, busy timeout, foreign
// keys) and its migrations. Called at start-up by the thread that will own the connection.
#pragma once

#include <optional>
#include <string>

#include "server/store/sqlite.hpp"

namespace castra::store {

// FULL (the default) keeps every acknowledged command through a power loss; NORMAL keeps
// them through a crash of the server process only (docs/operations.md).
enum class Durability { kFull, kNormal };

struct OpenOptions {
  std::string path;  // a file, or ":memory:"
  Durability durability = Durability::kFull;
  int busy_timeout_ms = 5000;
};

// Opens or creates the database and applies every pending migration. A file that is not a
// SQLite database, is damaged, or comes from a newer Castra gives nullopt and a Status whose
// message says which; such a file is never written to.
std::optional<Db> open_database(const OpenOptions& options, Status* status);

}  // namespace castra::store
