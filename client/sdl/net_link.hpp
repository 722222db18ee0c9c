// NetLink: castra-client's connection to the server, run on a thread of its own so that the
// render thread never waits on the network. The thread connects with the shared WsClient
// (ws:// or wss://), sends the frames queued by send(), and queues every frame it receives
// for poll(). Thread-safe: any thread may call send(), poll(), state() and error().
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "client/net/ws_client.hpp"

namespace castra::client {

class NetLink {
 public:
  enum class State { kConnecting, kOpen, kClosed };

  // Starts connecting at once, in the background.
  static std::unique_ptr<NetLink> start(const std::string& url, const ClientOptions& options);
  ~NetLink();  // closes the connection (bounded in time) and joins the thread
  NetLink(const NetLink&) = delete;
  NetLink& operator=(const NetLink&) = delete;

  State state() const;
  // Why the connection failed or closed; empty while it is fine.
  std::string error() const;
  // Queues one binary frame; false once the connection is closed or the queue is full.
  bool send(std::string frame);
  // The next frame received, if any.
  std::optional<std::string> poll();

 private:
  NetLink() = default;
  void run(std::string url, ClientOptions options);
  void close_with(const std::string& why);

  // Bounds: a server that floods the client faster than it renders, or a client that queues
  // faster than the network drains, is broken: the connection closes instead of growing.
  static constexpr std::size_t kMaxInbox = 8192;
  static constexpr std::size_t kMaxOutbox = 1024;

  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;  // guards the four below
  State state_ = State::kConnecting;
  std::string error_;
  std::deque<std::string> inbox_;
  std::deque<std::string> outbox_;
};

}  // namespace castra::client
