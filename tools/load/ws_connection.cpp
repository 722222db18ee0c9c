#include "tools/load/ws_connection.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <deque>

namespace castra::load {
namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

class BeastConnection final : public WsConnection,
                              public std::enable_shared_from_this<BeastConnection> {
 public:
  BeastConnection(boost::asio::io_context& ioc, std::string subprotocol)
      : ws_(ioc), subprotocol_(std::move(subprotocol)) {}

  void open(const Target& target, const boost::asio::ip::address& source, OnFrame on_frame,
            OnClosed on_closed, std::function<void(const std::string&)> done) override {
    on_frame_ = std::move(on_frame);
    on_closed_ = std::move(on_closed);
    auto& socket = beast::get_lowest_layer(ws_).socket();
    beast::error_code ec;
    socket.open(tcp::v4(), ec);
    if (!ec && !source.is_unspecified()) {
      // The port is chosen at connect time, per destination: many more than 28k sockets
      // can then share one source address (each towards its own server port).
      const int one = 1;
      setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
      socket.bind(tcp::endpoint(source, 0), ec);
    }
    if (ec) return done("bind: " + ec.message());
    beast::get_lowest_layer(ws_).async_connect(
        target.endpoint, [self = shared_from_this(), target, done = std::move(done)](
                             beast::error_code e) { self->on_connect(e, target, done); });
  }

  void send(std::string frame) override {
    if (closed_) return;
    queue_.push_back(std::move(frame));
    if (queue_.size() == 1) do_write();
  }

  void close() override {
    if (closed_) return;
    closed_ = true;
    on_frame_ = nullptr;
    on_closed_ = nullptr;
    if (!upgraded_) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().close(ignored);
      return;
    }
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) {});
  }

 private:
  void on_connect(beast::error_code ec, const Target& target,
                  const std::function<void(const std::string&)>& done) {
    if (ec) return done("connect: " + ec.message());
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ec);
    beast::get_lowest_layer(ws_).expires_never();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_.binary(subprotocol_.empty());
    if (!subprotocol_.empty()) {
      ws_.set_option(
          websocket::stream_base::decorator([p = subprotocol_](websocket::request_type& r) {
            r.set(beast::http::field::sec_websocket_protocol, p);
          }));
    }
    ws_.read_message_max(64 * 1024 * 1024);
    ws_.async_handshake(target.host, target.path,
                        [self = shared_from_this(), done](beast::error_code e) {
                          if (e) return done("upgrade: " + e.message());
                          self->upgraded_ = true;
                          done("");
                          self->do_read();
                        });
  }

  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      self->on_read(ec);
    });
  }

  void on_read(beast::error_code ec) {
    if (ec) return fail(ec, "read");
    if (on_frame_) {
      const auto data = buffer_.cdata();
      on_frame_(std::string_view(static_cast<const char*>(data.data()), data.size()));
    }
    buffer_.consume(buffer_.size());
    if (!closed_) do_read();
  }

  void do_write() {
    ws_.async_write(
        boost::asio::buffer(queue_.front()),
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    if (ec) return fail(ec, "write");
    queue_.pop_front();
    if (!queue_.empty()) do_write();
  }

  // Routine ends (our own close, the operation cancelled) say nothing.
  void fail(beast::error_code ec, const char* what) {
    queue_.clear();
    if (closed_ || ec == boost::asio::error::operation_aborted) return;
    closed_ = true;
    auto on_closed = std::move(on_closed_);
    on_frame_ = nullptr;
    if (on_closed) {
      const auto reason = ws_.reason();
      on_closed(std::string(what) + ": " + ec.message() +
                (reason.code != 0 ? " (close " + std::to_string(reason.code) + ")" : ""));
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  const std::string subprotocol_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  OnFrame on_frame_;
  OnClosed on_closed_;
  bool upgraded_ = false;
  bool closed_ = false;
};

}  // namespace

std::shared_ptr<WsConnection> WsConnection::create(boost::asio::io_context& ioc,
                                                   std::string subprotocol) {
  return std::make_shared<BeastConnection>(ioc, std::move(subprotocol));
}

}  // namespace castra::load
