// Accounts: registering, logging in (with lockout after repeated failures), session tokens,
// logging out, changing passwords, bans. Argon2id runs on the bounded hashing pool; every
// method, and every completion callback, runs on the service thread, which owns the store.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/accounts/account_store.hpp"
#include "server/accounts/passwords.hpp"
#include "server/base/failure.hpp"
#include "server/base/metrics.hpp"
#include "server/base/task_queue.hpp"

namespace castra::accounts {

struct AccountOptions {
  PasswordCost cost = interactive_cost();
  int max_failures = 5;  // consecutive failed logins before a lockout
  int lockout_seconds = 300;
  int session_ttl_seconds = 30 * 24 * 3600;
};

struct SignedIn {
  std::int64_t account_id = 0;
  std::string name;
  std::string token;       // base64url of 32 random bytes; only ever shown to its owner
  std::string token_hash;  // SHA-256 of the token's bytes, as stored
  std::int64_t expires_ms = 0;
};

using Post = std::function<void(std::function<void()>)>;

class Accounts {
 public:
  // `to_service` posts a completion back onto the service thread.
  Accounts(AccountStore& store, server::TaskQueue& hash_pool, Post to_service,
           AccountOptions options, server::Metrics* metrics);

  using Done = std::function<void(server::Result<SignedIn>)>;
  // Name and password are well-formed (the dispatcher checked). Signs the new account in.
  void register_account(std::string name, std::string password, Done done);
  void login(std::string name, std::string password, Done done);
  // Signs in with a token from an earlier Register or Login.
  server::Result<SignedIn> resume(const std::string& token);
  void logout(const std::string& token_hash);
  // Checks the old password, stores the new one, and ends every other session.
  void change_password(std::int64_t account_id, std::string old_password, std::string new_password,
                       std::string keep_token_hash,
                       std::function<void(server::Result<server::Ok>)> done);

  server::Result<Account> set_banned(const std::string& name, bool banned,
                                     const std::string& reason);
  // An account's name by id (cached; ids never change name).
  std::string name_of(std::int64_t id);
  std::optional<Account> find(const std::string& name);

  static std::int64_t now_ms();

 private:
  server::Result<SignedIn> open_session(const Account& account, bool after_login = false,
                                        const std::optional<std::string>& rehash = std::nullopt);

  AccountStore& store_;
  server::TaskQueue& pool_;
  Post to_service_;
  AccountOptions options_;
  server::Metrics* metrics_;
  std::unordered_map<std::int64_t, std::string> names_;
};

}  // namespace castra::accounts
