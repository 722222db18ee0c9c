// WsClient: a WebSocket client connection, ws:// or wss://, used by every client program:
// the SDL client, bots, the load generator and the integration tests. Blocking calls with
// timeouts; one thread uses a WsClient at a time. Beast stays inside ws_client.cpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace castra::client {

// A parsed ws://host:port/path or wss://host:port/path address.
struct Url {
  bool tls = false;
  std::string host;
  std::string port;
  std::string path;
  static std::optional<Url> parse(std::string_view text);
};

struct ClientOptions {
  // wss://: a PEM file of the certificates to trust; empty: the system's store.
  std::string ca_file;
  // wss://: check the server's certificate and name. Off only for tests of TLS itself.
  bool verify_peer = true;
  // Extra headers on the upgrade request (tests: X-Forwarded-For).
  std::vector<std::pair<std::string, std::string>> headers;
  // SO_RCVBUF before connecting, 0 for the system's default (tests: a slow reader).
  int receive_buffer_bytes = 0;
  // The WebSocket subprotocol to ask for (Sec-WebSocket-Protocol); empty: none. The connection
  // fails, as a browser's would, when the server does not answer with it.
  std::string subprotocol;
};

class WsClient {
 public:
  // Connects and performs the (TLS and) WebSocket handshake; nullptr and `error` on failure.
  static std::unique_ptr<WsClient> connect(std::string_view url, std::chrono::milliseconds timeout,
                                           std::string* error,
                                           const ClientOptions& options = ClientOptions());
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Sends one binary frame (a text frame if `text`).
  bool send(std::string_view frame, std::chrono::milliseconds timeout, std::string* error,
            bool text = false);
  // The next message; nullopt on timeout, close or error (`error` says which; after a close
  // by the server, close_code() holds its code).
  std::optional<std::string> receive(std::chrono::milliseconds timeout, std::string* error);
  bool close(std::chrono::milliseconds timeout);
  // Whether the last message received came as a text frame.
  bool received_text() const;
  // The subprotocol the server answered the upgrade with, empty if none.
  const std::string& subprotocol() const;
  // The close code the server sent, 0 if none.
  std::uint16_t close_code() const;
  std::string close_reason() const;
  bool is_open() const;

  struct Impl;

 private:
  explicit WsClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace castra::client
