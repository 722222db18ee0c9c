#include "client/sdl/session.hpp"

#include <algorithm>

#include "client/sdl/labels.hpp"

namespace castra::client {

namespace {

constexpr auto kMinPingInterval = std::chrono::seconds(5);
constexpr auto kMaxPingInterval = std::chrono::seconds(20);
constexpr const char* kClientName = "castra-client/0.1";

v1::ServerEnvelope synthetic_error(v1::ErrorCode code, const std::string& message) {
  v1::ServerEnvelope e;
  e.mutable_error()->set_code(code);
  e.mutable_error()->set_message(message);
  return e;
}

}  // namespace

std::uint64_t Session::sent(v1::ClientEnvelope::BodyCase kind) const {
  const auto it = sent_.find(kind);
  return it == sent_.end() ? 0 : it->second;
}

std::optional<v1::ClientEnvelope::BodyCase> Session::kind_named(const std::string& name) {
  const auto* field = v1::ClientEnvelope::descriptor()->FindFieldByName(name);
  if (field == nullptr || field->containing_oneof() == nullptr) return std::nullopt;
  return static_cast<v1::ClientEnvelope::BodyCase>(field->number());
}

Session::~Session() {
  // Nobody is left to hear the pending requests' failures: drop them unanswered.
  pending_.clear();
  waiting_.clear();
  link_.reset();
}

void Session::connect(const std::string& url, const ClientOptions& options) {
  disconnect();
  url_ = url;
  failure_.clear();
  greeted_ = false;
  status_ = Status::kConnecting;
  link_ = NetLink::start(url, options);
  v1::ClientEnvelope hello;
  hello.mutable_hello()->set_major(v1::PROTOCOL_MAJOR);
  hello.mutable_hello()->set_minor(v1::PROTOCOL_MINOR);
  hello.mutable_hello()->set_client(kClientName);
  hello_id_ = next_id_;
  send_now(hello);
}

void Session::disconnect() {
  if (link_) {
    link_.reset();  // closes, bounded in time
    fail_all("disconnected");
  }
  status_ = Status::kOffline;
}

void Session::send_now(v1::ClientEnvelope& envelope) {
  envelope.set_request_id(next_id_++);
  ++sent_[envelope.body_case()];
  // The link queues frames until the socket opens.
  if (link_) link_->send(envelope.SerializeAsString());
  last_sent_ = std::chrono::steady_clock::now();
}

void Session::request(v1::ClientEnvelope envelope, OnReply on_reply) {
  if (status_ == Status::kFailed || status_ == Status::kOffline || !link_) {
    if (on_reply) {
      on_reply(synthetic_error(v1::ERROR_UNSPECIFIED,
                               "Not connected to the server" +
                                   (failure_.empty() ? std::string() : " (" + failure_ + ")")));
    }
    return;
  }
  if (!greeted_) {
    waiting_.emplace_back(std::move(envelope), std::move(on_reply));
    return;
  }
  send_now(envelope);
  pending_[envelope.request_id()] = std::move(on_reply);
}

void Session::fail_all(const std::string& why) {
  auto pending = std::move(pending_);
  pending_.clear();
  auto waiting = std::move(waiting_);
  waiting_.clear();
  const v1::ServerEnvelope e =
      synthetic_error(v1::ERROR_UNSPECIFIED, "Not connected to the server (" + why + ")");
  for (auto& [id, cb] : pending)
    if (cb) cb(e);
  for (auto& [env, cb] : waiting)
    if (cb) cb(e);
}

void Session::pump(const OnPush& on_push) {
  if (!link_) return;
  while (auto frame = link_->poll()) {
    v1::ServerEnvelope e;
    if (!e.ParseFromString(*frame)) continue;  // a frame we cannot read tells us nothing
    if (e.request_id() == 0) {
      // A Notice may say the server is going away or this account was banned: pass it on.
      if (on_push) on_push(e);
      continue;
    }
    if (e.request_id() == hello_id_) {
      if (e.has_error()) {
        failure_ = describe_error(e.error());
        status_ = Status::kFailed;
        fail_all(failure_);
        return;
      }
      hello_ = e.hello();
      greeted_ = true;
      status_ = Status::kReady;
      auto waiting = std::move(waiting_);
      waiting_.clear();
      for (auto& [env, cb] : waiting) {
        send_now(env);
        pending_[env.request_id()] = std::move(cb);
      }
      continue;
    }
    if (e.has_match_update_first()) {
      // The mover's update rides in its CommandResult's frame: it is handled as the push it
      // stands for, before the reply, as if it had come first.
      v1::ServerEnvelope update;
      update.mutable_match_update()->Swap(e.mutable_match_update_first());
      e.clear_match_update_first();
      if (on_push) on_push(update);
    }
    auto it = pending_.find(e.request_id());
    if (it == pending_.end()) continue;
    OnReply cb = std::move(it->second);
    pending_.erase(it);
    if (cb) cb(e);
  }
  if (link_->state() == NetLink::State::kClosed && status_ != Status::kFailed) {
    failure_ = link_->error().empty() ? "the connection closed" : link_->error();
    status_ = Status::kFailed;
    fail_all(failure_);
    return;
  }
  // Keep the connection from idling out: a ping at a third of the server's idle timeout.
  if (status_ == Status::kReady) {
    auto interval = kMaxPingInterval;
    if (hello_.idle_timeout_seconds() > 0) {
      interval = std::clamp(std::chrono::seconds(hello_.idle_timeout_seconds() / 3),
                            std::chrono::seconds(kMinPingInterval),
                            std::chrono::seconds(kMaxPingInterval));
    }
    if (std::chrono::steady_clock::now() - last_sent_ > interval) {
      v1::ClientEnvelope ping;
      ping.mutable_ping()->set_nonce(next_id_);
      request(std::move(ping), nullptr);
    }
  }
}

}  // namespace castra::client
