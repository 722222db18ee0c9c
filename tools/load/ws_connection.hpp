// WsConnection: one client WebSocket on the load generator's single io_context thread: an
// asynchronous connect (from a chosen source address), upgrade, a read loop that hands each
// binary frame to a callback, and an outbound queue with one write in flight. Beast stays in
// ws_connection.cpp. Everything runs on the io_context's one thread; a connection lives until
// its owner drops it and its last handler has run (shared_from_this in each handler).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace castra::load {

// Where the connections go: the server's endpoint, and the Host header and path to upgrade.
struct Target {
  boost::asio::ip::tcp::endpoint endpoint;
  std::string host;
  std::string path;
};

class WsConnection {
 public:
  using OnFrame = std::function<void(std::string_view frame)>;
  // The connection failed or closed; `why` in words (empty for a close we asked for).
  using OnClosed = std::function<void(const std::string& why)>;

  // `subprotocol`: asked for in the upgrade (castra.v1.json: frames are JSON text), empty for
  // none (binary).
  static std::shared_ptr<WsConnection> create(boost::asio::io_context& ioc,
                                              std::string subprotocol = {});
  virtual ~WsConnection() = default;

  // Connects from `source` (unspecified: the kernel's choice) and upgrades; `done` gets ""
  // or the reason it failed. Frames and the close go to the handlers from then on.
  virtual void open(const Target& target, const boost::asio::ip::address& source, OnFrame on_frame,
                    OnClosed on_closed, std::function<void(const std::string& error)> done) = 0;
  // Queues one frame (text when the subprotocol is JSON); sent in order after those before it.
  virtual void send(std::string frame) = 0;
  // A WebSocket close; the handlers are not called again.
  virtual void close() = 0;
};

}  // namespace castra::load
