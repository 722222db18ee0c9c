// AccountStore: the accounts and sessions tables (migrations/0004_accounts.sql), written
// through the store's one writer and read on its read connection (server/store/sql_access.hpp).
// Synchronous; used by the service thread. Times are unix milliseconds passed in; nothing
// here hashes a password.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/store/sql_access.hpp"
#include "server/store/sqlite.hpp"

namespace castra::accounts {

struct Account {
  std::int64_t id = 0;
  std::string name;
  std::string password_hash;
  std::int64_t created_ms = 0;
  int failed_logins = 0;
  std::int64_t locked_until_ms = 0;
  bool banned = false;
  std::string ban_reason;
};

struct SessionRow {
  std::string token_hash;
  std::int64_t account_id = 0;
  std::int64_t created_ms = 0;
  std::int64_t expires_ms = 0;
};

class AccountStore {
 public:
  explicit AccountStore(store::SqlAccess& sql) : sql_(sql) {}

  std::optional<Account> find_by_name(const std::string& name, store::Status* status);
  std::optional<Account> find_by_id(std::int64_t id, store::Status* status);
  // The new account's id; nullopt with status.ok() when the name is taken.
  std::optional<std::int64_t> insert(const std::string& name, const std::string& password_hash,
                                     std::int64_t now_ms, store::Status* status);
  // Counts a failed login; from the `max_failures`th consecutive one the account is locked
  // for `lock_ms` (and the count starts again). Returns the account as it is now.
  std::optional<Account> record_failure(std::int64_t id, int max_failures, std::int64_t lock_ms,
                                        std::int64_t now_ms, store::Status* status);
  store::Status set_password(std::int64_t id, const std::string& password_hash);
  store::Status set_banned(std::int64_t id, bool banned, const std::string& reason);

  // Stores a new session; after a good password also clears the failure count and, when the
  // cost changed, stores `rehash`: one transaction, one commit.
  store::Status create_session(const SessionRow& row, bool after_login = false,
                               const std::optional<std::string>& rehash = std::nullopt);
  std::optional<SessionRow> find_session(const std::string& token_hash, store::Status* status);
  store::Status touch_session(const std::string& token_hash, std::int64_t now_ms);
  store::Status delete_session(const std::string& token_hash);
  // Every session of the account except `keep` (empty: all of them).
  store::Status delete_sessions_of(std::int64_t account_id, const std::string& keep);
  store::Status delete_expired_sessions(std::int64_t now_ms);

 private:
  std::optional<Account> find_where(const char* where, std::int64_t id, const std::string& key,
                                    store::Status* status);
  store::SqlAccess& sql_;
};

}  // namespace castra::accounts
