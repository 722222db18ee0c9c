// WsClient: a WebSocket client connection (ws:// now, wss:// with issue 7), used by every
// client program: the SDL client, bots, the load generator and the integration tests.
// Blocking calls with timeouts; one thread uses a WsClient at a time. Beast stays inside
// ws_client.cpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace castra::client {

// A parsed ws://host:port/path address.
struct Url {
  std::string host;
  std::string port;
  std::string path;
  static std::optional<Url> parse(std::string_view text);
};

class WsClient {
 public:
  // Connects and performs the WebSocket handshake; nullptr and `error` on failure.
  static std::unique_ptr<WsClient> connect(std::string_view url, std::chrono::milliseconds timeout,
                                           std::string* error);
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  bool send(std::string_view frame, std::chrono::milliseconds timeout, std::string* error);
  // The next message; nullopt on timeout, close or error (`error` says which; after a close
  // by the server, close_code() holds its code).
  std::optional<std::string> receive(std::chrono::milliseconds timeout, std::string* error);
  bool close(std::chrono::milliseconds timeout);
  // The close code the server sent, 0 if none.
  std::uint16_t close_code() const;
  bool is_open() const;

 private:
  struct Impl;
  explicit WsClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace castra::client
