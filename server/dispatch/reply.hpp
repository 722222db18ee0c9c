// Reply: the one answer a request gets. Copies share one state, so a handler may pass it into
// an asynchronous completion; the first ok() or fail() sends, later ones are bugs (asserted),
// and a request whose every copy is dropped unanswered gets ERROR_INTERNAL, so that "exactly
// one reply" holds even when a handler forgets. Also frames pushes. Any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "proto/castra/v1/protocol.pb.h"
#include "server/base/encoding.hpp"
#include "server/base/failure.hpp"
#include "server/base/metrics.hpp"
#include "server/net/connection.hpp"

namespace castra::dispatch {

using Clock = std::chrono::steady_clock;

// The bytes of one ServerEnvelope in `encoding` (the connection's), ready for Connection::send.
std::shared_ptr<const std::string> frame_of(const castra::v1::ServerEnvelope& envelope,
                                            server::Encoding encoding);
// One ServerEnvelope for many connections: each is sent it in its own encoding, encoded once
// per encoding (`frames->in(connection->encoding())`).
std::shared_ptr<const server::Frames> frames_of(castra::v1::ServerEnvelope envelope);
// An Error envelope (request_id 0 for pushes and unparsable requests).
castra::v1::ServerEnvelope error_envelope(std::uint64_t request_id, const server::Failure& f);

class Reply {
 public:
  Reply(std::weak_ptr<net::Connection> connection, std::uint64_t request_id, std::size_t kind,
        Clock::time_point received, server::Metrics* metrics);

  // Sends `envelope` (its body set by the caller) as the reply.
  void ok(castra::v1::ServerEnvelope envelope) const;
  void fail(const server::Failure& failure) const;
  // Fails, then closes the connection with `code` (a wrong protocol version).
  void fail_and_close(const server::Failure& failure, net::CloseCode code) const;
  std::uint64_t request_id() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace castra::dispatch
