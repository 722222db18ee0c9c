// AccountStore: the interface to the accounts and their sessions, whichever database holds
// them (SQLite: sqlite_account_store.hpp; PostgreSQL: server/store/postgres/). Reads are
// synchronous; every write is a job whose `done` gets its outcome after the commit, on the
// caller's thread (store::queue_full() when the writer had no room). A storage failure is a
// store::Status that is not ok. Used by the service thread only. Times are unix milliseconds
// passed in; nothing here hashes a password.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "server/store/status.hpp"

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
  using Done = std::function<void(store::Status)>;
  virtual ~AccountStore() = default;

  virtual std::optional<Account> find_by_name(const std::string& name, store::Status* status) = 0;
  virtual std::optional<Account> find_by_id(std::int64_t id, store::Status* status) = 0;
  // `done` gets the new account's id; nullopt with an ok status when the name is taken.
  virtual void insert(const std::string& name, const std::string& password_hash,
                      std::int64_t now_ms,
                      std::function<void(store::Status, std::optional<std::int64_t>)> done) = 0;
  // Counts a failed login; from the `max_failures`th consecutive one the account is locked
  // for `lock_ms` (and the count starts again).
  virtual void record_failure(std::int64_t id, int max_failures, std::int64_t lock_ms,
                              std::int64_t now_ms, Done done) = 0;
  // Stores the new hash and ends every session of the account but `keep`: one commit.
  virtual void set_password(std::int64_t id, const std::string& password_hash,
                            const std::string& keep, Done done) = 0;
  // A ban also ends every session of the account, in the same commit.
  virtual void set_banned(std::int64_t id, bool banned, const std::string& reason, Done done) = 0;

  // Stores a new session; after a good password also clears the failure count and, when the
  // cost changed, stores `rehash`: one transaction, one commit.
  virtual void create_session(const SessionRow& row, bool after_login,
                              const std::optional<std::string>& rehash, Done done) = 0;
  virtual std::optional<SessionRow> find_session(const std::string& token_hash,
                                                 store::Status* status) = 0;
  virtual void touch_session(const std::string& token_hash, std::int64_t now_ms, Done done) = 0;
  virtual void delete_session(const std::string& token_hash, Done done) = 0;
  virtual void delete_expired_sessions(std::int64_t now_ms, Done done) = 0;
};

}  // namespace castra::accounts
