// ProtocolClient: the Castra protocol over a WsClient: request ids, the Hello handshake,
// waiting for the reply to one request while keeping the pushes that arrive meanwhile, and
// small builders for the common requests. Shared by the SDL client, bots and the integration
// tests. Blocking calls with timeouts; one thread uses it at a time.
// A reply that carries `match_update_first` (the mover's update, sent in the frame of its
// CommandResult) is split: the update becomes a push (request_id 0) kept before anything that
// came after it, and the reply is returned without it, so every user sees the mover's update
// in order like any other.
// It speaks binary protobuf, or protobuf's JSON mapping in text frames when its options ask
// for the subprotocol kJsonSubprotocol (docs/protocol.md, "Encodings").
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "client/net/ws_client.hpp"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::client {

inline constexpr std::string_view kJsonSubprotocol = "castra.v1.json";

class ProtocolClient {
 public:
  static std::unique_ptr<ProtocolClient> connect(std::string_view url,
                                                 std::chrono::milliseconds timeout,
                                                 std::string* error,
                                                 const ClientOptions& options = ClientOptions());

  // Sends `request` with the next request id (unless it has one); that id, or nullopt.
  std::optional<std::uint64_t> send(castra::v1::ClientEnvelope request, std::string* error);
  // The reply to `request_id`; pushes that arrive first are kept for next_push(). nullopt on
  // timeout or close (`error` says which).
  std::optional<castra::v1::ServerEnvelope> wait_reply(std::uint64_t request_id,
                                                       std::chrono::milliseconds timeout,
                                                       std::string* error);
  // send() then wait_reply().
  std::optional<castra::v1::ServerEnvelope> call(castra::v1::ClientEnvelope request,
                                                 std::chrono::milliseconds timeout,
                                                 std::string* error);
  // The next push (request_id 0), kept or new.
  std::optional<castra::v1::ServerEnvelope> next_push(std::chrono::milliseconds timeout,
                                                      std::string* error);
  // Any next frame, reply or push, bypassing the kept pushes (tests of error pushes); a
  // reply's match_update_first is left in it.
  std::optional<castra::v1::ServerEnvelope> next_frame(std::chrono::milliseconds timeout,
                                                       std::string* error);

  // Hello with this client's protocol version; the HelloResult, or nullopt.
  std::optional<castra::v1::HelloResult> hello(std::chrono::milliseconds timeout,
                                               std::string* error);

  WsClient& socket() { return *ws_; }
  // Whether it speaks JSON text frames (the server agreed to kJsonSubprotocol).
  bool json() const { return json_; }
  // `message` as this connection sends it (tests of raw frames): JSON text or binary.
  std::string encode(const google::protobuf::Message& message) const;
  // Reads one frame as this connection receives it; false when it is not a ServerEnvelope in
  // its encoding (or came as the other kind of frame).
  bool decode(const std::string& frame, bool text, castra::v1::ServerEnvelope* envelope) const;

 private:
  explicit ProtocolClient(std::unique_ptr<WsClient> ws);
  // Moves a reply's match_update_first, if any, to the kept pushes as a MatchUpdate push.
  void keep_update_first(castra::v1::ServerEnvelope& reply);

  std::unique_ptr<WsClient> ws_;
  bool json_ = false;
  std::uint64_t next_id_ = 1;
  std::deque<castra::v1::ServerEnvelope> pushes_;
};

// Builders for the common requests (request_id left 0: send() assigns one).
namespace requests {
castra::v1::ClientEnvelope register_account(const std::string& name, const std::string& password);
castra::v1::ClientEnvelope login(const std::string& name, const std::string& password);
castra::v1::ClientEnvelope logout();
castra::v1::ClientEnvelope guest();
castra::v1::ClientEnvelope create_match(const std::string& scenario, bool spectators,
                                        bool is_private = false);
castra::v1::ClientEnvelope list_matches(castra::v1::MatchStatus status, std::uint32_t limit = 0);
castra::v1::ClientEnvelope join_match(const std::string& match_id, const std::string& entropy,
                                      const std::string& code = "");
castra::v1::ClientEnvelope subscribe(const std::string& match_id);
castra::v1::ClientEnvelope chat(const std::string& match_id, castra::v1::ChatChannel channel,
                                const std::string& text);
// The match's picture after its first `entry_count` log entries (replay).
castra::v1::ClientEnvelope get_snapshot(const std::string& match_id, std::uint32_t entry_count);
// ... after its first `event_count` events (a replay's single step, inside an entry too).
castra::v1::ClientEnvelope get_snapshot_at_event(const std::string& match_id,
                                                 std::uint64_t event_count);
}  // namespace requests

}  // namespace castra::client
