// The seam between the network front and the application. A Connection is one WebSocket as
// the application sees it; the Application is what the network calls. Asio-free on purpose:
// server/app and server/dispatch include it. Connection's methods may be called from any
// thread; Application's are called from network threads (see each).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "server/base/encoding.hpp"

namespace castra::net {

// WebSocket close codes Castra sends (RFC 6455 section 7.4.1).
enum class CloseCode : std::uint16_t {
  kNormal = 1000,
  kGoingAway = 1001,      // shutdown
  kProtocolError = 1002,  // another protocol major version
  kPolicy = 1008,         // a limit broken, a ban, no Hello in time
  kTooBig = 1009,         // a frame over the limit
};

// What the network front detects by itself, before a message reaches the application.
enum class Violation {
  kFrameTooLarge,
  kRateLimited,
  kTooManyConnections,  // from this client address
  kGreetingTimeout,     // no Hello within the handshake timeout
  kSlowReader,          // its outbound queue was full: already disconnected
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual std::uint64_t id() const = 0;
  // The client's address: the peer's, or the one a trusted proxy forwarded.
  virtual const std::string& address() const = 0;
  virtual bool secure() const = 0;
  // What its client asked for in the upgrade; every frame sent to it must be in it.
  virtual server::Encoding encoding() const { return server::Encoding::kBinary; }
  // Queues one frame (binary, or text on a JSON connection). A client whose outbound queue is full
  // is disconnected (its memory must not grow); frames sent after a close are dropped.
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  // Stops reading, sends `last` (if any) after what is queued, then closes with `code`. The
  // close is bounded in time: a client that does not answer is cut off.
  virtual void close(CloseCode code, std::string reason,
                     std::shared_ptr<const std::string> last = nullptr) = 0;
  // The client said Hello: the greeting deadline no longer applies.
  virtual void greeted() = 0;
};

struct HttpRequest {
  std::string method;
  std::string target;
  std::string client_address;
  std::string if_none_match;  // the header, for answers with an ETag (the watch pages)
};

struct HttpAnswer {
  int status = 404;
  std::string content_type = "text/plain";
  std::string body = "not found\n";
  std::vector<std::pair<std::string, std::string>> headers;  // more fields (ETag, caching)
};

class Application {
 public:
  virtual ~Application() = default;
  // For one connection these come in order and never concurrently: on_open, on_message*,
  // on_closed. A connection refused at once (too many from its address) gets only
  // on_violation.
  virtual void on_open(const std::shared_ptr<Connection>& connection) = 0;
  // `text`: it came as a text frame (whatever the connection's encoding).
  virtual void on_message(const std::shared_ptr<Connection>& connection, std::string frame,
                          bool text) = 0;
  // The application answers by closing the connection (with an error frame as `last`).
  virtual void on_violation(const std::shared_ptr<Connection>& connection, Violation violation) = 0;
  virtual void on_closed(std::uint64_t connection_id) = 0;
  // HTTP GET requests other than /healthz and the upgrade to /ws (GET /metrics, the watch
  // pages).
  virtual HttpAnswer on_http(const HttpRequest& request) = 0;
  // SIGTERM arrived: the network stops accepting and closes every session next.
  virtual void on_shutdown_started() = 0;
  // The network has stopped accepting and closed its sessions (SIGTERM): finish in-flight
  // work now. Frames sent meanwhile are dropped; once this returns the connections are gone,
  // so the application must keep them only as weak_ptr. Called once, on the main thread.
  virtual void on_stopped() = 0;
  // One command line from the local admin socket; `reply` takes the whole answer, once, from
  // any thread.
  virtual void on_admin(std::string line, std::function<void(std::string)> reply) = 0;
};

}  // namespace castra::net
