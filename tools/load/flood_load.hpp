// FloodLoad: abusive connections for `castra-load flood` (docs/load.md, docs/reliability.md),
// beside the honest players of a MatchLoad. Three kinds, in turn: floods (Hello, then Pings as
// fast as --flood-frames-per-s allows, until the rate limit closes the connection; then again),
// oversize frames (Hello, then one frame larger than the server takes; then again), and slow
// readers (a 4 KiB receive buffer, a guest login, then scenario lists the connection never
// reads, until the server gives up on it; then again). Each reconnects as soon as it is cut
// off, so the server keeps paying for the handshakes too.
// Threading: runs on a thread and io_context of its own, so that the abusers' handlers never
// queue in front of the honest players'; start() and stop() from the thread that owns it, stats()
// from any.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "tools/load/ws_connection.hpp"

namespace castra::load {

struct FloodOptions {
  int connections = 100;
  double flood_frames_per_s = 1000;         // per flooding connection
  std::size_t oversize_bytes = 1 << 20;     // the server's default limit is 64 KiB
  double slow_requests_per_s = 16;          // per slow reader: under the rate limit (20/s)
  std::size_t per_source = 25;              // connections per loopback source address
  std::uint32_t first_source = 0x7f000064;  // 127.0.0.100: apart from the honest players'
  // Which kinds, taken in turn: any of "flood", "oversize", "slow".
  std::vector<std::string> kinds = {"flood", "oversize", "slow"};
};

struct FloodStats {
  std::atomic<std::uint64_t> connected{0};  // upgrades that succeeded
  std::atomic<std::uint64_t> refused{0};    // connects or upgrades that failed
  std::atomic<std::uint64_t> cut_off{0};    // upgraded connections the server ended
  std::atomic<std::uint64_t> frames{0};     // frames written in full
  std::atomic<std::uint64_t> bytes{0};
};

class FloodLoad {
 public:
  FloodLoad(Target target, FloodOptions options);
  ~FloodLoad();  // stops
  FloodLoad(const FloodLoad&) = delete;
  FloodLoad& operator=(const FloodLoad&) = delete;

  void start();
  void stop();
  const FloodStats& stats() const { return stats_; }

 private:
  Target target_;
  FloodOptions options_;
  FloodStats stats_;
  std::unique_ptr<boost::asio::io_context> ioc_;
  std::thread thread_;
};

}  // namespace castra::load
