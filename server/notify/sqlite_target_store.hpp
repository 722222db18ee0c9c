// SqliteTargetStore: TargetStore over the SQLite table notification_targets
// (migrations/0007_notifications.sql): set() is a job for the store's one writer
// (server/store/sql_access.hpp), reads run on its read connection.
#pragma once

#include "server/notify/target_store.hpp"
#include "server/store/sql_access.hpp"

namespace castra::notify {

class SqliteTargetStore final : public TargetStore {
 public:
  explicit SqliteTargetStore(store::SqlAccess& sql) : sql_(sql) {}
  void set(std::int64_t account_id, const Targets& targets, std::int64_t now_ms,
           Done done) override;
  Targets find(std::int64_t account_id, store::Status* status) override;

 private:
  store::SqlAccess& sql_;
};

}  // namespace castra::notify
