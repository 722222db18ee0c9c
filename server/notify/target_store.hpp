// TargetStore: the interface to each account's notification targets, whichever database
// holds them (SQLite: sqlite_target_store.hpp; PostgreSQL: server/store/postgres/). set()'s
// `done` is called after the commit on the service thread, which alone calls set(). Reads are
// synchronous, from any thread but a store writer's: the Notifier's worker reads through
// targets_of().
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "server/notify/notifier.hpp"
#include "server/notify/reminder.hpp"
#include "server/store/status.hpp"

namespace castra::notify {

class TargetStore : public TargetSource {
 public:
  using Done = std::function<void(store::Status)>;

  // Stores `targets` (already checked: targets.hpp) for the account; both empty removes its row.
  virtual void set(std::int64_t account_id, const Targets& targets, std::int64_t now_ms,
                   Done done) = 0;
  // The account's targets, both empty when it has none.
  virtual Targets find(std::int64_t account_id, store::Status* status) = 0;

  std::optional<Targets> targets_of(std::int64_t account_id, std::string* error) final;
};

}  // namespace castra::notify
