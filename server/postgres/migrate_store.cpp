#include "server/postgres/migrate_store.hpp"

#include <filesystem>
#include <optional>
#include <vector>

#include "server/postgres/pg.hpp"
#include "server/store/database.hpp"

namespace castra::postgres {

using store::Status;

namespace {

// How a column's value is carried: integer, real, text or bytes (bytea).
enum class Kind { kInteger, kReal, kText, kBytes };

struct Column {
  const char* name;
  Kind kind;
};

struct Table {
  const char* name;
  std::vector<Column> columns;
};

constexpr Kind I = Kind::kInteger;
constexpr Kind R = Kind::kReal;
constexpr Kind T = Kind::kText;
constexpr Kind B = Kind::kBytes;

// Every table of migrations/0001..0008 but server_meta (the new database keeps its own
// creation time), parents before the tables that refer to them.
const std::vector<Table>& tables() {
  static const std::vector<Table> kTables = {
      {"accounts",
       {{"id", I},
        {"name", T},
        {"name_key", T},
        {"password_hash", T},
        {"created_ms", I},
        {"failed_logins", I},
        {"locked_until_ms", I},
        {"banned", I},
        {"ban_reason", T}}},
      {"sessions",
       {{"token_hash", B},
        {"account_id", I},
        {"created_ms", I},
        {"expires_ms", I},
        {"last_used_ms", I}}},
      {"matches",
       {{"id", T},
        {"ruleset", T},
        {"rules_version", T},
        {"scenario_name", T},
        {"scenario", B},
        {"settings", B},
        {"status", T},
        {"dice_commitment", B},
        {"creator", I},
        {"player_a", I},
        {"player_b", I},
        {"to_act", T},
        {"deadline_a_ms", I},
        {"deadline_b_ms", I},
        {"outcome", B},
        {"created_ms", I},
        {"updated_ms", I}}},
      {"match_secrets", {{"match_id", T}, {"server_seed", B}, {"entropy_a", B}, {"entropy_b", B}}},
      {"match_log",
       {{"match_id", T},
        {"entry_index", I},
        {"kind", I},
        {"side", I},
        {"first_event", I},
        {"event_count", I},
        {"entry", B}}},
      {"match_seal_salts", {{"match_id", T}, {"entry_index", I}, {"event_index", I}, {"salt", B}}},
      {"match_snapshots",
       {{"match_id", T}, {"entry_count", I}, {"event_count", I}, {"state", B}, {"state_hash", B}}},
      {"command_replies",
       {{"match_id", T}, {"side", I}, {"client_seq", I}, {"entry_index", I}, {"reply", B}}},
      {"chat_messages",
       {{"id", I},
        {"match_id", T},
        {"channel", I},
        {"author_id", I},
        {"author", T},
        {"body", T},
        {"sent_ms", I}}},
      {"chat_mutes", {{"match_id", T}, {"account_id", I}, {"muted_key", T}}},
      {"campaigns",
       {{"id", T},
        {"definition", T},
        {"ruleset", T},
        {"status", T},
        {"creator", I},
        {"player_a", I},
        {"player_b", I},
        {"battle_match_id", T},
        {"is_private", I},
        {"vacancy", I},
        {"state", B},
        {"created_ms", I},
        {"updated_ms", I}}},
      {"notification_targets",
       {{"account_id", I}, {"webhook_url", T}, {"email", T}, {"updated_ms", I}}},
      {"ratings",
       {{"account_id", I},
        {"ruleset", T},
        {"rating", R},
        {"deviation", R},
        {"volatility", R},
        {"games", I},
        {"updated_ms", I}}},
      {"rated_matches",
       {{"match_id", T},
        {"ruleset", T},
        {"player_a", I},
        {"player_b", I},
        {"score_a", R},
        {"rating_a", R},
        {"rating_b", R},
        {"new_rating_a", R},
        {"new_rating_b", R},
        {"rated_ms", I}}},
  };
  return kTables;
}

// Copies one table; the rows moved.
Status copy_table(store::Db& from, pqxx::transaction_base& to, const Table& table,
                  std::int64_t* rows) {
  std::string names, placeholders;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    names += (i ? ", " : "") + std::string(table.columns[i].name);
    placeholders += (i ? ", $" : "$") + std::to_string(i + 1);
  }
  const std::string insert =
      "INSERT INTO " + std::string(table.name) + "(" + names + ") VALUES (" + placeholders + ")";
  Status s;
  store::Statement q = from.prepare("SELECT " + names + " FROM " + table.name, &s);
  if (!s.ok()) return s;
  *rows = 0;
  while (q.step(&s)) {
    Params p;
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      const int c = static_cast<int>(i);
      if (q.column_is_null(c)) {
        p.null();
        continue;
      }
      switch (table.columns[i].kind) {
        case Kind::kInteger:
          p.integer(q.column_int(c));
          break;
        case Kind::kReal:
          p.real(q.column_real(c));
          break;
        case Kind::kText:
          p.text(q.column_text(c));
          break;
        case Kind::kBytes:
          p.bytes(q.column_blob(c));
          break;
      }
    }
    p.run(to, insert);
    ++*rows;
  }
  return s;
}

}  // namespace

Status migrate_store(const std::string& from, const std::string& to, MigrationReport* report) {
  std::error_code ec;
  const std::string path = std::filesystem::is_directory(from, ec)
                               ? (std::filesystem::path(from) / "castra.db").string()
                               : from;
  if (!std::filesystem::exists(path, ec)) {
    return Status{store::status_codes::kError, "there is no SQLite database at " + path};
  }
  Status s;
  std::optional<store::Db> source = store::open_database_read_only(path, 5000, &s);
  if (!source) return s;
  std::unique_ptr<pqxx::connection> target = connect(to, &s);
  if (!target) return s;
  if (s = migrate(*target); !s.ok()) return s;
  return guarded([&] {
    // One snapshot of the source, one transaction on the target.
    if (Status b = source->exec("BEGIN"); !b.ok()) return b;
    pqxx::work tx(*target);
    const std::int64_t present =
        tx.exec(
              "SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM matches) + "
              "(SELECT count(*) FROM campaigns)")[0][0]
            .as<std::int64_t>();
    if (present != 0) {
      source->exec("COMMIT");
      return Status{store::status_codes::kError,
                    "the PostgreSQL database already holds Castra data: --migrate-store moves "
                    "an installation into an empty one"};
    }
    for (const Table& table : tables()) {
      std::int64_t rows = 0;
      if (Status c = copy_table(*source, tx, table, &rows); !c.ok()) {
        source->exec("COMMIT");
        return c;
      }
      report->rows[table.name] = rows;
    }
    // The ids the database hands out next start after the moved ones.
    for (const char* table : {"accounts", "chat_messages"}) {
      tx.exec(std::string("SELECT setval(pg_get_serial_sequence('") + table +
              "', 'id'), coalesce(max(id), 0) + 1, false) FROM " + table);
    }
    source->exec("COMMIT");
    tx.commit();
    return Status::success();
  });
}

}  // namespace castra::postgres
