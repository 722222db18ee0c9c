#include "client/net/protocol_client.hpp"

#include <google/protobuf/util/json_util.h>

namespace castra::client {

namespace v1 = castra::v1;

ProtocolClient::ProtocolClient(std::unique_ptr<WsClient> ws)
    : ws_(std::move(ws)), json_(ws_->subprotocol() == kJsonSubprotocol) {}

std::string ProtocolClient::encode(const google::protobuf::Message& message) const {
  if (!json_) return message.SerializeAsString();
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(message, &out, options).ok()) return {};
  return out;
}

bool ProtocolClient::decode(const std::string& frame, bool text,
                            v1::ServerEnvelope* envelope) const {
  if (text != json_) return false;
  if (!json_) return envelope->ParseFromString(frame);
  // Fields of a later minor version are ignored, as the binary parser keeps them aside.
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  return google::protobuf::util::JsonStringToMessage(frame, envelope, options).ok();
}

std::unique_ptr<ProtocolClient> ProtocolClient::connect(std::string_view url,
                                                        std::chrono::milliseconds timeout,
                                                        std::string* error,
                                                        const ClientOptions& options) {
  auto ws = WsClient::connect(url, timeout, error, options);
  if (!ws) return nullptr;
  return std::unique_ptr<ProtocolClient>(new ProtocolClient(std::move(ws)));
}

std::optional<std::uint64_t> ProtocolClient::send(v1::ClientEnvelope request, std::string* error) {
  if (request.request_id() == 0) request.set_request_id(next_id_++);
  if (!ws_->send(encode(request), std::chrono::seconds(10), error, json_)) return std::nullopt;
  return request.request_id();
}

std::optional<v1::ServerEnvelope> ProtocolClient::next_frame(std::chrono::milliseconds timeout,
                                                             std::string* error) {
  auto frame = ws_->receive(timeout, error);
  if (!frame) return std::nullopt;
  v1::ServerEnvelope envelope;
  if (!decode(*frame, ws_->received_text(), &envelope)) {
    *error = "the server sent something that is not a ServerEnvelope";
    return std::nullopt;
  }
  return envelope;
}

std::optional<v1::ServerEnvelope> ProtocolClient::wait_reply(std::uint64_t request_id,
                                                             std::chrono::milliseconds timeout,
                                                             std::string* error) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      *error = "no reply in time";
      return std::nullopt;
    }
    auto envelope = next_frame(left, error);
    if (!envelope) return std::nullopt;
    if (envelope->request_id() == 0) {
      pushes_.push_back(std::move(*envelope));
      continue;
    }
    keep_update_first(*envelope);
    if (envelope->request_id() == request_id) return envelope;
    // A late reply to an abandoned request is dropped (its update was kept above).
  }
}

std::optional<v1::ServerEnvelope> ProtocolClient::call(v1::ClientEnvelope request,
                                                       std::chrono::milliseconds timeout,
                                                       std::string* error) {
  const auto id = send(std::move(request), error);
  if (!id) return std::nullopt;
  return wait_reply(*id, timeout, error);
}

std::optional<v1::ServerEnvelope> ProtocolClient::next_push(std::chrono::milliseconds timeout,
                                                            std::string* error) {
  if (!pushes_.empty()) {
    auto e = std::move(pushes_.front());
    pushes_.pop_front();
    return e;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      *error = "no push in time";
      return std::nullopt;
    }
    auto envelope = next_frame(left, error);
    if (!envelope) return std::nullopt;
    if (envelope->request_id() == 0) return envelope;
    // A reply nobody waits for: the update it carries is still news.
    keep_update_first(*envelope);
    if (!pushes_.empty()) {
      auto e = std::move(pushes_.front());
      pushes_.pop_front();
      return e;
    }
  }
}

void ProtocolClient::keep_update_first(v1::ServerEnvelope& reply) {
  if (!reply.has_match_update_first()) return;
  v1::ServerEnvelope push;
  push.mutable_match_update()->Swap(reply.mutable_match_update_first());
  reply.clear_match_update_first();
  pushes_.push_back(std::move(push));
}

std::optional<v1::HelloResult> ProtocolClient::hello(std::chrono::milliseconds timeout,
                                                     std::string* error) {
  v1::ClientEnvelope request;
  request.mutable_hello()->set_major(v1::PROTOCOL_MAJOR);
  request.mutable_hello()->set_minor(v1::PROTOCOL_MINOR);
  request.mutable_hello()->set_client("castra-client-net");
  auto reply = call(std::move(request), timeout, error);
  if (!reply) return std::nullopt;
  if (!reply->has_hello()) {
    *error = reply->has_error() ? reply->error().message() : "unexpected reply to Hello";
    return std::nullopt;
  }
  return reply->hello();
}

namespace requests {

v1::ClientEnvelope register_account(const std::string& name, const std::string& password) {
  v1::ClientEnvelope e;
  e.mutable_register_account()->set_name(name);
  e.mutable_register_account()->set_password(password);
  return e;
}

v1::ClientEnvelope login(const std::string& name, const std::string& password) {
  v1::ClientEnvelope e;
  e.mutable_login()->set_name(name);
  e.mutable_login()->set_password(password);
  return e;
}

v1::ClientEnvelope logout() {
  v1::ClientEnvelope e;
  e.mutable_logout();
  return e;
}

v1::ClientEnvelope guest() {
  v1::ClientEnvelope e;
  e.mutable_guest_login();
  return e;
}

v1::ClientEnvelope create_match(const std::string& scenario, bool spectators, bool is_private) {
  v1::ClientEnvelope e;
  auto* c = e.mutable_create_match();
  c->set_scenario(scenario);
  c->mutable_settings()->set_spectators_allowed(spectators);
  c->set_is_private(is_private);
  return e;
}

v1::ClientEnvelope list_matches(v1::MatchStatus status, std::uint32_t limit) {
  v1::ClientEnvelope e;
  e.mutable_list_matches()->set_status(status);
  e.mutable_list_matches()->set_limit(limit);
  return e;
}

v1::ClientEnvelope join_match(const std::string& match_id, const std::string& entropy,
                              const std::string& code) {
  v1::ClientEnvelope e;
  e.mutable_join_match()->set_match_id(match_id);
  e.mutable_join_match()->set_entropy(entropy);
  e.mutable_join_match()->set_invitation_code(code);
  return e;
}

v1::ClientEnvelope subscribe(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_subscribe_match()->set_match_id(match_id);
  return e;
}

v1::ClientEnvelope chat(const std::string& match_id, v1::ChatChannel channel,
                        const std::string& text) {
  v1::ClientEnvelope e;
  e.mutable_send_chat()->set_match_id(match_id);
  e.mutable_send_chat()->set_channel(channel);
  e.mutable_send_chat()->set_text(text);
  return e;
}

v1::ClientEnvelope get_snapshot(const std::string& match_id, std::uint32_t entry_count) {
  v1::ClientEnvelope e;
  e.mutable_get_snapshot()->set_match_id(match_id);
  e.mutable_get_snapshot()->set_entry_count(entry_count);
  return e;
}

v1::ClientEnvelope get_snapshot_at_event(const std::string& match_id, std::uint64_t event_count) {
  v1::ClientEnvelope e;
  e.mutable_get_snapshot()->set_match_id(match_id);
  e.mutable_get_snapshot()->set_event_count(event_count);
  return e;
}

}  // namespace requests

}  // namespace castra::client
