#include "tools/load/flood_load.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <deque>
#include <string>

#include "client/net/protocol_client.hpp"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::load {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace v1 = castra::v1;
using tcp = asio::ip::tcp;

enum class Kind { kFlood, kOversize, kSlowReader };
constexpr auto kTick = std::chrono::milliseconds(10);
constexpr auto kReconnectDelay = std::chrono::milliseconds(20);

std::string frame(v1::ClientEnvelope e, std::uint64_t request_id) {
  e.set_request_id(request_id);
  return e.SerializeAsString();
}

v1::ClientEnvelope hello() {
  v1::ClientEnvelope e;
  e.mutable_hello()->set_major(v1::PROTOCOL_MAJOR);
  e.mutable_hello()->set_minor(v1::PROTOCOL_MINOR);
  e.mutable_hello()->set_client("castra-load flood");
  return e;
}

// One abusive connection's life: connect, upgrade, abuse until the server cuts it off; then
// a fresh Abuser takes its place. Every handler holds a shared_ptr; all on one thread.
class Abuser : public std::enable_shared_from_this<Abuser> {
 public:
  Abuser(asio::io_context& ioc, const Target& target, asio::ip::address source, Kind kind,
         const FloodOptions& options, FloodStats& stats)
      : ioc_(ioc),
        target_(target),
        source_(source),
        kind_(kind),
        options_(options),
        stats_(stats),
        ws_(ioc),
        tick_(ioc) {}

  void start() {
    auto& socket = beast::get_lowest_layer(ws_).socket();
    beast::error_code ec;
    socket.open(tcp::v4(), ec);
    if (!ec) {
      const int one = 1;
      setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
      socket.bind(tcp::endpoint(source_, 0), ec);
    }
    // A small window: the server's answers pile up on its side, not in this kernel.
    if (!ec && kind_ == Kind::kSlowReader) {
      socket.set_option(asio::socket_base::receive_buffer_size(4096), ec);
    }
    if (ec) return refused();
    beast::get_lowest_layer(ws_).async_connect(target_.endpoint, [self = shared_from_this()](
                                                                     beast::error_code e) {
      if (e) return self->refused();
      self->ws_.binary(true);
      self->ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
      self->ws_.async_handshake(self->target_.host, self->target_.path,
                                [self](beast::error_code e2) { self->on_upgrade(e2); });
    });
  }

 private:
  void on_upgrade(beast::error_code ec) {
    if (ec) return refused();
    ++stats_.connected;
    send(frame(hello(), next_id_++));
    if (kind_ != Kind::kSlowReader) do_read();
    switch (kind_) {
      case Kind::kFlood:
        return flood();
      case Kind::kOversize:
        return send(std::string(options_.oversize_bytes, 'x'));
      case Kind::kSlowReader:
        send(frame(client::requests::guest(), next_id_++));
        return ask_for_scenarios();
    }
  }

  // A tick's worth of Pings, then the next tick.
  void flood() {
    const auto per_tick = static_cast<int>(options_.flood_frames_per_s *
                                           std::chrono::duration<double>(kTick).count());
    v1::ClientEnvelope ping;
    ping.mutable_ping();
    for (int i = 0; i < std::max(1, per_tick) && !down_; ++i)
      send(frame(ping, next_id_++));
    every(kTick, [](Abuser& a) { a.flood(); });
  }

  void ask_for_scenarios() {
    v1::ClientEnvelope list;
    list.mutable_list_scenarios();
    send(frame(list, next_id_++));
    every(std::chrono::microseconds(static_cast<long long>(1e6 / options_.slow_requests_per_s)),
          [](Abuser& a) { a.ask_for_scenarios(); });
  }

  template <typename Duration>
  void every(Duration d, void (*step)(Abuser&)) {
    if (down_) return;
    tick_.expires_after(d);
    tick_.async_wait([self = shared_from_this(), step](beast::error_code ec) {
      if (!ec && !self->down_) step(*self);
    });
  }

  void send(std::string bytes) {
    if (down_) return;
    out_.push_back(std::move(bytes));
    if (out_.size() == 1) do_write();
  }

  void do_write() {
    ws_.async_write(asio::buffer(out_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                      if (ec) return self->cut_off();
                      ++self->stats_.frames;
                      self->stats_.bytes += n;
                      self->out_.pop_front();
                      if (!self->out_.empty()) self->do_write();
                    });
  }

  // Reads (and drops) what comes, so that the server's close is seen at once.
  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->cut_off();
      self->buffer_.consume(self->buffer_.size());
      self->do_read();
    });
  }

  void refused() {
    ++stats_.refused;
    replace();
  }

  void cut_off() {
    if (down_) return;
    ++stats_.cut_off;
    replace();
  }

  // Ends this connection and starts the next one a moment later.
  void replace() {
    if (down_) return;
    down_ = true;
    out_.clear();
    tick_.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    auto next = std::make_shared<Abuser>(ioc_, target_, source_, kind_, options_, stats_);
    auto timer = std::make_shared<asio::steady_timer>(ioc_, kReconnectDelay);
    timer->async_wait([timer, next](beast::error_code ec) {
      if (!ec) next->start();
    });
  }

  asio::io_context& ioc_;
  const Target& target_;
  asio::ip::address source_;
  Kind kind_;
  const FloodOptions& options_;
  FloodStats& stats_;
  websocket::stream<beast::tcp_stream> ws_;
  asio::steady_timer tick_;
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  std::uint64_t next_id_ = 1;
  bool down_ = false;
};

}  // namespace

FloodLoad::FloodLoad(Target target, FloodOptions options)
    : target_(std::move(target)), options_(options) {}

FloodLoad::~FloodLoad() {
  stop();
}

void FloodLoad::start() {
  ioc_ = std::make_unique<asio::io_context>();
  for (int i = 0; i < options_.connections; ++i) {
    const auto source = asio::ip::address_v4(
        options_.first_source +
        static_cast<std::uint32_t>(static_cast<std::size_t>(i) / options_.per_source));
    const std::string& name = options_.kinds[static_cast<std::size_t>(i) % options_.kinds.size()];
    const Kind kind = name == "flood"      ? Kind::kFlood
                      : name == "oversize" ? Kind::kOversize
                                           : Kind::kSlowReader;
    std::make_shared<Abuser>(*ioc_, target_, source, kind, options_, stats_)->start();
  }
  thread_ = std::thread([this] { ioc_->run(); });
}

void FloodLoad::stop() {
  if (!ioc_) return;
  ioc_->stop();
  thread_.join();
  ioc_.reset();  // destroys every pending handler, and with them the abusers
}

}  // namespace castra::load
