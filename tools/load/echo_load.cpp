#include "tools/load/echo_load.hpp"

#include <deque>

namespace castra::load {

struct EchoLoad::Link {
  std::shared_ptr<WsConnection> conn;
  std::deque<Clock::time_point> sent;  // an echo server answers in order
};

EchoLoad::EchoLoad(Net& net, EchoOptions options)
    : net_(net), options_(options), frame_(options.frame_bytes, '\0') {
  for (std::size_t i = 0; i < frame_.size(); ++i)
    frame_[i] = static_cast<char>(i * 131 + 7);
}

EchoLoad::~EchoLoad() {
  for (auto& l : links_)
    if (l->conn) l->conn->close();
}

void EchoLoad::run(std::function<void(const EchoResult&)> done) {
  done_ = std::move(done);
  for (int i = 0; i < options_.connections; ++i) {
    links_.push_back(std::make_unique<Link>());
    Link& link = *links_.back();
    link.conn = WsConnection::create(net_.ioc);
    link.conn->open(
        net_.target, net_.next_source(),
        [this, &link](std::string_view) {
          const auto now = Clock::now();
          if (link.sent.empty()) return;
          if (running_) {
            result_.round_trip.record(
                std::chrono::duration_cast<std::chrono::microseconds>(now - link.sent.front())
                    .count());
            ++result_.messages;
          }
          link.sent.pop_front();
          if (running_) send_one(link);
        },
        [this](const std::string&) { ++result_.errors; },
        [this](const std::string& error) {
          if (!error.empty()) ++result_.errors;
          if (++connected_ == links_.size()) start();
        });
  }
}

void EchoLoad::send_one(Link& link) {
  link.sent.push_back(Clock::now());
  link.conn->send(frame_);
}

void EchoLoad::start() {
  running_ = true;
  started_ = Clock::now();
  for (auto& l : links_) {
    for (int w = 0; w < options_.window; ++w)
      send_one(*l);
  }
  after(net_.ioc,
        std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::duration<double>(options_.seconds)),
        [this] { finish(); });
}

void EchoLoad::finish() {
  running_ = false;
  result_.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  for (auto& l : links_)
    l->conn->close();
  if (done_) std::exchange(done_, nullptr)(result_);
}

}  // namespace castra::load
