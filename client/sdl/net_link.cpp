#include "client/sdl/net_link.hpp"

#include <chrono>

namespace castra::client {

namespace {

constexpr auto kConnectTimeout = std::chrono::seconds(6);
constexpr auto kSendTimeout = std::chrono::seconds(5);
// How long the thread waits for a frame before it looks at the send queue again: the
// latency a queued request may wait.
constexpr auto kPollInterval = std::chrono::milliseconds(15);
constexpr auto kCloseTimeout = std::chrono::milliseconds(800);

}  // namespace

std::unique_ptr<NetLink> NetLink::start(const std::string& url, const ClientOptions& options) {
  std::unique_ptr<NetLink> link(new NetLink());
  link->thread_ = std::thread([raw = link.get(), url, options] { raw->run(url, options); });
  return link;
}

NetLink::~NetLink() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

NetLink::State NetLink::state() const {
  std::lock_guard lock(mu_);
  return state_;
}

std::string NetLink::error() const {
  std::lock_guard lock(mu_);
  return error_;
}

bool NetLink::send(std::string frame) {
  std::lock_guard lock(mu_);
  if (state_ == State::kClosed || outbox_.size() >= kMaxOutbox) return false;
  outbox_.push_back(std::move(frame));
  return true;
}

std::optional<std::string> NetLink::poll() {
  std::lock_guard lock(mu_);
  if (inbox_.empty()) return std::nullopt;
  std::string out = std::move(inbox_.front());
  inbox_.pop_front();
  return out;
}

void NetLink::close_with(const std::string& why) {
  std::lock_guard lock(mu_);
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  error_ = why;
  outbox_.clear();
}

void NetLink::run(std::string url, ClientOptions options) {
  std::string error;
  auto ws = WsClient::connect(url, kConnectTimeout, &error, options);
  if (!ws) return close_with(error.empty() ? "cannot connect to " + url : error);
  {
    std::lock_guard lock(mu_);
    if (state_ == State::kConnecting) state_ = State::kOpen;
  }
  while (!stop_) {
    std::deque<std::string> out;
    {
      std::lock_guard lock(mu_);
      out.swap(outbox_);
    }
    for (const auto& frame : out) {
      if (!ws->send(frame, kSendTimeout, &error)) return close_with(error);
    }
    auto frame = ws->receive(kPollInterval, &error);
    if (frame) {
      std::lock_guard lock(mu_);
      if (inbox_.size() >= kMaxInbox) {
        state_ = State::kClosed;
        error_ = "too many unread messages from the server";
        break;
      }
      inbox_.push_back(std::move(*frame));
    } else if (!ws->is_open()) {
      std::string why = error;
      if (ws->close_code() != 0) {
        why = "the server closed the connection (code " + std::to_string(ws->close_code());
        if (!ws->close_reason().empty()) why += ": " + ws->close_reason();
        why += ")";
      }
      return close_with(why);
    }
  }
  ws->close(kCloseTimeout);
  close_with("closed");
}

}  // namespace castra::client
