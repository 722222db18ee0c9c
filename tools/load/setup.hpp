// Set-up helpers of the load generator: where connections come from (the loopback source
// addresses, spread so that no address passes the server's per-address limit), a gate that
// bounds how many set-up steps run at once, requests retried on ERROR_SERVER_BUSY, and the
// three ways a connection signs in (a new account, a guest, a resumed session).
// Single-threaded: everything on the load generator's io_context thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tools/load/peer.hpp"

namespace castra::load {

// The server and the client side's addresses: with one, the kernel picks (127.0.0.1); with
// more, connection i binds to 127.0.0.(2 + i % count).
struct Net {
  boost::asio::io_context& ioc;
  Target target;
  std::vector<boost::asio::ip::address> sources;
  std::size_t opened = 0;

  boost::asio::ip::address next_source();
};

// Resolves `url` (ws://host:port/path) and chooses enough source addresses for
// `connections` at `per_source` each. An empty optional and `error` when the URL is bad.
std::optional<Target> resolve_target(const std::string& url, std::string* error);
std::vector<boost::asio::ip::address> source_addresses(std::size_t connections,
                                                       std::size_t per_source);

// Runs `fn` after `delay` on the io_context.
void after(boost::asio::io_context& ioc, std::chrono::milliseconds delay, std::function<void()> fn);

// At most `limit` tasks at once; a task calls its `done` when it is over.
class Gate {
 public:
  using Task = std::function<void(std::function<void()> done)>;
  explicit Gate(std::size_t limit) : limit_(limit) {}
  void run(Task task);

 private:
  void start_next();
  std::size_t limit_;
  std::size_t running_ = 0;
  std::deque<Task> waiting_;
};

// Sends `request`, again after retry_after_ms while the server answers ERROR_SERVER_BUSY.
void call_retrying(boost::asio::io_context& ioc, Peer& peer, v1::ClientEnvelope request,
                   Peer::Reply reply, int attempts = 100);

// call_retrying, and follows a cluster's ERROR_MATCH_ELSEWHERE (docs/protocol.md) as the real
// clients do (client/net/elsewhere.hpp): the peer's connection moves to the owner's URL, its
// session resumed there, and the request is sent again; while the match moves between nodes
// (no URL) it is asked again here after retry_after_ms. `moves`, when given, counts each move.
// Behind one load-balanced URL a slot's connections so gather on the node that hosts its match.
void call_following(Net& net, Peer& peer, v1::ClientEnvelope request, Peer::Reply reply,
                    std::uint64_t* moves = nullptr, int hops = 8);

// Opens `peer` and signs it in. Each gives "" or what failed; register_account also the token.
void open_registered(Net& net, Peer& peer, const std::string& name,
                     std::function<void(const std::string& error, const std::string& token)> done);
void open_guest(Net& net, Peer& peer, std::function<void(const std::string& error)> done);
void open_resumed(Net& net, Peer& peer, const std::string& token,
                  std::function<void(const std::string& error)> done);
// open_guest and open_resumed at another node than net.target's.
void open_guest(Net& net, Peer& peer, const Target& target,
                std::function<void(const std::string& error)> done);
void open_resumed(Net& net, Peer& peer, const Target& target, const std::string& token,
                  std::function<void(const std::string& error)> done);

// The password every load account gets.
inline constexpr const char* kPassword = "castra-load-password";

// What went wrong in a reply, as a short key for the error table ("" if nothing).
std::string error_key(const v1::ServerEnvelope& e);

}  // namespace castra::load
