#include "client/net/ws_pump.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <deque>
#include <mutex>
#include <thread>

namespace castra::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kCloseTimeout = std::chrono::milliseconds(1500);

}  // namespace

std::optional<WsAddress> WsAddress::parse(std::string_view text) {
  WsAddress out;
  if (text.starts_with("wss://")) {
    out.tls = true;
    text.remove_prefix(6);
  } else if (text.starts_with("ws://")) {
    text.remove_prefix(5);
  } else {
    return std::nullopt;
  }
  const auto slash = text.find('/');
  const std::string_view authority = text.substr(0, slash);
  out.path = slash == std::string_view::npos ? "/" : std::string(text.substr(slash));
  const auto colon = authority.rfind(':');
  const bool bracketed = authority.starts_with('[');
  if (colon == std::string_view::npos || (bracketed && authority.back() == ']')) {
    out.host = authority;
    out.port = out.tls ? "443" : "80";
  } else {
    out.host = authority.substr(0, colon);
    out.port = authority.substr(colon + 1);
  }
  if (out.host.size() > 2 && out.host.front() == '[' && out.host.back() == ']') {
    out.host = out.host.substr(1, out.host.size() - 2);
  }
  if (out.host.empty() || out.port.empty()) return std::nullopt;
  return out;
}

struct WsPump::Impl : std::enable_shared_from_this<WsPump::Impl> {
  using Plain = websocket::stream<beast::tcp_stream>;
  using Secure = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

  Options options;
  WsAddress address;
  asio::io_context ioc;
  ssl::context tls{ssl::context::tls_client};
  tcp::resolver resolver{ioc};
  std::unique_ptr<Plain> plain;
  std::unique_ptr<Secure> secure;
  beast::flat_buffer buffer;
  std::thread thread;

  mutable std::mutex mu;  // guards the four below
  State state = State::kConnecting;
  std::string error;
  std::deque<std::string> inbox;
  std::size_t queued_out = 0;

  // I/O thread only.
  std::deque<std::string> outbox;
  bool writing = false;
  bool closing = false;

  template <class F>
  void with_ws(F&& f) {
    if (secure) {
      f(*secure);
    } else {
      f(*plain);
    }
  }

  beast::tcp_stream& lowest() {
    return secure ? beast::get_lowest_layer(*secure) : beast::get_lowest_layer(*plain);
  }

  void fail(const std::string& what) {
    std::lock_guard lock(mu);
    if (state == State::kClosed) return;
    state = State::kClosed;
    error = what;
  }

  void finish(beast::error_code ec, const std::string& what) {
    if (ec == websocket::error::closed) {
      fail("the server closed the connection");
    } else if (ec == asio::error::operation_aborted && closing) {
      fail("closed");
    } else {
      fail(what + ": " + ec.message());
    }
    beast::error_code ignored;
    lowest().socket().close(ignored);
  }

  void begin() {
    if (address.tls) {
      secure = std::make_unique<Secure>(ioc, tls);
    } else {
      plain = std::make_unique<Plain>(ioc);
    }
    resolver.async_resolve(
        address.host, address.port,
        [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type results) {
          self->on_resolve(ec, std::move(results));
        });
  }

  void on_resolve(beast::error_code ec, tcp::resolver::results_type results) {
    if (ec) return finish(ec, "cannot find " + address.host);
    lowest().expires_after(options.connect_timeout);
    lowest().async_connect(results,
                           [self = shared_from_this()](beast::error_code e, const tcp::endpoint&) {
                             self->on_connect(e);
                           });
  }

  void on_connect(beast::error_code ec) {
    if (ec) return finish(ec, "cannot connect to " + address.host + ":" + address.port);
    if (!secure) return websocket_handshake();
    // SNI, and the certificate must name the host we asked for.
    if (!SSL_set_tlsext_host_name(secure->next_layer().native_handle(), address.host.c_str())) {
      return finish(
          beast::error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()),
          "TLS");
    }
    if (options.verify_peer) {
      secure->next_layer().set_verify_callback(ssl::host_name_verification(address.host));
    }
    secure->next_layer().async_handshake(
        ssl::stream_base::client, [self = shared_from_this()](beast::error_code e) {
          if (e) return self->finish(e, "TLS handshake with " + self->address.host);
          self->websocket_handshake();
        });
  }

  void websocket_handshake() {
    lowest().expires_never();
    with_ws([&](auto& ws) {
      ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
      ws.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
        req.set(beast::http::field::user_agent, "castra-client");
      }));
      ws.read_message_max(options.max_frame_bytes);
      ws.binary(true);
      ws.async_handshake(address.host + ":" + address.port, address.path,
                         [self = shared_from_this()](beast::error_code e) {
                           if (e) return self->finish(e, "WebSocket handshake");
                           {
                             std::lock_guard lock(self->mu);
                             if (self->state == State::kConnecting) self->state = State::kOpen;
                           }
                           self->do_read();
                           self->do_write();
                         });
    });
  }

  void do_read() {
    with_ws([&](auto& ws) {
      ws.async_read(buffer, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        self->on_read(ec);
      });
    });
  }

  void on_read(beast::error_code ec) {
    if (ec) return finish(ec, "receive");
    {
      std::lock_guard lock(mu);
      if (inbox.size() >= options.max_inbox) {
        state = State::kClosed;
        error = "too many unread messages from the server";
      } else {
        inbox.push_back(beast::buffers_to_string(buffer.data()));
      }
    }
    buffer.consume(buffer.size());
    if (current_state() == State::kClosed) {
      beast::error_code ignored;
      lowest().socket().close(ignored);
      return;
    }
    do_read();
  }

  State current_state() const {
    std::lock_guard lock(mu);
    return state;
  }

  // One write in flight; the next starts from its handler.
  void do_write() {
    if (writing || outbox.empty() || current_state() != State::kOpen || closing) return;
    writing = true;
    with_ws([&](auto& ws) {
      ws.async_write(asio::buffer(outbox.front()),
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       self->writing = false;
                       self->outbox.pop_front();
                       {
                         std::lock_guard lock(self->mu);
                         --self->queued_out;
                       }
                       if (ec) return self->finish(ec, "send");
                       self->do_write();
                     });
    });
  }

  void do_close() {
    if (closing) return;
    closing = true;
    if (current_state() != State::kOpen) {
      fail("closed");
      beast::error_code ignored;
      resolver.cancel();
      lowest().socket().close(ignored);
      return;
    }
    lowest().expires_after(kCloseTimeout);
    with_ws([&](auto& ws) {
      ws.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {
        self->fail("closed");
        beast::error_code ignored;
        self->lowest().socket().close(ignored);
      });
    });
  }
};

WsPump::WsPump(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::unique_ptr<WsPump> WsPump::start(std::string_view url, Options options) {
  auto impl = std::make_shared<Impl>();
  impl->options = options;
  auto address = WsAddress::parse(url);
  if (!address) {
    impl->state = State::kClosed;
    impl->error = "not a ws:// or wss:// address: " + std::string(url);
    return std::unique_ptr<WsPump>(new WsPump(std::move(impl)));
  }
  impl->address = *address;
  if (address->tls) {
    beast::error_code ec;
    impl->tls.set_default_verify_paths(ec);
    if (!options.ca_file.empty()) impl->tls.load_verify_file(options.ca_file, ec);
    if (ec) {
      impl->state = State::kClosed;
      impl->error = "cannot read the certificates " + options.ca_file + ": " + ec.message();
      return std::unique_ptr<WsPump>(new WsPump(std::move(impl)));
    }
    impl->tls.set_verify_mode(options.verify_peer ? ssl::verify_peer : ssl::verify_none);
  }
  impl->begin();
  impl->thread = std::thread([raw = impl.get()] { raw->ioc.run(); });
  return std::unique_ptr<WsPump>(new WsPump(std::move(impl)));
}

WsPump::~WsPump() {
  if (!impl_->thread.joinable()) return;
  close();
  // The close is bounded by kCloseTimeout; stop() is the backstop for a peer that hangs.
  const auto until = std::chrono::steady_clock::now() + kCloseTimeout * 2;
  while (state() != State::kClosed && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  impl_->ioc.stop();
  impl_->thread.join();
  // Handlers still queued hold the Impl; running them once more (every socket is closed, so
  // each ends at once) releases them instead of leaking the cycle.
  impl_->ioc.restart();
  impl_->ioc.run_for(std::chrono::milliseconds(200));
}

WsPump::State WsPump::state() const {
  return impl_->current_state();
}

std::string WsPump::error() const {
  std::lock_guard lock(impl_->mu);
  return impl_->error;
}

bool WsPump::send(std::string frame) {
  {
    std::lock_guard lock(impl_->mu);
    if (impl_->state == State::kClosed) return false;
    if (impl_->queued_out >= impl_->options.max_outbox) return false;
    ++impl_->queued_out;
  }
  asio::post(impl_->ioc, [impl = impl_, frame = std::move(frame)]() mutable {
    impl->outbox.push_back(std::move(frame));
    impl->do_write();
  });
  return true;
}

std::optional<std::string> WsPump::poll() {
  std::lock_guard lock(impl_->mu);
  if (impl_->inbox.empty()) return std::nullopt;
  std::string out = std::move(impl_->inbox.front());
  impl_->inbox.pop_front();
  return out;
}

void WsPump::close() {
  asio::post(impl_->ioc, [impl = impl_] { impl->do_close(); });
}

}  // namespace castra::client
