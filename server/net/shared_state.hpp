// SharedState: what every session of the network front shares: the set of open sessions,
// so that shutdown can close them all, and the connection count. Any thread; a mutex
// guards the sets.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

namespace castra::net {

class Closable {
 public:
  virtual ~Closable() = default;
  // Asks the session to end politely ("going away" for WebSockets). Any thread.
  virtual void shut_down() = 0;
};

class SharedState {
 public:
  void join(const void* key, std::weak_ptr<Closable> session);
  void leave(const void* key);
  std::size_t connections() const;
  // Closes every session that is still open; later joins are refused.
  void shut_down_all();
  bool shutting_down() const;

 private:
  mutable std::mutex mutex_;
  std::map<const void*, std::weak_ptr<Closable>> sessions_;
  bool shutting_down_ = false;
};

}  // namespace castra::net
