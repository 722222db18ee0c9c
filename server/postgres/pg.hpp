// The PostgreSQL store's own vocabulary over libpqxx: opening a connection (with
// synchronous_commit=on, so a committed transaction is durable before anything is
// acknowledged), the migrations of migrations/postgresql/, parameters that may be null or
// bytes, reading bytea back, and turning libpqxx's exceptions into a store::Status at the one
// place each call is made (no exception leaves server/postgres/). A connection belongs to one
// thread at a time, like a SQLite Db.
#pragma once

#include <pqxx/pqxx>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/store/migrations.hpp"
#include "server/store/status.hpp"

namespace castra::postgres {

// The migrations compiled into this binary from migrations/postgresql/*.sql, in order.
const std::vector<store::Migration>& embedded_postgresql_migrations();

// Opens a connection to `url` (postgresql://...) with synchronous_commit=on and libpqxx's
// automatic reconnection off (a lost connection stays lost; PgSession makes it again); nullptr and
// a Status saying why when the server cannot be reached.
std::unique_ptr<pqxx::connection> connect(const std::string& url, store::Status* status);

// Applies every migration not yet recorded in schema_migrations, each in its own
// transaction; refuses a database with migrations this binary does not know or whose checksum
// differs. Takes an advisory lock first, so nodes starting together migrate once.
store::Status migrate(pqxx::connection& connection);
// The highest migration recorded, 0 for a new database.
int schema_version(pqxx::connection& connection, store::Status* status);

// Runs `work` and turns whatever libpqxx throws into a Status: a unique or foreign key
// violation is status_codes::kConstraint, a lost connection kIoError, anything else kError.
store::Status guarded(const std::function<store::Status()>& work);

// Positional parameters ($1, $2...) for exec_params: text, integers, bytes (sent as bytea
// hex text), or null.
class Params {
 public:
  Params& text(const std::string& value);
  Params& integer(std::int64_t value);
  Params& real(double value);
  Params& bytes(const std::string& value);
  Params& null();
  // A LIMIT's value: a negative one is NULL, no limit, as SQLite reads LIMIT -1.
  Params& limit(std::int64_t value);
  Params& optional_integer(const std::optional<std::int64_t>& value);
  Params& optional_bytes(const std::optional<std::string>& value);
  pqxx::result run(pqxx::transaction_base& tx, const std::string& sql) const;

 private:
  std::vector<std::optional<std::string>> values_;
};

// A bytea column's bytes; a text or integer column as its C++ value; nullopt for NULL.
std::string bytes_of(const pqxx::field& field);
std::optional<std::string> optional_bytes_of(const pqxx::field& field);
std::optional<std::int64_t> optional_integer_of(const pqxx::field& field);

}  // namespace castra::postgres
