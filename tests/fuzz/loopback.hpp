// Loopback: one client connection at a time into castra-server's own HTTP session
// (server/net's HttpSession over plain TCP, which hands an upgrade to /ws to its
// WebsocketSession), over a real socket on 127.0.0.1, for the fuzz targets of the network
// front (session_fuzz.cpp, http_fuzz.cpp). Beast's test stream cannot stand in: the sessions
// use their TCP stream's socket and timeouts. A test of server/net, so it includes that
// folder's private headers. One thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "server/net/connection.hpp"
#include "server/net/network.hpp"

namespace castra::fuzz {

// What the network front calls, for the session targets: echoes each message back (so that
// the outbound queue and its writes run), closes with a last frame on a message that begins
// with "close" and on every violation (as ServerApp answers one), answers GET /metrics.
class EchoApplication final : public net::Application {
 public:
  void on_open(const std::shared_ptr<net::Connection>&) override {}
  void on_message(const std::shared_ptr<net::Connection>& connection, std::string frame,
                  bool text) override;
  void on_violation(const std::shared_ptr<net::Connection>& connection,
                    net::Violation violation) override;
  void on_closed(std::uint64_t) override {}
  net::HttpAnswer on_http(const net::HttpRequest& request) override;
  void on_shutdown_started() override {}
  void on_stopped() override {}
  void on_admin(std::string, std::function<void(std::string)> reply) override { reply(""); }
};

class Loopback {
 public:
  // `options` as the server's (tests shorten its timeouts).
  Loopback(const net::NetOptions& options, net::Application& application);
  ~Loopback();
  // Connects a new client, hands the server's end to a new HttpSession, sends `request`,
  // then (when not empty) `then` once the server's answer to it has come (a WebSocket client
  // waits for the 101 before it sends a frame, RFC 6455 4.1), half-closes, and reads until
  // the server closes: what the server sent. Stops the process (fuzz::broken) when the
  // connection has not ended within 10 s, or when the session left the connection counted
  // after it ended.
  std::string exchange(std::string_view request, std::string_view then = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A valid WebSocket upgrade request to /ws, as a client's first bytes.
inline constexpr char kUpgrade[] =
    "GET /ws HTTP/1.1\r\n"
    "Host: 127.0.0.1\r\n"
    "Upgrade: websocket\r\n"
    "Connection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    "Sec-WebSocket-Version: 13\r\n"
    "\r\n";

// Server options for the session targets: the defaults, with every timeout short, so that
// an input that makes the server wait costs a second, not a minute, and no abuse cool-down.
net::NetOptions fuzz_net_options();

}  // namespace castra::fuzz
