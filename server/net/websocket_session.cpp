#include "server/net/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

namespace castra::net {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {
// An outbound queue longer than this means the client does not read: it is disconnected
// rather than allowed to grow the server's memory.
constexpr std::size_t kMaxQueuedFrames = 256;
}  // namespace

WebsocketSession::WebsocketSession(boost::asio::ip::tcp::socket&& socket,
                                   std::shared_ptr<SharedState> state, const NetOptions& options)
    : ws_(std::move(socket)), state_(std::move(state)), options_(options) {}

WebsocketSession::~WebsocketSession() { state_->leave(this); }

void WebsocketSession::run(beast::http::request<beast::http::string_body> request) {
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = std::chrono::seconds(options_.handshake_timeout_seconds);
  timeouts.idle_timeout = std::chrono::seconds(options_.idle_timeout_seconds);
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
    res.set(beast::http::field::server, "castra-server");
  }));
  ws_.read_message_max(options_.max_frame_bytes);
  ws_.binary(true);
  ws_.async_accept(request, beast::bind_front_handler(&WebsocketSession::on_accept,
                                                      shared_from_this()));
}

void WebsocketSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  state_->join(this, weak_from_this());
  if (state_->shutting_down()) return shut_down();
  do_read();
}

void WebsocketSession::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&WebsocketSession::on_read,
                                                    shared_from_this()));
}

void WebsocketSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "read");
  // The protocol (issue 7) dispatches here; the skeleton reads and discards.
  buffer_.consume(buffer_.size());
  do_read();
}

void WebsocketSession::send(std::shared_ptr<const std::string> frame) {
  boost::asio::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)] {
    if (self->closing_) return;
    if (self->queue_.size() >= kMaxQueuedFrames) {
      spdlog::warn("event=slow_reader action=disconnect queued={}", self->queue_.size());
      self->closing_ = true;
      beast::get_lowest_layer(self->ws_).close();
      return;
    }
    self->queue_.push_back(frame);
    if (self->queue_.size() == 1) self->do_write();
  });
}

void WebsocketSession::do_write() {
  ws_.async_write(boost::asio::buffer(*queue_.front()),
                  beast::bind_front_handler(&WebsocketSession::on_write, shared_from_this()));
}

void WebsocketSession::on_write(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "write");
  queue_.pop_front();
  if (!queue_.empty()) do_write();
}

void WebsocketSession::shut_down() {
  boost::asio::dispatch(ws_.get_executor(), [self = shared_from_this()] {
    if (self->closing_) return;
    self->closing_ = true;
    self->ws_.async_close(websocket::close_code::going_away,
                          [self](beast::error_code) { /* the pending read ends the session */ });
  });
}

void WebsocketSession::fail(beast::error_code ec, const char* what) {
  if (ec == boost::asio::error::operation_aborted || ec == websocket::error::closed ||
      ec == boost::asio::error::eof || ec == beast::error::timeout) {
    return;
  }
  spdlog::debug("event=ws_error where={} error=\"{}\"", what, ec.message());
}

}  // namespace castra::net
