// Schema migrations: the numbered files of migrations/ (embedded into the binary at build
// time), applied in order at start-up, each inside its own transaction, and recorded in
// table schema_migrations with a checksum. Called once at start-up, before any other use.
#pragma once

#include <string>
#include <vector>

#include "server/store/sqlite.hpp"

namespace castra::store {

struct Migration {
  int number = 0;    // NNNN of migrations/NNNN_name.sql
  std::string name;  // the file name
  std::string sql;
};

// The migrations compiled into this binary, in order (generated from migrations/*.sql).
const std::vector<Migration>& embedded_migrations();

// Applies every migration not yet recorded. Refuses, with a message saying so, a database
// whose recorded migrations this binary does not know (a newer Castra) or whose recorded
// checksum differs from the file (an applied migration was edited).
Status migrate(Db& db, const std::vector<Migration>& migrations);

// The highest migration number recorded in the database, 0 for a new one.
int schema_version(Db& db);

}  // namespace castra::store
