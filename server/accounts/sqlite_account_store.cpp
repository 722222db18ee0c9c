#include "server/accounts/sqlite_account_store.hpp"

#include <memory>

#include "server/accounts/passwords.hpp"

namespace castra::accounts {

namespace {

constexpr const char* kAccountColumns =
    "SELECT id, name, password_hash, created_ms, failed_logins, locked_until_ms, banned, "
    "ban_reason FROM accounts WHERE ";

// Runs one statement that returns no rows.
store::Status run(store::Db& db, const char* sql,
                  const std::function<void(store::Statement&)>& bind) {
  store::Status s;
  store::Statement q = db.prepare(sql, &s);
  if (!s.ok()) return s;
  bind(q);
  return q.run();
}

}  // namespace

std::optional<Account> SqliteAccountStore::find_where(const char* where, std::int64_t id,
                                                      const std::string& key,
                                                      store::Status* status) {
  std::optional<Account> out;
  *status = sql_.read([&](store::Db& db) {
    store::Status s;
    store::Statement q = db.prepare(std::string(kAccountColumns) + where, &s);
    if (!s.ok()) return s;
    if (key.empty()) {
      q.bind(1, id);
    } else {
      q.bind(1, key);
    }
    if (!q.step(&s)) return s;
    Account a;
    a.id = q.column_int(0);
    a.name = q.column_text(1);
    a.password_hash = q.column_text(2);
    a.created_ms = q.column_int(3);
    a.failed_logins = static_cast<int>(q.column_int(4));
    a.locked_until_ms = q.column_int(5);
    a.banned = q.column_int(6) != 0;
    a.ban_reason = q.column_text(7);
    out = std::move(a);
    q.reset();
    return store::Status::success();
  });
  return out;
}

std::optional<Account> SqliteAccountStore::find_by_name(const std::string& name,
                                                        store::Status* status) {
  return find_where("name_key = ?", 0, name_key(name), status);
}

std::optional<Account> SqliteAccountStore::find_by_id(std::int64_t id, store::Status* status) {
  return find_where("id = ?", id, "", status);
}

void SqliteAccountStore::insert(
    const std::string& name, const std::string& password_hash, std::int64_t now_ms,
    std::function<void(store::Status, std::optional<std::int64_t>)> done) {
  // Filled on the writer thread, read by `done` after the commit.
  auto id = std::make_shared<std::optional<std::int64_t>>();
  sql_.write(
      [name, password_hash, now_ms, id](store::Db& db) {
        // DO NOTHING rather than a failing statement: a taken name is an answer, not an error.
        store::Status s = run(db,
                              "INSERT INTO accounts(name, name_key, password_hash, created_ms) "
                              "VALUES (?, ?, ?, ?) ON CONFLICT(name_key) DO NOTHING",
                              [&](store::Statement& q) {
                                q.bind(1, name).bind(2, name_key(name)).bind(3, password_hash);
                                q.bind(4, now_ms);
                              });
        if (s.ok() && db.changes() == 1) *id = db.last_insert_rowid();
        return s;
      },
      [id, done = std::move(done)](store::Status s) { done(s, s.ok() ? *id : std::nullopt); });
}

void SqliteAccountStore::record_failure(std::int64_t id, int max_failures, std::int64_t lock_ms,
                                        std::int64_t now_ms, Done done) {
  sql_.write(
      [=](store::Db& db) {
        return run(db,
                   "UPDATE accounts SET "
                   " locked_until_ms = CASE WHEN failed_logins + 1 >= ?1 THEN ?2 "
                   "                   ELSE locked_until_ms END,"
                   " failed_logins = CASE WHEN failed_logins + 1 >= ?1 THEN 0 "
                   "                 ELSE failed_logins + 1 END "
                   "WHERE id = ?3",
                   [&](store::Statement& q) {
                     q.bind(1, static_cast<std::int64_t>(max_failures)).bind(2, now_ms + lock_ms);
                     q.bind(3, id);
                   });
      },
      std::move(done));
}

void SqliteAccountStore::set_password(std::int64_t id, const std::string& password_hash,
                                      const std::string& keep, Done done) {
  sql_.write(
      [id, password_hash, keep](store::Db& db) {
        store::Status s = run(db, "UPDATE accounts SET password_hash = ? WHERE id = ?",
                              [&](store::Statement& q) { q.bind(1, password_hash).bind(2, id); });
        if (!s.ok()) return s;
        return run(db, "DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?",
                   [&](store::Statement& q) { q.bind(1, id).bind_blob(2, keep); });
      },
      std::move(done));
}

void SqliteAccountStore::set_banned(std::int64_t id, bool banned, const std::string& reason,
                                    Done done) {
  sql_.write(
      [id, banned, reason](store::Db& db) {
        store::Status s =
            run(db, "UPDATE accounts SET banned = ?, ban_reason = ? WHERE id = ?",
                [&](store::Statement& q) {
                  q.bind(1, static_cast<std::int64_t>(banned ? 1 : 0)).bind(2, reason).bind(3, id);
                });
        if (!s.ok() || !banned) return s;
        return run(db, "DELETE FROM sessions WHERE account_id = ?",
                   [&](store::Statement& q) { q.bind(1, id); });
      },
      std::move(done));
}

void SqliteAccountStore::create_session(const SessionRow& row, bool after_login,
                                        const std::optional<std::string>& rehash, Done done) {
  sql_.write(
      [row, after_login, rehash](store::Db& db) {
        store::Status s;
        if (after_login) {
          s = run(db, "UPDATE accounts SET failed_logins = 0 WHERE id = ? AND failed_logins <> 0",
                  [&](store::Statement& q) { q.bind(1, row.account_id); });
          if (!s.ok()) return s;
        }
        if (rehash) {
          s = run(db, "UPDATE accounts SET password_hash = ? WHERE id = ?",
                  [&](store::Statement& q) { q.bind(1, *rehash).bind(2, row.account_id); });
          if (!s.ok()) return s;
        }
        return run(db,
                   "INSERT INTO sessions(token_hash, account_id, created_ms, expires_ms, "
                   "last_used_ms) VALUES (?, ?, ?, ?, ?)",
                   [&](store::Statement& q) {
                     q.bind_blob(1, row.token_hash).bind(2, row.account_id).bind(3, row.created_ms);
                     q.bind(4, row.expires_ms).bind(5, row.created_ms);
                   });
      },
      std::move(done));
}

std::optional<SessionRow> SqliteAccountStore::find_session(const std::string& token_hash,
                                                           store::Status* status) {
  std::optional<SessionRow> out;
  *status = sql_.read([&](store::Db& db) {
    store::Status s;
    store::Statement q = db.prepare(
        "SELECT account_id, created_ms, expires_ms FROM sessions WHERE token_hash = ?", &s);
    if (!s.ok()) return s;
    q.bind_blob(1, token_hash);
    if (!q.step(&s)) return s;
    SessionRow row;
    row.token_hash = token_hash;
    row.account_id = q.column_int(0);
    row.created_ms = q.column_int(1);
    row.expires_ms = q.column_int(2);
    out = std::move(row);
    q.reset();
    return store::Status::success();
  });
  return out;
}

void SqliteAccountStore::touch_session(const std::string& token_hash, std::int64_t now_ms,
                                       Done done) {
  sql_.write(
      [token_hash, now_ms](store::Db& db) {
        return run(db, "UPDATE sessions SET last_used_ms = ? WHERE token_hash = ?",
                   [&](store::Statement& q) { q.bind(1, now_ms).bind_blob(2, token_hash); });
      },
      std::move(done));
}

void SqliteAccountStore::delete_session(const std::string& token_hash, Done done) {
  sql_.write(
      [token_hash](store::Db& db) {
        return run(db, "DELETE FROM sessions WHERE token_hash = ?",
                   [&](store::Statement& q) { q.bind_blob(1, token_hash); });
      },
      std::move(done));
}

void SqliteAccountStore::delete_expired_sessions(std::int64_t now_ms, Done done) {
  sql_.write(
      [now_ms](store::Db& db) {
        return run(db, "DELETE FROM sessions WHERE expires_ms <= ?",
                   [&](store::Statement& q) { q.bind(1, now_ms); });
      },
      std::move(done));
}

}  // namespace castra::accounts
