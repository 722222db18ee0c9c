// TargetStore: each account's notification targets (migrations/0007_notifications.sql). set()
// is a job for the store's one writer (server/store/sql_access.hpp), its `done` called after the
// commit on the service thread, which alone calls set(). Reads are synchronous on the store's
// read connection, from any thread but the writer's: the Notifier's worker reads through
// targets_of().
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "server/notify/notifier.hpp"
#include "server/notify/reminder.hpp"
#include "server/store/sql_access.hpp"

namespace castra::notify {

class TargetStore final : public TargetSource {
 public:
  explicit TargetStore(store::SqlAccess& sql) : sql_(sql) {}

  // Stores `targets` (already checked: targets.hpp) for the account; both empty removes its row.
  void set(std::int64_t account_id, const Targets& targets, std::int64_t now_ms,
           store::SqlAccess::Done done);
  // The account's targets, both empty when it has none.
  Targets find(std::int64_t account_id, store::Status* status);

  std::optional<Targets> targets_of(std::int64_t account_id, std::string* error) override;

 private:
  store::SqlAccess& sql_;
};

}  // namespace castra::notify
