#include "server/net/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <type_traits>

namespace castra::net {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {
// Bytes asked of the socket per read: a frame is checked against the limit as it arrives, so
// an oversized one costs at most the limit plus one chunk of memory.
constexpr std::size_t kReadChunk = 16 * 1024;
// A client with more than this unsent is not read from until it drains: its requests wait in
// its own socket instead of costing the others work whose answers it will not read.
constexpr std::size_t kReadPauseBytes = 256 * 1024;
// The kernel's share of a connection's unsent output (Linux doubles it). Left to autotuning,
// a client that does not read would hold up to 4 MiB there, out of the queue's bound and sight.
constexpr int kSocketSendBuffer = 64 * 1024;
}  // namespace

template <class NextLayer>
WebsocketSession<NextLayer>::WebsocketSession(NextLayer&& stream,
                                              std::shared_ptr<SharedState> state,
                                              std::string address, bool counted)
    : ws_(std::move(stream)),
      state_(std::move(state)),
      id_(state_->next_connection_id()),
      address_(std::move(address)),
      limiter_(state_->options().messages_per_second, state_->options().message_burst,
               RateLimiter::Clock::now()),
      greeting_timer_(ws_.get_executor()),
      close_timer_(ws_.get_executor()),
      stall_timer_(ws_.get_executor()),
      counted_(counted) {}

template <class NextLayer>
WebsocketSession<NextLayer>::~WebsocketSession() {
  state_->leave(this);
  if (counted_) state_->remove_address(address_);
}

template <class NextLayer>
bool WebsocketSession<NextLayer>::secure() const {
  return std::is_same_v<NextLayer, TlsStream>;
}

template <class NextLayer>
void WebsocketSession<NextLayer>::run(beast::http::request<beast::http::string_body> request) {
  const auto& options = state_->options();
  beast::get_lowest_layer(ws_).expires_never();  // the WebSocket's own timeouts take over
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().set_option(
      boost::asio::socket_base::send_buffer_size(kSocketSendBuffer), ignored);
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = std::chrono::seconds(options.handshake_timeout_seconds);
  timeouts.idle_timeout = std::chrono::seconds(options.idle_timeout_seconds);
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  // The encoding is the client's to choose, once: the subprotocol it names is answered.
  const auto offered = request[beast::http::field::sec_websocket_protocol];
  const auto chosen = server::negotiate(std::string_view(offered.data(), offered.size()));
  encoding_ = chosen.value_or(server::Encoding::kBinary);
  ws_.set_option(websocket::stream_base::decorator([chosen](websocket::response_type& res) {
    res.set(beast::http::field::server, "castra-server");
    if (chosen) {
      const auto name = server::subprotocol_name(*chosen);
      res.set(beast::http::field::sec_websocket_protocol,
              beast::string_view(name.data(), name.size()));
    }
  }));
  // The frame limit is enforced in on_read, so that the client hears why before the close.
  ws_.read_message_max(0);
  ws_.binary(encoding_ == server::Encoding::kBinary);  // JSON goes in text frames
  ws_.async_accept(
      request, beast::bind_front_handler(&WebsocketSession::on_accept, this->shared_from_this()));
}

template <class NextLayer>
void WebsocketSession<NextLayer>::on_accept(beast::error_code ec) {
  if (ec) return finish(ec, "accept");
  state_->join(this, this->weak_from_this());
  // Behind a trusted proxy: counted by the forwarded address now, told why if over.
  if (!counted_) {
    const bool cooling = state_->cooldown_left(address_) > std::chrono::seconds(0);
    if (cooling || !state_->add_address(address_)) {
      // A cool-down was logged once, when it began.
      if (cooling) {
        spdlog::debug("event=connection_refused reason=abuse_cooldown address={}", address_);
      } else {
        spdlog::warn("event=connection_refused reason=too_many_connections address={}", address_);
      }
      return violation(Violation::kTooManyConnections);
    }
  }
  counted_ = true;
  opened_ = true;
  state_->application().on_open(this->shared_from_this());
  if (state_->shutting_down()) return shut_down();
  greeting_timer_.expires_after(std::chrono::seconds(state_->options().handshake_timeout_seconds));
  greeting_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
    if (!e && !self->greeted_ && !self->closing_) self->violation(Violation::kGreetingTimeout);
  });
  do_read();
}

template <class NextLayer>
void WebsocketSession<NextLayer>::do_read() {
  ws_.async_read_some(
      buffer_, kReadChunk,
      beast::bind_front_handler(&WebsocketSession::on_read, this->shared_from_this()));
}

template <class NextLayer>
void WebsocketSession<NextLayer>::on_read(beast::error_code ec, std::size_t) {
  if (ec) return finish(ec, "read");
  if (finished_) return;
  if (closing_) {
    // Once our close is under way, async_close reads (and discards) until the client's close
    // frame: a read of ours beside it would hold the read side while a protocol error in what
    // it reads waits for the write side async_close holds, until the close timeout.
    buffer_.consume(buffer_.size());
    return;
  }
  if (buffer_.size() > state_->options().max_frame_bytes) {
    buffer_.consume(buffer_.size());
    return violation(Violation::kFrameTooLarge);
  }
  if (!ws_.is_message_done()) return do_read();
  if (!limiter_.allow(RateLimiter::Clock::now())) {
    buffer_.consume(buffer_.size());
    return violation(Violation::kRateLimited);
  }
  const bool text = ws_.got_text();
  std::string frame = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  state_->application().on_message(this->shared_from_this(), std::move(frame), text);
  if (closing_) return;  // the application closed: async_close does the reading (above)
  if (queued_bytes_ >= kReadPauseBytes) return pause_reading();
  do_read();
}

template <class NextLayer>
void WebsocketSession<NextLayer>::pause_reading() {
  read_paused_ = true;
  stall_timer_.expires_after(std::chrono::seconds(state_->options().slow_reader_seconds));
  stall_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
    if (!e && self->read_paused_ && !self->closing_) self->drop_slow_reader();
  });
}

template <class NextLayer>
void WebsocketSession<NextLayer>::drop_slow_reader() {
  // Nothing more can reach it (its answers are not read): cut, not closed politely.
  spdlog::warn(
      "event=slow_reader action=disconnect connection={} address={} queued={} queued_bytes={}", id_,
      address_, queue_.size(), queued_bytes_);
  closing_ = true;
  state_->application().on_violation(this->shared_from_this(), Violation::kSlowReader);
  state_->struck(address_);
  hard_close();
}

template <class NextLayer>
void WebsocketSession<NextLayer>::violation(Violation v) {
  // Reading has stopped (no do_read follows); the application answers with close().
  state_->application().on_violation(this->shared_from_this(), v);
  if (v == Violation::kFrameTooLarge || v == Violation::kRateLimited) state_->struck(address_);
  if (!closing_) close(CloseCode::kPolicy, "limit exceeded", nullptr);
}

template <class NextLayer>
void WebsocketSession<NextLayer>::send(std::shared_ptr<const std::string> frame) {
  boost::asio::dispatch(ws_.get_executor(),
                        [self = this->shared_from_this(), frame = std::move(frame)]() mutable {
                          if (self->closing_ || self->finished_) return;
                          const auto& options = self->state_->options();
                          if (self->queue_.size() >= options.max_queued_frames ||
                              self->queued_bytes_ + frame->size() > options.max_queued_bytes) {
                            return self->drop_slow_reader();
                          }
                          self->queued_bytes_ += frame->size();
                          self->queue_.push_back(std::move(frame));
                          if (!self->writing_) self->do_write();
                        });
}

template <class NextLayer>
void WebsocketSession<NextLayer>::do_write() {
  writing_ = true;
  ws_.async_write(boost::asio::buffer(*queue_.front()),
                  beast::bind_front_handler(&WebsocketSession::on_write, this->shared_from_this()));
}

template <class NextLayer>
void WebsocketSession<NextLayer>::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  if (finished_) return;
  if (ec) {
    hard_close();
    return finish(ec, "write");
  }
  queued_bytes_ -= queue_.front()->size();
  queue_.pop_front();
  if (read_paused_ && queued_bytes_ < kReadPauseBytes && !closing_) {
    read_paused_ = false;
    stall_timer_.cancel();
    do_read();
  }
  if (!queue_.empty()) return do_write();
  if (closing_ && !close_started_ && !finished_) start_close();
}

template <class NextLayer>
void WebsocketSession<NextLayer>::close(CloseCode code, std::string reason,
                                        std::shared_ptr<const std::string> last) {
  boost::asio::dispatch(ws_.get_executor(), [self = this->shared_from_this(), code,
                                             reason = std::move(reason),
                                             last = std::move(last)]() mutable {
    if (self->closing_ || self->finished_) return;
    self->closing_ = true;
    self->close_reason_ = websocket::close_reason(static_cast<websocket::close_code>(code), reason);
    self->greeting_timer_.cancel();
    // A client that neither reads nor answers the close is cut off.
    self->close_timer_.expires_after(
        std::chrono::seconds(self->state_->options().close_timeout_seconds));
    self->close_timer_.async_wait([self](beast::error_code e) {
      if (!e && !self->finished_) {
        self->hard_close();
      }
    });
    if (last) {
      self->queued_bytes_ += last->size();
      self->queue_.push_back(std::move(last));
    }
    if (self->writing_) return;  // on_write continues with the queue, then the close
    if (!self->queue_.empty()) return self->do_write();
    self->start_close();
  });
}

template <class NextLayer>
void WebsocketSession<NextLayer>::start_close() {
  close_started_ = true;
  ws_.async_close(close_reason_,
                  beast::bind_front_handler(&WebsocketSession::on_close, this->shared_from_this()));
}

template <class NextLayer>
void WebsocketSession<NextLayer>::on_close(beast::error_code ec) {
  finish(ec, "close");
}

template <class NextLayer>
void WebsocketSession<NextLayer>::greeted() {
  boost::asio::dispatch(ws_.get_executor(), [self = this->shared_from_this()] {
    self->greeted_ = true;
    self->greeting_timer_.cancel();
  });
}

template <class NextLayer>
void WebsocketSession<NextLayer>::shut_down() {
  close(CloseCode::kGoingAway, "server shutting down", nullptr);
}

template <class NextLayer>
void WebsocketSession<NextLayer>::hard_close() {
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both,
                                                 ignored);
  beast::get_lowest_layer(ws_).close();
  finish({}, "hard_close");
}

template <class NextLayer>
void WebsocketSession<NextLayer>::finish(beast::error_code ec, const char* what) {
  if (ec && ec != boost::asio::error::operation_aborted && ec != websocket::error::closed &&
      ec != boost::asio::error::eof && ec != beast::error::timeout &&
      ec != boost::asio::error::connection_reset && ec != boost::asio::error::broken_pipe) {
    spdlog::debug("event=ws_error connection={} where={} error=\"{}\"", id_, what, ec.message());
  }
  if (finished_) return;
  finished_ = true;
  closing_ = true;
  greeting_timer_.cancel();
  close_timer_.cancel();
  stall_timer_.cancel();
  queue_.clear();
  queued_bytes_ = 0;
  state_->leave(this);
  if (counted_) {
    counted_ = false;
    state_->remove_address(address_);
  }
  if (opened_) state_->application().on_closed(id_);
}

template class WebsocketSession<PlainStream>;
template class WebsocketSession<TlsStream>;

}  // namespace castra::net
