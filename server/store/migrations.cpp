#include "server/store/migrations.hpp"

#include <sodium.h>

#include <map>
#include <string>

namespace castra::store {

namespace {

constexpr const char* kCreateTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " number INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " checksum TEXT NOT NULL,"
    " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))";

std::string sha256_hex(const std::string& text) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  char hex[crypto_hash_sha256_BYTES * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

}  // namespace

int schema_version(Db& db) {
  Status s;
  Statement q = db.prepare("SELECT coalesce(max(number), 0) FROM schema_migrations", &s);
  if (!s.ok()) return 0;
  return q.step(&s) ? static_cast<int>(q.column_int(0)) : 0;
}

Status migrate(Db& db, const std::vector<Migration>& migrations) {
  if (Status s = db.exec(kCreateTable); !s.ok()) return s;

  std::map<int, std::string> recorded;  // number -> checksum
  {
    Status s;
    Statement q = db.prepare("SELECT number, checksum FROM schema_migrations", &s);
    if (!s.ok()) return s;
    while (q.step(&s))
      recorded[static_cast<int>(q.column_int(0))] = q.column_text(1);
    if (!s.ok()) return s;
  }
  std::map<int, const Migration*> known;
  for (const Migration& m : migrations)
    known[m.number] = &m;

  for (const auto& [number, checksum] : recorded) {
    auto it = known.find(number);
    if (it == known.end()) {
      return Status{1, "the database has migration " + std::to_string(number) +
                           ", which this Castra does not know: it was written by a newer "
                           "Castra; run that version or restore a backup"};
    }
    if (sha256_hex(it->second->sql) != checksum) {
      return Status{1, "migration " + it->second->name +
                           " differs from the one applied to this database; applied "
                           "migrations must never be edited"};
    }
  }

  for (const auto& [number, m] : known) {
    if (recorded.count(number) != 0) continue;
    Transaction tx(db);
    if (!tx.begun().ok()) return tx.begun();
    if (Status s = db.exec(m->sql); !s.ok()) {
      return Status{s.code, "migration " + m->name + " failed: " + s.message};
    }
    Status s;
    Statement ins =
        db.prepare("INSERT INTO schema_migrations(number, name, checksum) VALUES (?, ?, ?)", &s);
    if (!s.ok()) return s;
    ins.bind(1, static_cast<std::int64_t>(number)).bind(2, m->name).bind(3, sha256_hex(m->sql));
    if (s = ins.run(); !s.ok()) return s;
    if (s = tx.commit(); !s.ok()) return s;
  }
  return Status::success();
}

}  // namespace castra::store
