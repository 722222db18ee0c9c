// Status: the outcome of a call to a store, whichever database is behind it: ok, or a code and
// a message. A Status that is not ok is a storage failure and stays one up to the protocol's
// edge (server/lobby/shared.hpp: storage_failure). Codes are SQLite's result codes, so the
// SQLite store passes its own through unchanged; the PostgreSQL store maps its errors onto
// the few that callers test (status_codes below). Any thread.
#pragma once

#include <string>

namespace castra::store {

struct Status {
  int code = 0;  // SQLITE_OK
  std::string message;
  bool ok() const { return code == 0; }
  static Status success() { return {}; }
};

// The codes a store outside SQLite gives, numbered as SQLite's (sqlite3.h) for the same meaning.
namespace status_codes {
inline constexpr int kError = 1;  // SQLITE_ERROR: a statement failed
// SQLITE_PERM: a cluster's node appended to a match whose lease it no longer holds (another
// node took it over); nothing was written (server/postgres/pg_leases.hpp).
inline constexpr int kFenced = 3;
inline constexpr int kBusy = 5;         // SQLITE_BUSY: the writer's queue is full (sql_access.hpp)
inline constexpr int kIoError = 10;     // SQLITE_IOERR: the database could not be reached
inline constexpr int kNotFound = 12;    // SQLITE_NOTFOUND: the row to change does not exist
inline constexpr int kConstraint = 19;  // SQLITE_CONSTRAINT: a key or reference was refused
}  // namespace status_codes

// The outcome of a write the writer's full queue refused (nothing was written): overload, to
// be answered "busy, retry", never a storage failure.
inline Status queue_full() {
  return Status{status_codes::kBusy, "the store's writer queue is full"};
}
inline bool is_queue_full(const Status& status) {
  return status.code == status_codes::kBusy;
}

// The append was refused because this node no longer owns the match: the match has moved to
// another node, which answers for it (ERROR_MATCH_ELSEWHERE), never a storage failure to log.
inline bool is_fenced(const Status& status) {
  return status.code == status_codes::kFenced;
}

}  // namespace castra::store
