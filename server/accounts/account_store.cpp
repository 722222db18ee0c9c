#include "server/accounts/account_store.hpp"

#include <sqlite3.h>

#include "server/accounts/passwords.hpp"

namespace castra::accounts {

namespace {
constexpr const char* kAccountColumns =
    "SELECT id, name, password_hash, created_ms, failed_logins, locked_until_ms, banned, "
    "ban_reason FROM accounts WHERE ";
}  // namespace

std::optional<Account> AccountStore::find_where(const char* where, std::int64_t id,
                                                const std::string& key, store::Status* status) {
  store::Statement q = db_.prepare(std::string(kAccountColumns) + where, status);
  if (!status->ok()) return std::nullopt;
  if (key.empty()) {
    q.bind(1, id);
  } else {
    q.bind(1, key);
  }
  if (!q.step(status)) return std::nullopt;
  Account a;
  a.id = q.column_int(0);
  a.name = q.column_text(1);
  a.password_hash = q.column_text(2);
  a.created_ms = q.column_int(3);
  a.failed_logins = static_cast<int>(q.column_int(4));
  a.locked_until_ms = q.column_int(5);
  a.banned = q.column_int(6) != 0;
  a.ban_reason = q.column_text(7);
  return a;
}

std::optional<Account> AccountStore::find_by_name(const std::string& name, store::Status* status) {
  return find_where("name_key = ?", 0, name_key(name), status);
}

std::optional<Account> AccountStore::find_by_id(std::int64_t id, store::Status* status) {
  return find_where("id = ?", id, "", status);
}

std::optional<std::int64_t> AccountStore::insert(const std::string& name,
                                                 const std::string& password_hash,
                                                 std::int64_t now_ms, store::Status* status) {
  store::Statement q = db_.prepare(
      "INSERT INTO accounts(name, name_key, password_hash, created_ms) VALUES (?, ?, ?, ?)",
      status);
  if (!status->ok()) return std::nullopt;
  q.bind(1, name).bind(2, name_key(name)).bind(3, password_hash).bind(4, now_ms);
  *status = q.run();
  if ((status->code & 0xff) == SQLITE_CONSTRAINT) {
    *status = store::Status::success();
    return std::nullopt;
  }
  if (!status->ok()) return std::nullopt;
  return db_.last_insert_rowid();
}

std::optional<Account> AccountStore::record_failure(std::int64_t id, int max_failures,
                                                    std::int64_t lock_ms, std::int64_t now_ms,
                                                    store::Status* status) {
  store::Statement q = db_.prepare(
      "UPDATE accounts SET "
      " locked_until_ms = CASE WHEN failed_logins + 1 >= ?1 THEN ?2 ELSE locked_until_ms END,"
      " failed_logins = CASE WHEN failed_logins + 1 >= ?1 THEN 0 ELSE failed_logins + 1 END "
      "WHERE id = ?3",
      status);
  if (!status->ok()) return std::nullopt;
  q.bind(1, static_cast<std::int64_t>(max_failures)).bind(2, now_ms + lock_ms).bind(3, id);
  *status = q.run();
  if (!status->ok()) return std::nullopt;
  return find_by_id(id, status);
}

store::Status AccountStore::reset_failures(std::int64_t id) {
  store::Status s;
  store::Statement q =
      db_.prepare("UPDATE accounts SET failed_logins = 0 WHERE id = ? AND failed_logins <> 0", &s);
  if (!s.ok()) return s;
  return q.bind(1, id).run();
}

store::Status AccountStore::set_password(std::int64_t id, const std::string& password_hash) {
  store::Status s;
  store::Statement q = db_.prepare("UPDATE accounts SET password_hash = ? WHERE id = ?", &s);
  if (!s.ok()) return s;
  return q.bind(1, password_hash).bind(2, id).run();
}

store::Status AccountStore::set_banned(std::int64_t id, bool banned, const std::string& reason) {
  store::Status s;
  store::Statement q =
      db_.prepare("UPDATE accounts SET banned = ?, ban_reason = ? WHERE id = ?", &s);
  if (!s.ok()) return s;
  return q.bind(1, static_cast<std::int64_t>(banned ? 1 : 0)).bind(2, reason).bind(3, id).run();
}

store::Status AccountStore::create_session(const SessionRow& row) {
  store::Status s;
  store::Statement q = db_.prepare(
      "INSERT INTO sessions(token_hash, account_id, created_ms, expires_ms, last_used_ms) "
      "VALUES (?, ?, ?, ?, ?)",
      &s);
  if (!s.ok()) return s;
  return q.bind_blob(1, row.token_hash)
      .bind(2, row.account_id)
      .bind(3, row.created_ms)
      .bind(4, row.expires_ms)
      .bind(5, row.created_ms)
      .run();
}

std::optional<SessionRow> AccountStore::find_session(const std::string& token_hash,
                                                     store::Status* status) {
  store::Statement q = db_.prepare(
      "SELECT account_id, created_ms, expires_ms FROM sessions WHERE token_hash = ?", status);
  if (!status->ok()) return std::nullopt;
  q.bind_blob(1, token_hash);
  if (!q.step(status)) return std::nullopt;
  SessionRow row;
  row.token_hash = token_hash;
  row.account_id = q.column_int(0);
  row.created_ms = q.column_int(1);
  row.expires_ms = q.column_int(2);
  return row;
}

store::Status AccountStore::touch_session(const std::string& token_hash, std::int64_t now_ms) {
  store::Status s;
  store::Statement q = db_.prepare("UPDATE sessions SET last_used_ms = ? WHERE token_hash = ?", &s);
  if (!s.ok()) return s;
  return q.bind(1, now_ms).bind_blob(2, token_hash).run();
}

store::Status AccountStore::delete_session(const std::string& token_hash) {
  store::Status s;
  store::Statement q = db_.prepare("DELETE FROM sessions WHERE token_hash = ?", &s);
  if (!s.ok()) return s;
  return q.bind_blob(1, token_hash).run();
}

store::Status AccountStore::delete_sessions_of(std::int64_t account_id, const std::string& keep) {
  store::Status s;
  store::Statement q =
      db_.prepare("DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?", &s);
  if (!s.ok()) return s;
  return q.bind(1, account_id).bind_blob(2, keep).run();
}

store::Status AccountStore::delete_expired_sessions(std::int64_t now_ms) {
  store::Status s;
  store::Statement q = db_.prepare("DELETE FROM sessions WHERE expires_ms <= ?", &s);
  if (!s.ok()) return s;
  return q.bind(1, now_ms).run();
}

}  // namespace castra::accounts
