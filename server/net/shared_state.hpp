// SharedState: what every session of the network front shares: the set of open sessions (so
// that shutdown can close them all), connections per client address, connection ids, the
// options and the application. Any thread; a mutex guards the sets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "server/net/network.hpp"

namespace castra::net {

class Closable {
 public:
  virtual ~Closable() = default;
  // Asks the session to end politely ("going away" for WebSockets). Any thread.
  virtual void shut_down() = 0;
};

class SharedState {
 public:
  SharedState(const NetOptions& options, Application& application);

  const NetOptions& options() const { return options_; }
  Application& application() { return application_; }
  const std::set<std::string>& trusted_proxies() const { return trusted_proxies_; }

  void join(const void* key, std::weak_ptr<Closable> session);
  void leave(const void* key);
  std::size_t connections() const;
  // Closes every session that is still open; later joins are refused.
  void shut_down_all();
  bool shutting_down() const;

  std::uint64_t next_connection_id();
  // Counts a WebSocket from `address`; false (and nothing counted) when it has the maximum.
  bool add_address(const std::string& address);
  void remove_address(const std::string& address);

 private:
  NetOptions options_;
  Application& application_;
  std::set<std::string> trusted_proxies_;
  mutable std::mutex mutex_;
  std::map<const void*, std::weak_ptr<Closable>> sessions_;
  std::map<std::string, int> per_address_;
  std::uint64_t next_id_ = 1;
  bool shutting_down_ = false;
};

}  // namespace castra::net
