#include "server/net/shared_state.hpp"

#include <vector>

namespace castra::net {

void SharedState::join(const void* key, std::weak_ptr<Closable> session) {
  std::lock_guard lock(mutex_);
  sessions_[key] = std::move(session);
}

void SharedState::leave(const void* key) {
  std::lock_guard lock(mutex_);
  sessions_.erase(key);
}

std::size_t SharedState::connections() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

bool SharedState::shutting_down() const {
  std::lock_guard lock(mutex_);
  return shutting_down_;
}

void SharedState::shut_down_all() {
  std::vector<std::shared_ptr<Closable>> open;
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    for (auto& [key, weak] : sessions_) {
      if (auto s = weak.lock()) open.push_back(std::move(s));
    }
  }
  // Outside the lock: a session may leave() while it closes.
  for (auto& s : open) s->shut_down();
}

}  // namespace castra::net
