// The network front of castra-server: a listener, HTTP sessions (/healthz, the upgrade to
// /ws) and WebSocket sessions, chat-multi style. This header is Asio-free on purpose: only
// the .cpp files of server/net include Boost.Beast. Call run_network from main, once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace castra::net {

struct NetOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port (tests)
  int threads = 2;
  std::size_t max_frame_bytes = 64 * 1024;
  std::size_t max_http_body_bytes = 8 * 1024;
  int handshake_timeout_seconds = 10;
  int idle_timeout_seconds = 60;  // a silent client is pinged, then dropped
  int shutdown_grace_seconds = 5;
};

// Binds, calls on_listening with the bound port, and serves until SIGTERM or SIGINT; then
// stops accepting, closes every WebSocket with "going away", and returns 0. A bind or
// listen failure returns non-zero after logging why.
int run_network(const NetOptions& options, const std::function<void(std::uint16_t)>& on_listening);

}  // namespace castra::net
