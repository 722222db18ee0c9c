// The network front of castra-server: a listener, HTTP sessions (/healthz, /metrics, the
// upgrade to /ws), WebSocket sessions (ws:// or wss://), and the local admin socket,
// chat-multi style. Asio-free on purpose: only the .cpp files of server/net include
// Boost.Beast. Call run_network from main, once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "server/net/connection.hpp"

namespace castra::net {

struct NetOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port (tests)
  int threads = 2;
  std::size_t max_frame_bytes = 64 * 1024;
  std::size_t max_http_body_bytes = 8 * 1024;
  int handshake_timeout_seconds = 10;  // TCP to TLS, HTTP upgrade, and the Hello
  int idle_timeout_seconds = 60;       // a silent client is pinged, then dropped
  int shutdown_grace_seconds = 5;
  int close_timeout_seconds = 5;  // a closing client is cut off after this
  double messages_per_second = 20;
  double message_burst = 40;
  int max_connections_per_address = 32;
  std::size_t max_queued_frames = 256;
  std::size_t max_queued_bytes = 4 * 1024 * 1024;
  int slow_reader_seconds = 5;      // reads paused for its unread answers this long: dropped
  int abuse_cooldown_seconds = 10;  // an address cut off for abuse 3 times: no new connection
  std::string tls_cert_file;        // both set: the port serves TLS only (wss://, https://)
  std::string tls_key_file;
  std::vector<std::string> trusted_proxies;  // whose X-Forwarded-For is believed
  std::string admin_socket;                  // a Unix socket path; empty: none
};

// Binds, calls on_listening with the bound port, and serves until SIGTERM or SIGINT; then
// stops accepting, closes every WebSocket with "going away", and returns 0. A bind, listen or
// TLS set-up failure returns non-zero after logging why.
int run_network(const NetOptions& options, Application& application,
                const std::function<void(std::uint16_t)>& on_listening);

}  // namespace castra::net
