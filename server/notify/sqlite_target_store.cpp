#include "server/notify/sqlite_target_store.hpp"

namespace castra::notify {

void SqliteTargetStore::set(std::int64_t account_id, const Targets& targets, std::int64_t now_ms,
                            Done done) {
  sql_.write(
      [account_id, targets, now_ms](store::Db& db) {
        store::Status s;
        const bool none = targets.webhook_url.empty() && targets.email.empty();
        store::Statement q = db.prepare(
            none ? "DELETE FROM notification_targets WHERE account_id = ?"
                 : "INSERT INTO notification_targets(account_id, webhook_url, email, updated_ms) "
                   "VALUES (?, ?, ?, ?) ON CONFLICT(account_id) DO UPDATE SET "
                   "webhook_url = excluded.webhook_url, email = excluded.email, "
                   "updated_ms = excluded.updated_ms",
            &s);
        if (!s.ok()) return s;
        q.bind(1, account_id);
        if (!none) q.bind(2, targets.webhook_url).bind(3, targets.email).bind(4, now_ms);
        return q.run();
      },
      std::move(done));
}

Targets SqliteTargetStore::find(std::int64_t account_id, store::Status* status) {
  Targets out;
  *status = sql_.read([&](store::Db& db) {
    store::Status s;
    store::Statement q =
        db.prepare("SELECT webhook_url, email FROM notification_targets WHERE account_id = ?", &s);
    if (!s.ok()) return s;
    q.bind(1, account_id);
    if (!q.step(&s)) return s;
    out.webhook_url = q.column_text(0);
    out.email = q.column_text(1);
    q.reset();
    return store::Status::success();
  });
  return out;
}

}  // namespace castra::notify
