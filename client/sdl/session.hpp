// Session: castra-client's side of the protocol over a NetLink. It greets the server, numbers
// each request and routes its one reply (a result or an Error) to the callback given with it,
// hands pushes on (the update a CommandResult's frame carries first, too, before its reply),
// and pings so an idle connection stays open. It counts what it sent by kind, across
// reconnects, so tests can check what the client asks. It never blocks: the network runs on
// the link's thread. Render thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/net/ws_client.hpp"
#include "client/sdl/net_link.hpp"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::client {

class Session {
 public:
  using OnReply = std::function<void(const v1::ServerEnvelope&)>;
  using OnPush = std::function<void(const v1::ServerEnvelope&)>;

  enum class Status { kOffline, kConnecting, kReady, kFailed };

  Session() = default;
  ~Session();

  // Starts connecting to `url` (ws:// or wss://); requests made before the greeting is
  // answered wait for it.
  void connect(const std::string& url, const ClientOptions& options);
  void disconnect();
  Status status() const { return status_; }
  const std::string& failure() const { return failure_; }
  const v1::HelloResult& hello() const { return hello_; }
  const std::string& url() const { return url_; }

  // Sends a request; `on_reply` runs (on this thread, from pump()) with its reply or Error.
  // When the connection fails first, it runs with a synthesised Error.
  void request(v1::ClientEnvelope envelope, OnReply on_reply);
  // Handles everything received since the last call. Pushes go to `on_push`.
  void pump(const OnPush& on_push);
  // Requests waiting for their reply.
  std::size_t pending() const { return pending_.size(); }
  // Requests of one kind sent since the client started (Hello and pings included).
  std::uint64_t sent(v1::ClientEnvelope::BodyCase kind) const;
  // The kind a ClientEnvelope body field is named (`subscribe_match`), or nullopt.
  static std::optional<v1::ClientEnvelope::BodyCase> kind_named(const std::string& name);

 private:
  void send_now(v1::ClientEnvelope& envelope);
  void fail_all(const std::string& why);

  std::unique_ptr<NetLink> link_;
  std::string url_;
  Status status_ = Status::kOffline;
  std::string failure_;
  v1::HelloResult hello_;
  bool greeted_ = false;
  std::uint64_t next_id_ = 1;
  std::uint64_t hello_id_ = 0;
  std::map<std::uint64_t, OnReply> pending_;
  std::vector<std::pair<v1::ClientEnvelope, OnReply>> waiting_;  // until the greeting
  std::chrono::steady_clock::time_point last_sent_{};
  std::map<v1::ClientEnvelope::BodyCase, std::uint64_t> sent_;
};

}  // namespace castra::client
