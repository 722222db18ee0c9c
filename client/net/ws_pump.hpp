// WsPump: one WebSocket connection (ws:// or wss://) driven by its own I/O thread, for programs
// that must never wait on the network (castra-client's render thread). Added beside WsClient,
// whose calls block and close the socket on a receive timeout, which a UI that polls cannot use.
// Thread-safe: any thread may call send(), poll(), state() and close(); frames arrive in order.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace castra::client {

// A parsed ws:// or wss:// address.
struct WsAddress {
  bool tls = false;
  std::string host;
  std::string port;
  std::string path;
  static std::optional<WsAddress> parse(std::string_view text);
};

class WsPump {
 public:
  struct Options {
    std::chrono::milliseconds connect_timeout{8000};
    // wss:// only: a PEM file of certificates to trust besides the system's (a self-signed
    // server); verify_peer false accepts any certificate (testing only).
    std::string ca_file;
    bool verify_peer = true;
    // Bounds: frames waiting to be polled or sent beyond these close the connection, since
    // a peer that floods a client faster than it renders is broken or hostile.
    std::size_t max_inbox = 8192;
    std::size_t max_outbox = 1024;
    std::size_t max_frame_bytes = 16 * 1024 * 1024;
  };

  enum class State { kConnecting, kOpen, kClosed };

  // Starts connecting at once in the background; never blocks. A malformed address gives a
  // pump already closed, with error() saying why.
  static std::unique_ptr<WsPump> start(std::string_view url, Options options);
  ~WsPump();  // closes (bounded in time) and joins the I/O thread
  WsPump(const WsPump&) = delete;
  WsPump& operator=(const WsPump&) = delete;

  State state() const;
  // Why the connection closed or failed; empty while it is fine.
  std::string error() const;
  // Queues one binary frame; dropped (and false) when the connection is closed.
  bool send(std::string frame);
  // The next received frame, if any.
  std::optional<std::string> poll();
  // Starts a normal close; state() turns kClosed when it is done.
  void close();

  struct Impl;

 private:
  explicit WsPump(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

}  // namespace castra::client
