// Opening Castra's database: the file, its pragmas (WAL, synchronous, busy timeout, foreign
// keys), its page checksums (checksum_vfs.hpp) and its migrations. Called by the thread that
// will own the connection (at start-up, or by the store for its writer and reader).
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

// Opens or creates the database and applies every pending migration. Every page in use is
// read and checked first: a file that is not a SQLite database, is damaged (a page that does
// not match its checksum, a truncated file, a broken b-tree), or comes from a newer Castra
// gives nullopt and a Status whose message says which; such a file is never written to.
// Files are opened through the checksum VFS; ":memory:" is a fresh in-memory database.
std::optional<Db> open_database(const OpenOptions& options, Status* status);

// Opens an existing database file read-only, through the checksum VFS, without migrating:
// for the store's reader connection and for `castra-server --backup` (another process may be
// writing; WAL gives this connection a consistent snapshot per read transaction).
std::optional<Db> open_database_read_only(const std::string& path, int busy_timeout_ms,
                                          Status* status);

}  // namespace castra::store
