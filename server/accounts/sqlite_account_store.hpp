// SqliteAccountStore: AccountStore over the SQLite tables accounts and sessions
// (migrations/0004_accounts.sql), written through the store's one writer and read on its read
// connection (server/store/sql_access.hpp). Service thread only.
#pragma once

#include "server/accounts/account_store.hpp"
#include "server/store/sql_access.hpp"

namespace castra::accounts {

class SqliteAccountStore final : public AccountStore {
 public:
  explicit SqliteAccountStore(store::SqlAccess& sql) : sql_(sql) {}

  std::optional<Account> find_by_name(const std::string& name, store::Status* status) override;
  std::optional<Account> find_by_id(std::int64_t id, store::Status* status) override;
  void insert(const std::string& name, const std::string& password_hash, std::int64_t now_ms,
              std::function<void(store::Status, std::optional<std::int64_t>)> done) override;
  void record_failure(std::int64_t id, int max_failures, std::int64_t lock_ms, std::int64_t now_ms,
                      Done done) override;
  void set_password(std::int64_t id, const std::string& password_hash, const std::string& keep,
                    Done done) override;
  void set_banned(std::int64_t id, bool banned, const std::string& reason, Done done) override;
  void create_session(const SessionRow& row, bool after_login,
                      const std::optional<std::string>& rehash, Done done) override;
  std::optional<SessionRow> find_session(const std::string& token_hash,
                                         store::Status* status) override;
  void touch_session(const std::string& token_hash, std::int64_t now_ms, Done done) override;
  void delete_session(const std::string& token_hash, Done done) override;
  void delete_expired_sessions(std::int64_t now_ms, Done done) override;

 private:
  std::optional<Account> find_where(const char* where, std::int64_t id, const std::string& key,
                                    store::Status* status);
  store::SqlAccess& sql_;
};

}  // namespace castra::accounts
