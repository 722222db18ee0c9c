// Peer: one Castra protocol connection of the load generator: request ids, one callback per
// request for its reply, pushes to a handler, and the arrival time of the frame being handled
// (taken once per frame, before it is parsed, so parsing does not pose as server latency).
// A reply that carries match_update_first (the mover's update, protocol 1.1) goes to the push
// handler as that MatchUpdate first, then to its request's callback.
// A request whose connection closes is answered with an Error without a code (disconnected).
// It speaks binary, or JSON text frames (castra.v1.json): read in full (Wire::kJson), or
// glanced at (Wire::kJsonGlance, tools/load/json_glance.hpp: a push reduced to the fields the
// generator's spectators measure by, so that 10,000 JSON spectators do not parse every board).
// Single-threaded: every call and callback on the load generator's io_context thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include "proto/castra/v1/protocol.pb.h"
#include "tools/load/ws_connection.hpp"

namespace castra::load {

using Clock = std::chrono::steady_clock;
namespace v1 = castra::v1;

// How a peer's frames are written and read.
enum class Wire { kBinary, kJson, kJsonGlance };

class Peer {
 public:
  using Reply = std::function<void(const v1::ServerEnvelope&)>;
  using Push = std::function<void(const v1::ServerEnvelope&)>;
  using Closed = std::function<void(const std::string& why)>;

  explicit Peer(boost::asio::io_context& ioc, Wire wire = Wire::kBinary) : ioc_(ioc), wire_(wire) {}
  ~Peer();
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  // Connects, upgrades, and says Hello; `done` gets "" or the reason it failed.
  void open(const Target& target, const boost::asio::ip::address& source,
            std::function<void(const std::string& error)> done);
  // Sends `request` with the next request id; `reply` gets its answer (a result or an Error).
  // Returns the frame's size in bytes.
  std::size_t request(v1::ClientEnvelope request, Reply reply);
  void on_push(Push push) { push_ = std::move(push); }
  void on_closed(Closed closed) { closed_ = std::move(closed); }
  void close();

  bool open() const { return conn_ != nullptr; }
  // The session this connection signed in to (Register's, Login's token; empty for a guest),
  // kept so that the peer can resume it on another node a cluster sends it to (call_following).
  void signed_in(std::string token) { token_ = std::move(token); }
  const std::string& token() const { return token_; }
  // When the frame now being handled arrived.
  Clock::time_point arrived() const { return arrived_; }
  std::size_t pending() const { return replies_.size(); }

 private:
  void on_frame(std::string_view frame);
  // Answers every request still waiting, as disconnected.
  void fail_pending(const std::string& why);

  boost::asio::io_context& ioc_;
  const Wire wire_;
  std::shared_ptr<WsConnection> conn_;
  std::unordered_map<std::uint64_t, Reply> replies_;
  std::uint64_t next_id_ = 1;
  Push push_;
  Closed closed_;
  Clock::time_point arrived_;
  std::string token_;
  v1::ServerEnvelope envelope_;  // reused: one parse buffer per connection
  v1::ServerEnvelope first_;     // reused: a reply's match_update_first, handed on as a push
};

}  // namespace castra::load
