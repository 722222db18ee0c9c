#include "server/postgres/pg.hpp"

#include <sodium.h>

#include <map>

namespace pqxx {
// Lets exec_params take a nullable text value: nullopt is SQL NULL.
template <>
struct string_traits<std::optional<std::string>> {
  static constexpr const char* name() noexcept { return "std::optional<std::string>"; }
  static constexpr bool has_null() noexcept { return true; }
  static bool is_null(const std::optional<std::string>& v) { return !v; }
  static std::optional<std::string> null() { return std::nullopt; }
  static void from_string(const char* text, std::optional<std::string>& v) { v = text; }
  static std::string to_string(const std::optional<std::string>& v) { return *v; }
};
}  // namespace pqxx

namespace castra::postgres {

using store::Status;
namespace codes = store::status_codes;

namespace {

// Any number: the lock only keeps two nodes from migrating the same database at once.
constexpr std::int64_t kMigrationLock = 0x63617374726100;

std::string sha256_hex(const std::string& text) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  char hex[crypto_hash_sha256_BYTES * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

std::string hex_bytea(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "\\x";
  out.reserve(2 + bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace

Status guarded(const std::function<Status()>& work) {
  try {
    return work();
  } catch (const pqxx::integrity_constraint_violation& e) {
    return Status{codes::kConstraint, e.what()};
  } catch (const pqxx::broken_connection& e) {
    return Status{codes::kIoError, e.what()};
  } catch (const pqxx::in_doubt_error& e) {
    return Status{codes::kIoError, e.what()};
  } catch (const std::exception& e) {
    return Status{codes::kError, e.what()};
  }
}

std::unique_ptr<pqxx::connection> connect(const std::string& url, Status* status) {
  std::unique_ptr<pqxx::connection> connection;
  *status = guarded([&] {
    connection = std::make_unique<pqxx::connection>(url);
    // libpqxx 6 would otherwise reconnect by itself at a transaction's BEGIN, without the
    // settings below (durability among them) and unseen: a lost connection is the caller's to
    // make again (pg_session.hpp). Deprecated only because libpqxx 7 no longer reactivates.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    connection->inhibit_reactivation(true);
#pragma GCC diagnostic pop
    // The session's default may have been lowered by an operator: Castra acknowledges only
    // what a committed, flushed transaction holds (docs/operations.md).
    pqxx::nontransaction tx(*connection);
    tx.exec("SET synchronous_commit = on");
    tx.exec("SET client_min_messages = warning");
    return Status::success();
  });
  if (!status->ok()) connection.reset();
  return connection;
}

int schema_version(pqxx::connection& connection, Status* status) {
  int version = 0;
  *status = guarded([&] {
    pqxx::read_transaction tx(connection);
    const pqxx::result exists = tx.exec("SELECT to_regclass('schema_migrations') IS NOT NULL");
    if (!exists[0][0].as<bool>()) return Status::success();
    version = tx.exec("SELECT coalesce(max(number), 0) FROM schema_migrations")[0][0].as<int>();
    return Status::success();
  });
  return version;
}

Status migrate(pqxx::connection& connection) {
  const std::vector<store::Migration>& migrations = embedded_postgresql_migrations();
  // A session lock, taken and given back in statements of their own: it outlives them.
  const auto session = [&](const std::string& sql) {
    pqxx::nontransaction tx(connection);
    tx.exec(sql);
  };
  return guarded([&] {
    session("SELECT pg_advisory_lock(" + std::to_string(kMigrationLock) + ")");
    Status outcome = guarded([&] {
      {
        pqxx::work tx(connection);
        tx.exec(
            "CREATE TABLE IF NOT EXISTS schema_migrations (number BIGINT PRIMARY KEY, "
            "name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL "
            "DEFAULT now())");
        tx.commit();
      }
      std::map<int, std::string> recorded;
      {
        pqxx::read_transaction tx(connection);
        for (const auto& row : tx.exec("SELECT number, checksum FROM schema_migrations")) {
          recorded[row[0].as<int>()] = row[1].as<std::string>();
        }
      }
      std::map<int, const store::Migration*> known;
      for (const store::Migration& m : migrations)
        known[m.number] = &m;
      for (const auto& [number, checksum] : recorded) {
        const auto it = known.find(number);
        if (it == known.end()) {
          return Status{codes::kError, "the database has migration " + std::to_string(number) +
                                           ", which this castra-server does not know: it was "
                                           "written by a newer Castra"};
        }
        if (sha256_hex(it->second->sql) != checksum) {
          return Status{codes::kError, "migration " + it->second->name +
                                           " differs from the one applied to this database"};
        }
      }
      for (const store::Migration& m : migrations) {
        if (recorded.count(m.number) != 0) continue;
        pqxx::work tx(connection);
        tx.exec(m.sql);
        Params()
            .integer(m.number)
            .text(m.name)
            .text(sha256_hex(m.sql))
            .run(tx, "INSERT INTO schema_migrations(number, name, checksum) VALUES ($1, $2, $3)");
        tx.commit();
      }
      return Status::success();
    });
    session("SELECT pg_advisory_unlock(" + std::to_string(kMigrationLock) + ")");
    return outcome;
  });
}

Params& Params::text(const std::string& value) {
  values_.emplace_back(value);
  return *this;
}

Params& Params::integer(std::int64_t value) {
  values_.emplace_back(std::to_string(value));
  return *this;
}

Params& Params::real(double value) {
  values_.emplace_back(pqxx::to_string(value));
  return *this;
}

Params& Params::bytes(const std::string& value) {
  values_.emplace_back(hex_bytea(value));
  return *this;
}

Params& Params::null() {
  values_.emplace_back(std::nullopt);
  return *this;
}

Params& Params::limit(std::int64_t value) {
  return value < 0 ? null() : integer(value);
}

Params& Params::optional_integer(const std::optional<std::int64_t>& value) {
  return value ? integer(*value) : null();
}

Params& Params::optional_bytes(const std::optional<std::string>& value) {
  return value ? bytes(*value) : null();
}

pqxx::result Params::run(pqxx::transaction_base& tx, const std::string& sql) const {
  return tx.exec_params(sql, pqxx::prepare::make_dynamic_params(values_));
}

std::string bytes_of(const pqxx::field& field) {
  return pqxx::binarystring(field).str();
}

std::optional<std::string> optional_bytes_of(const pqxx::field& field) {
  if (field.is_null()) return std::nullopt;
  return bytes_of(field);
}

std::optional<std::int64_t> optional_integer_of(const pqxx::field& field) {
  if (field.is_null()) return std::nullopt;
  return field.as<std::int64_t>();
}

}  // namespace castra::postgres
