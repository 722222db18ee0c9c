#include "server/postgres/pg_account_store.hpp"

#include <memory>

#include "server/accounts/passwords.hpp"

namespace castra::postgres {

using store::Status;
using Tx = pqxx::transaction_base;

std::optional<accounts::Account> PgAccountStore::find_where(const std::string& where,
                                                            const Params& key, Status* status) {
  std::optional<accounts::Account> out;
  *status = sql_.read([&](Tx& tx) {
    const pqxx::result r = key.run(
        tx,
        "SELECT id, name, password_hash, created_ms, failed_logins, locked_until_ms, banned, "
        "ban_reason FROM accounts WHERE " +
            where);
    if (r.empty()) return Status::success();
    const pqxx::row q = r[0];
    accounts::Account a;
    a.id = q[0].as<std::int64_t>();
    a.name = q[1].as<std::string>();
    a.password_hash = q[2].as<std::string>();
    a.created_ms = q[3].as<std::int64_t>();
    a.failed_logins = q[4].as<int>();
    a.locked_until_ms = q[5].as<std::int64_t>();
    a.banned = q[6].as<std::int64_t>() != 0;
    a.ban_reason = q[7].as<std::string>();
    out = std::move(a);
    return Status::success();
  });
  return out;
}

std::optional<accounts::Account> PgAccountStore::find_by_name(const std::string& name,
                                                              Status* status) {
  return find_where("name_key = $1", Params().text(accounts::name_key(name)), status);
}

std::optional<accounts::Account> PgAccountStore::find_by_id(std::int64_t id, Status* status) {
  return find_where("id = $1", Params().integer(id), status);
}

void PgAccountStore::insert(const std::string& name, const std::string& password_hash,
                            std::int64_t now_ms,
                            std::function<void(Status, std::optional<std::int64_t>)> done) {
  // Filled on the writer thread, read by `done` after the commit.
  auto id = std::make_shared<std::optional<std::int64_t>>();
  sql_.write(
      [name, password_hash, now_ms, id](Tx& tx) {
        // DO NOTHING rather than a failing statement: a taken name is an answer, not an error.
        const pqxx::result r =
            Params()
                .text(name)
                .text(accounts::name_key(name))
                .text(password_hash)
                .integer(now_ms)
                .run(tx,
                     "INSERT INTO accounts(name, name_key, password_hash, created_ms) "
                     "VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id");
        // Written whether or not it is found: a batch that runs again must not keep a stale id.
        *id = r.empty() ? std::nullopt : std::optional<std::int64_t>(r[0][0].as<std::int64_t>());
        return Status::success();
      },
      [id, done = std::move(done)](Status s) { done(s, s.ok() ? *id : std::nullopt); });
}

void PgAccountStore::record_failure(std::int64_t id, int max_failures, std::int64_t lock_ms,
                                    std::int64_t now_ms, Done done) {
  sql_.write(
      [=](Tx& tx) {
        Params()
            .integer(max_failures)
            .integer(now_ms + lock_ms)
            .integer(id)
            .run(tx,
                 "UPDATE accounts SET "
                 " locked_until_ms = CASE WHEN failed_logins + 1 >= $1 THEN $2 "
                 "                   ELSE locked_until_ms END,"
                 " failed_logins = CASE WHEN failed_logins + 1 >= $1 THEN 0 "
                 "                 ELSE failed_logins + 1 END "
                 "WHERE id = $3");
        return Status::success();
      },
      std::move(done));
}

void PgAccountStore::set_password(std::int64_t id, const std::string& password_hash,
                                  const std::string& keep, Done done) {
  sql_.write(
      [id, password_hash, keep](Tx& tx) {
        Params()
            .text(password_hash)
            .integer(id)
            .run(tx, "UPDATE accounts SET password_hash = $1 WHERE id = $2");
        Params().integer(id).bytes(keep).run(
            tx, "DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2");
        return Status::success();
      },
      std::move(done));
}

void PgAccountStore::set_banned(std::int64_t id, bool banned, const std::string& reason,
                                Done done) {
  sql_.write(
      [id, banned, reason](Tx& tx) {
        Params()
            .integer(banned ? 1 : 0)
            .text(reason)
            .integer(id)
            .run(tx, "UPDATE accounts SET banned = $1, ban_reason = $2 WHERE id = $3");
        if (banned) Params().integer(id).run(tx, "DELETE FROM sessions WHERE account_id = $1");
        return Status::success();
      },
      std::move(done));
}

void PgAccountStore::create_session(const accounts::SessionRow& row, bool after_login,
                                    const std::optional<std::string>& rehash, Done done) {
  sql_.write(
      [row, after_login, rehash](Tx& tx) {
        if (after_login) {
          Params()
              .integer(row.account_id)
              .run(tx,
                   "UPDATE accounts SET failed_logins = 0 WHERE id = $1 AND failed_logins <> 0");
        }
        if (rehash) {
          Params()
              .text(*rehash)
              .integer(row.account_id)
              .run(tx, "UPDATE accounts SET password_hash = $1 WHERE id = $2");
        }
        Params()
            .bytes(row.token_hash)
            .integer(row.account_id)
            .integer(row.created_ms)
            .integer(row.expires_ms)
            .integer(row.created_ms)
            .run(tx,
                 "INSERT INTO sessions(token_hash, account_id, created_ms, expires_ms, "
                 "last_used_ms) VALUES ($1, $2, $3, $4, $5)");
        return Status::success();
      },
      std::move(done));
}

std::optional<accounts::SessionRow> PgAccountStore::find_session(const std::string& token_hash,
                                                                 Status* status) {
  std::optional<accounts::SessionRow> out;
  *status = sql_.read([&](Tx& tx) {
    const pqxx::result r =
        Params()
            .bytes(token_hash)
            .run(tx,
                 "SELECT account_id, created_ms, expires_ms FROM sessions WHERE token_hash = $1");
    if (r.empty()) return Status::success();
    out = accounts::SessionRow{token_hash, r[0][0].as<std::int64_t>(), r[0][1].as<std::int64_t>(),
                               r[0][2].as<std::int64_t>()};
    return Status::success();
  });
  return out;
}

void PgAccountStore::touch_session(const std::string& token_hash, std::int64_t now_ms, Done done) {
  sql_.write(
      [token_hash, now_ms](Tx& tx) {
        Params()
            .integer(now_ms)
            .bytes(token_hash)
            .run(tx, "UPDATE sessions SET last_used_ms = $1 WHERE token_hash = $2");
        return Status::success();
      },
      std::move(done));
}

void PgAccountStore::delete_session(const std::string& token_hash, Done done) {
  sql_.write(
      [token_hash](Tx& tx) {
        Params().bytes(token_hash).run(tx, "DELETE FROM sessions WHERE token_hash = $1");
        return Status::success();
      },
      std::move(done));
}

void PgAccountStore::delete_expired_sessions(std::int64_t now_ms, Done done) {
  sql_.write(
      [now_ms](Tx& tx) {
        Params().integer(now_ms).run(tx, "DELETE FROM sessions WHERE expires_ms <= $1");
        return Status::success();
      },
      std::move(done));
}

}  // namespace castra::postgres
