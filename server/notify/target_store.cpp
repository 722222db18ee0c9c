#include "server/notify/target_store.hpp"

namespace castra::notify {

std::optional<Targets> TargetStore::targets_of(std::int64_t account_id, std::string* error) {
  store::Status status;
  Targets targets = find(account_id, &status);
  if (!status.ok()) {
    *error = status.message;
    return std::nullopt;
  }
  return targets;
}

}  // namespace castra::notify
