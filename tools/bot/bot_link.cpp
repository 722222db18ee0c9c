#include "tools/bot/bot_link.hpp"

#include <algorithm>
#include <thread>

namespace castra::bot {

namespace req = client::requests;
using std::chrono::milliseconds;

namespace {

v1::ClientEnvelope resume_request(const std::string& token) {
  v1::ClientEnvelope e;
  e.mutable_resume_session()->set_token(token);
  return e;
}

v1::ErrorCode code_of(const v1::ServerEnvelope& e) {
  return e.has_error() ? e.error().code() : v1::ERROR_UNSPECIFIED;
}

}  // namespace

BotLink::BotLink(LinkOptions options) : options_(std::move(options)) {}

BotLink::~BotLink() {
  if (client_) client_->socket().close(milliseconds(500));
}

void BotLink::note(const std::string& line) const {
  if (options_.log) options_.log(line);
}

void BotLink::drop(const std::string& why) {
  if (client_) note("connection lost: " + why);
  client_.reset();
  error_ = why;
}

std::string BotLink::where() const {
  return owner_url_.empty() ? options_.server() : owner_url_;
}

bool BotLink::connect_once() {
  std::string error;
  client_ =
      client::ProtocolClient::connect(where(), options_.reply_timeout, &error, options_.client);
  if (!client_) {
    error_ = "connect: " + error;
    // The owner it was sent to is gone: the next try goes through the usual address, whose
    // node says where the match went (or that it is moving).
    owner_url_.clear();
    return false;
  }
  auto hello = client_->hello(options_.reply_timeout, &error);
  if (!hello) {
    drop("hello: " + error);
    return false;
  }
  // A little under the server's own limits: its bucket and ours do not refill in step.
  rate_ = std::max(1.0, hello->messages_per_second() * 0.9);
  burst_ = std::max(1.0, hello->message_burst() / 2.0);
  tokens_ = burst_ - 1;  // the Hello was one
  refilled_ = std::chrono::steady_clock::now();
  return true;
}

void BotLink::pace() {
  const auto now = std::chrono::steady_clock::now();
  tokens_ =
      std::min(burst_, tokens_ + rate_ * std::chrono::duration<double>(now - refilled_).count());
  refilled_ = now;
  if (tokens_ < 1) {
    std::this_thread::sleep_for(std::chrono::duration<double>((1 - tokens_) / rate_));
    tokens_ = 1;
    refilled_ = std::chrono::steady_clock::now();
  }
  tokens_ -= 1;
}

std::optional<v1::ServerEnvelope> BotLink::call(v1::ClientEnvelope request) {
  if (!client_) return std::nullopt;
  pace();
  std::string error;
  if (options_.lose_reply && options_.lose_reply(request)) {
    client_->send(std::move(request), &error);
    client_->socket().close(milliseconds(500));
    drop("the reply was lost on purpose (a test)");
    return std::nullopt;
  }
  const auto give_up = std::chrono::steady_clock::now() + options_.give_up_after;
  for (;;) {
    auto reply = client_->call(request, options_.reply_timeout, &error);
    // A reply that does not come in time is treated as a lost connection: the caller repeats
    // what it must on a fresh one, and repeats are safe (client_seq).
    if (!reply) {
      drop(error);
      return reply;
    }
    const auto where = client::elsewhere(*reply);
    // The redirect's answer is the caller's to read once the cluster stays unsettled.
    if (!where || std::chrono::steady_clock::now() > give_up) return reply;
    if (!follow(*where)) return std::nullopt;
    request.clear_request_id();
    pace();
  }
}

bool BotLink::follow(const client::Elsewhere& where) {
  if (where.owner_url.empty()) {
    std::this_thread::sleep_for(where.retry_after);
    return true;
  }
  note("match moved to " + where.owner_url + ", reconnecting...");
  ++redirects_;
  owner_url_ = where.owner_url;
  moved_ = true;
  return reconnect();
}

std::optional<v1::ServerEnvelope> BotLink::next_push(milliseconds timeout) {
  if (!client_) return std::nullopt;
  std::string error;
  auto push = client_->next_push(timeout, &error);
  if (!push && !client_->socket().is_open()) drop(error);
  if (push && client::match_left_this_node(*push)) {
    // This node gave the match up: the caller comes back (reconnect, subscribe, resend)
    // through the usual address, and is sent on to the new owner from there.
    note("the match left " + where() + "; reconnecting");
    owner_url_.clear();
    moved_ = true;
    drop("the match moved to another node");
  }
  return push;
}

bool BotLink::sign_in() {
  auto reply = call(req::login(options_.name, options_.password));
  if (reply && code_of(*reply) == v1::ERROR_BAD_CREDENTIALS) {
    // An unknown name and a wrong password get the same answer: try to register; a taken
    // name then means the password was wrong.
    reply = call(req::register_account(options_.name, options_.password));
  }
  if (!reply) return false;
  if (!reply->has_session()) {
    error_ = "sign in as " + options_.name + ": " +
             (reply->has_error() ? reply->error().message() : reply->ShortDebugString());
    return false;
  }
  token_ = reply->session().token();
  name_ = reply->session().name();
  return true;
}

bool BotLink::open() {
  if (!connect_once()) return false;
  if (!sign_in()) return false;
  note("signed in as " + name_);
  return true;
}

bool BotLink::resume() {
  auto reply = call(resume_request(token_));
  if (!reply) return false;
  if (reply->has_session()) return true;
  if (code_of(*reply) != v1::ERROR_SESSION_INVALID) {
    error_ = "resume: " + reply->ShortDebugString();
    return false;
  }
  return sign_in();
}

bool BotLink::reconnect() {
  client_.reset();
  const auto give_up = std::chrono::steady_clock::now() + options_.give_up_after;
  milliseconds backoff(50);
  while (std::chrono::steady_clock::now() < give_up) {
    if (connect_once() && resume()) {
      ++reconnects_;
      note("reconnected and resumed the session as " + name_);
      return true;
    }
    client_.reset();
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, milliseconds(2000));
  }
  error_ = "gave up reconnecting: " + error_;
  return false;
}

}  // namespace castra::bot
