#include "server/accounts/accounts.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <mutex>

namespace castra::accounts {

using server::ErrorCode;
using server::fail;
using server::Failure;
using server::Result;

namespace {

constexpr std::size_t kTokenBytes = 32;  // 256 bits

std::string sha256_bytes(const unsigned char* data, std::size_t size) {
  unsigned char out[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(out, data, size);
  return std::string(reinterpret_cast<const char*>(out), sizeof out);
}

// A hash of nothing anyone knows, verified against when the name is unknown, so that a
// wrong name costs the same time as a wrong password.
const std::string& decoy_hash(const PasswordCost& cost) {
  static std::once_flag once;
  static std::string hash;
  std::call_once(once, [&] {
    unsigned char random[16];
    randombytes_buf(random, sizeof random);
    hash = hash_password(std::string_view(reinterpret_cast<char*>(random), sizeof random), cost)
               .value_or("");
  });
  return hash;
}

Failure storage_failure(const store::Status& s, const char* what) {
  spdlog::error("event=account_store_failed what={} code={} error=\"{}\"", what, s.code, s.message);
  return fail(v1::ERROR_INTERNAL, "the account database failed; try again");
}

Failure busy() {
  return fail(v1::ERROR_SERVER_BUSY, "too many sign-ins at once; try again shortly", 1000);
}

}  // namespace

Accounts::Accounts(AccountStore& store, server::TaskQueue& hash_pool, Post to_service,
                   AccountOptions options, server::Metrics* metrics)
    : store_(store),
      pool_(hash_pool),
      to_service_(std::move(to_service)),
      options_(options),
      metrics_(metrics) {}

std::int64_t Accounts::now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<SignedIn> Accounts::open_session(const Account& account, bool after_login,
                                        const std::optional<std::string>& rehash) {
  unsigned char raw[kTokenBytes];
  randombytes_buf(raw, sizeof raw);
  char text[sodium_base64_ENCODED_LEN(kTokenBytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
  sodium_bin2base64(text, sizeof text, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  SignedIn in;
  in.account_id = account.id;
  in.name = account.name;
  in.token = text;
  in.token_hash = sha256_bytes(raw, sizeof raw);
  const std::int64_t now = now_ms();
  in.expires_ms = now + std::int64_t{options_.session_ttl_seconds} * 1000;
  if (auto s = store_.create_session({in.token_hash, account.id, now, in.expires_ms}, after_login,
                                     rehash);
      !s.ok()) {
    return storage_failure(s, "create_session");
  }
  names_[account.id] = account.name;
  return in;
}

void Accounts::register_account(std::string name, std::string password, Done done) {
  store::Status s;
  if (store_.find_by_name(name, &s)) {
    return done(fail(v1::ERROR_NAME_TAKEN, "the name " + name + " is taken"));
  }
  if (!s.ok()) return done(storage_failure(s, "find_by_name"));
  // try_post takes its task by value, so a refused task is gone with what it captured: the
  // task and the refusal share `done`.
  auto shared = std::make_shared<Done>(std::move(done));
  const bool queued = pool_.try_post([this, name = std::move(name), password = std::move(password),
                                      done = shared]() mutable {
    auto hash = hash_password(password, options_.cost);
    if (metrics_) metrics_->password_hash();
    to_service_([this, name = std::move(name), hash = std::move(hash), shared = std::move(done)] {
      const Done& done = *shared;
      if (!hash) return done(fail(v1::ERROR_SERVER_BUSY, "out of memory hashing; try again"));
      store::Status st;
      const auto id = store_.insert(name, *hash, now_ms(), &st);
      if (!st.ok()) return done(storage_failure(st, "insert_account"));
      // Two registrations of one name can race past the check above; the UNIQUE key decides.
      if (!id) return done(fail(v1::ERROR_NAME_TAKEN, "the name " + name + " is taken"));
      spdlog::info("event=account_registered account={} name={}", *id, name);
      Account account;
      account.id = *id;
      account.name = name;
      done(open_session(account));
    });
  });
  if (!queued) (*shared)(busy());
}

void Accounts::login(std::string name, std::string password, Done done) {
  store::Status s;
  std::optional<Account> account = store_.find_by_name(name, &s);
  if (!s.ok()) return done(storage_failure(s, "find_by_name"));
  const std::int64_t now = now_ms();
  if (account && account->banned) {
    return done(fail(v1::ERROR_ACCOUNT_BANNED, "this account is banned: " + account->ban_reason));
  }
  if (account && account->locked_until_ms > now) {
    const auto wait = static_cast<std::uint64_t>(account->locked_until_ms - now);
    return done(fail(
        v1::ERROR_ACCOUNT_LOCKED,
        "too many failed logins; try again in " + std::to_string(wait / 1000 + 1) + " s", wait));
  }
  const std::string stored = account ? account->password_hash : std::string();
  auto shared = std::make_shared<Done>(std::move(done));  // see register_account
  const bool queued = pool_.try_post([this, stored, password = std::move(password),
                                      account = std::move(account), done = shared]() mutable {
    bool good = false;
    std::optional<std::string> rehash;
    if (account) {
      good = verify_password(stored, password);
      if (good && needs_rehash(stored, options_.cost))
        rehash = hash_password(password, options_.cost);
    } else {
      verify_password(decoy_hash(options_.cost), password);
    }
    if (metrics_) metrics_->password_hash();
    to_service_([this, good, rehash = std::move(rehash), account = std::move(account),
                 shared = std::move(done)] {
      const Done& done = *shared;
      if (!account) return done(fail(v1::ERROR_BAD_CREDENTIALS, "unknown name or wrong password"));
      if (!good) {
        store::Status st;
        const std::int64_t t = now_ms();
        auto after = store_.record_failure(account->id, options_.max_failures,
                                           std::int64_t{options_.lockout_seconds} * 1000, t, &st);
        if (!st.ok()) return done(storage_failure(st, "record_failure"));
        spdlog::info("event=login_failed account={}", account->id);
        if (after && after->locked_until_ms > t) {
          spdlog::warn("event=account_locked account={} seconds={}", account->id,
                       options_.lockout_seconds);
          return done(fail(v1::ERROR_ACCOUNT_LOCKED,
                           "too many failed logins; the account is locked for " +
                               std::to_string(options_.lockout_seconds) + " s",
                           static_cast<std::uint64_t>(after->locked_until_ms - t)));
        }
        return done(fail(v1::ERROR_BAD_CREDENTIALS, "unknown name or wrong password"));
      }
      done(open_session(*account, /*after_login=*/true, rehash));
    });
  });
  if (!queued) (*shared)(busy());
}

Result<SignedIn> Accounts::resume(const std::string& token) {
  unsigned char raw[kTokenBytes + 1];
  std::size_t size = 0;
  if (sodium_base642bin(raw, sizeof raw, token.data(), token.size(), nullptr, &size, nullptr,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      size != kTokenBytes) {
    return fail(v1::ERROR_SESSION_INVALID, "not a session token");
  }
  const std::string hash = sha256_bytes(raw, size);
  store::Status s;
  auto session = store_.find_session(hash, &s);
  if (!s.ok()) return storage_failure(s, "find_session");
  const std::int64_t now = now_ms();
  if (!session || session->expires_ms <= now) {
    return fail(v1::ERROR_SESSION_INVALID, "the session has ended; log in again");
  }
  auto account = store_.find_by_id(session->account_id, &s);
  if (!s.ok()) return storage_failure(s, "find_by_id");
  if (!account) return fail(v1::ERROR_SESSION_INVALID, "the session has ended; log in again");
  if (account->banned) {
    return fail(v1::ERROR_ACCOUNT_BANNED, "this account is banned: " + account->ban_reason);
  }
  store_.touch_session(hash, now);
  names_[account->id] = account->name;
  SignedIn in;
  in.account_id = account->id;
  in.name = account->name;
  in.token_hash = hash;
  in.expires_ms = session->expires_ms;
  return in;
}

void Accounts::logout(const std::string& token_hash) {
  if (token_hash.empty()) return;
  if (auto s = store_.delete_session(token_hash); !s.ok()) storage_failure(s, "delete_session");
}

void Accounts::change_password(std::int64_t account_id, std::string old_password,
                               std::string new_password, std::string keep_token_hash,
                               std::function<void(Result<server::Ok>)> done) {
  store::Status s;
  auto account = store_.find_by_id(account_id, &s);
  if (!s.ok()) return done(storage_failure(s, "find_by_id"));
  if (!account) return done(fail(v1::ERROR_NOT_AUTHENTICATED, "no such account"));
  auto shared = std::make_shared<std::function<void(Result<server::Ok>)>>(
      std::move(done));  // see register_account
  const bool queued = pool_.try_post([this, stored = account->password_hash, account_id,
                                      old_password = std::move(old_password),
                                      new_password = std::move(new_password),
                                      keep = std::move(keep_token_hash), done = shared]() mutable {
    const bool good = verify_password(stored, old_password);
    std::optional<std::string> hash;
    if (good) hash = hash_password(new_password, options_.cost);
    if (metrics_) metrics_->password_hash();
    to_service_([this, good, hash = std::move(hash), account_id, keep = std::move(keep),
                 shared = std::move(done)] {
      const auto& done = *shared;
      if (!good) return done(fail(v1::ERROR_BAD_CREDENTIALS, "the old password is wrong"));
      if (!hash) return done(fail(v1::ERROR_SERVER_BUSY, "out of memory hashing; try again"));
      if (auto st = store_.set_password(account_id, *hash); !st.ok()) {
        return done(storage_failure(st, "set_password"));
      }
      if (auto st = store_.delete_sessions_of(account_id, keep); !st.ok()) {
        return done(storage_failure(st, "delete_sessions_of"));
      }
      spdlog::info("event=password_changed account={}", account_id);
      done(server::Ok{});
    });
  });
  if (!queued) (*shared)(busy());
}

Result<Account> Accounts::set_banned(const std::string& name, bool banned,
                                     const std::string& reason) {
  store::Status s;
  auto account = store_.find_by_name(name, &s);
  if (!s.ok()) return storage_failure(s, "find_by_name");
  if (!account) return fail(v1::ERROR_BAD_CREDENTIALS, "no account named " + name);
  if (auto st = store_.set_banned(account->id, banned, reason); !st.ok()) {
    return storage_failure(st, "set_banned");
  }
  if (banned) store_.delete_sessions_of(account->id, "");
  account->banned = banned;
  account->ban_reason = reason;
  return *account;
}

std::string Accounts::name_of(std::int64_t id) {
  if (auto it = names_.find(id); it != names_.end()) return it->second;
  store::Status s;
  auto account = store_.find_by_id(id, &s);
  if (!account) return "";
  names_[id] = account->name;
  return account->name;
}

std::optional<Account> Accounts::find(const std::string& name) {
  store::Status s;
  return store_.find_by_name(name, &s);
}

}  // namespace castra::accounts
