// SharedState: what every session of the network front shares: the set of open sessions (so
// that shutdown can close them all), connections per client address, the addresses cooling
// down after abuse, connection ids, the options and the application. Any thread; a mutex
// guards the sets.
#pragma once

#include <chrono>
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
  // A connection from `address` was cut off for abuse (a flood, an oversized frame, a slow
  // reader). The third within kStrikeWindow starts a cool-down of --abuse-cooldown seconds,
  // doubled for each earlier one of the address's last hour (at most 64 times): reconnecting
  // at once would otherwise buy a fresh rate-limit bucket and another oversized read each
  // time, all on the honest players' threads.
  void struck(const std::string& address);
  // How long `address` still cools down (zero: it does not): its new connections are held
  // unread until then, and closed.
  std::chrono::steady_clock::duration cooldown_left(const std::string& address);

 private:
  NetOptions options_;
  Application& application_;
  std::set<std::string> trusted_proxies_;
  mutable std::mutex mutex_;
  std::map<const void*, std::weak_ptr<Closable>> sessions_;
  std::map<std::string, int> per_address_;
  struct Strikes {
    int count = 0;
    std::chrono::steady_clock::time_point first;  // of the current window
    std::chrono::steady_clock::time_point until;  // cooling down before this
    int cooldowns = 0;  // how many in a row, each begun within kForgiveAfter of the last's end
    // None so far, or the last ended kForgiveAfter ago: the next is the first again.
    bool forgiven(std::chrono::steady_clock::time_point now) const;
  };
  std::map<std::string, Strikes> strikes_;
  std::uint64_t next_id_ = 1;
  bool shutting_down_ = false;
};

}  // namespace castra::net
