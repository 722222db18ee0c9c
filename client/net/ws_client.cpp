#include "client/net/ws_client.hpp"

#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <functional>

namespace castra::client {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;

std::optional<Url> Url::parse(std::string_view text) {
  Url url;
  if (text.substr(0, 5) == "ws://") {
    text.remove_prefix(5);
  } else if (text.substr(0, 6) == "wss://") {
    text.remove_prefix(6);
    url.tls = true;
  } else {
    return std::nullopt;
  }
  const auto slash = text.find('/');
  const std::string_view authority = text.substr(0, slash);
  url.path = slash == std::string_view::npos ? "/" : std::string(text.substr(slash));
  const auto colon = authority.rfind(':');
  if (colon == std::string_view::npos) {
    url.host = authority;
    url.port = url.tls ? "443" : "80";
  } else {
    url.host = authority.substr(0, colon);
    url.port = authority.substr(colon + 1);
  }
  if (url.host.empty() || url.port.empty()) return std::nullopt;
  return url;
}

// The stream operations WsClient needs, over a plain or a TLS stream.
struct WsClient::Impl {
  boost::asio::io_context ioc;
  beast::flat_buffer buffer;
  std::string subprotocol;  // the server's answer
  virtual ~Impl() = default;

  virtual tcp::socket& socket() = 0;
  virtual void async_open(const Url& url, const ClientOptions& options,
                          std::function<void(beast::error_code)> done) = 0;
  virtual void async_write(std::string_view frame, bool text,
                           std::function<void(beast::error_code)> done) = 0;
  virtual void async_read(std::function<void(beast::error_code)> done) = 0;
  virtual void async_close(std::function<void(beast::error_code)> done) = 0;
  virtual websocket::close_reason reason() const = 0;
  virtual bool is_open() const = 0;
  virtual bool got_text() const = 0;

  // A read stays pending across receive() calls that time out, so that a timeout does not
  // break the stream; its outcome waits here for the next receive().
  bool reading = false;
  bool read_done = false;
  beast::error_code read_ec;

  // Runs handlers until `done` or the timeout; false on timeout.
  bool run_until(const bool& done, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return false;
      if (ioc.stopped()) ioc.restart();
      // Out of work: nothing is left that could finish it.
      if (ioc.run_one_for(deadline - now) == 0 && ioc.stopped()) return done;
    }
    return true;
  }

  // Gives up on the connection: pending operations end with an error.
  void abort() {
    beast::error_code ignored;
    socket().close(ignored);
    ioc.restart();
    ioc.poll();
  }
};

namespace {

template <class NextLayer>
struct StreamImpl : WsClient::Impl {
  std::optional<ssl::context> tls;
  std::optional<websocket::stream<NextLayer>> ws;
  websocket::response_type response;

  tcp::socket& socket() override { return beast::get_lowest_layer(*ws).socket(); }

  void handshake(const Url& url, const ClientOptions& options,
                 std::function<void(beast::error_code)> done) {
    ws->set_option(websocket::stream_base::decorator(
        [headers = options.headers, asked = options.subprotocol](websocket::request_type& req) {
          req.set(beast::http::field::user_agent, "castra-client");
          if (!asked.empty()) req.set(beast::http::field::sec_websocket_protocol, asked);
          for (const auto& [k, v] : headers)
            req.insert(k, v);  // a name given twice is two header lines, as a proxy may send
        }));
    ws->binary(true);
    ws->read_message_max(64 * 1024 * 1024);
    ws->async_handshake(
        response, url.host + ":" + url.port, url.path,
        [this, asked = options.subprotocol, done = std::move(done)](beast::error_code e) {
          const auto answer = response[beast::http::field::sec_websocket_protocol];
          subprotocol.assign(answer.data(), answer.size());
          if (!e && subprotocol != asked) e = websocket::error::upgrade_declined;
          done(e);
        });
  }

  void async_open(const Url& url, const ClientOptions& options,
                  std::function<void(beast::error_code)> done) override {
    tcp::resolver resolver(ioc);
    beast::error_code ec;
    auto results = resolver.resolve(url.host, url.port, ec);
    if (ec) return done(ec);
    auto& stream = beast::get_lowest_layer(*ws);
    if (options.receive_buffer_bytes > 0) {
      stream.socket().open(tcp::v4(), ec);
      if (!ec) {
        stream.socket().set_option(
            boost::asio::socket_base::receive_buffer_size(options.receive_buffer_bytes), ec);
      }
      if (ec) return done(ec);
    }
    stream.async_connect(
        results, [this, url, options, done](beast::error_code e, const tcp::endpoint&) {
          if (e) return done(e);
          // A request is one small write: waiting for the server's delayed ACK (Nagle) would
          // add tens of milliseconds to every command.
          beast::error_code nodelay_error;
          beast::get_lowest_layer(*ws).socket().set_option(tcp::no_delay(true), nodelay_error);
          if constexpr (std::is_same_v<NextLayer, beast::tcp_stream>) {
            handshake(url, options, done);
          } else {
            SSL* native = ws->next_layer().native_handle();
            // SNI for names; certificate checks against the host, by name or by IP address.
            boost::system::error_code parse_error;
            boost::asio::ip::make_address(url.host, parse_error);
            if (parse_error) SSL_set_tlsext_host_name(native, url.host.c_str());
            if (options.verify_peer) {
              X509_VERIFY_PARAM* param = SSL_get0_param(native);
              if (parse_error) {
                X509_VERIFY_PARAM_set1_host(param, url.host.c_str(), 0);
              } else {
                X509_VERIFY_PARAM_set1_ip_asc(param, url.host.c_str());
              }
            }
            ws->next_layer().async_handshake(ssl::stream_base::client,
                                             [this, url, options, done](beast::error_code e2) {
                                               if (e2) return done(e2);
                                               handshake(url, options, done);
                                             });
          }
        });
  }

  void async_write(std::string_view frame, bool text,
                   std::function<void(beast::error_code)> done) override {
    ws->text(text);
    ws->async_write(boost::asio::buffer(frame.data(), frame.size()),
                    [done](beast::error_code e, std::size_t) { done(e); });
  }

  void async_read(std::function<void(beast::error_code)> done) override {
    ws->async_read(buffer, [done](beast::error_code e, std::size_t) { done(e); });
  }

  void async_close(std::function<void(beast::error_code)> done) override {
    ws->async_close(websocket::close_code::normal, std::move(done));
  }

  websocket::close_reason reason() const override { return ws->reason(); }
  bool is_open() const override { return ws->is_open(); }
  bool got_text() const override { return ws->got_text(); }
};

}  // namespace

WsClient::WsClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WsClient::~WsClient() = default;

std::unique_ptr<WsClient> WsClient::connect(std::string_view text,
                                            std::chrono::milliseconds timeout, std::string* error,
                                            const ClientOptions& options) {
  auto url = Url::parse(text);
  if (!url) {
    *error = "not a ws:// or wss:// address: " + std::string(text);
    return nullptr;
  }
  std::unique_ptr<Impl> impl;
  if (url->tls) {
    auto tls_impl = std::make_unique<StreamImpl<beast::ssl_stream<beast::tcp_stream>>>();
    tls_impl->tls.emplace(ssl::context::tls_client);
    beast::error_code ec;
    if (!options.ca_file.empty()) {
      tls_impl->tls->load_verify_file(options.ca_file, ec);
    } else {
      tls_impl->tls->set_default_verify_paths(ec);
    }
    if (ec) {
      *error = "TLS trust store: " + ec.message();
      return nullptr;
    }
    tls_impl->tls->set_verify_mode(options.verify_peer ? ssl::verify_peer : ssl::verify_none);
    tls_impl->ws.emplace(tls_impl->ioc, *tls_impl->tls);
    impl = std::move(tls_impl);
  } else {
    auto plain = std::make_unique<StreamImpl<beast::tcp_stream>>();
    plain->ws.emplace(plain->ioc);
    impl = std::move(plain);
  }
  bool done = false;
  beast::error_code ec;
  impl->async_open(*url, options, [&](beast::error_code e) {
    ec = e;
    done = true;
  });
  if (!impl->run_until(done, timeout)) {
    impl->abort();
    *error = "connect timed out";
    return nullptr;
  }
  if (ec) {
    *error = "connect: " + ec.message();
    return nullptr;
  }
  return std::unique_ptr<WsClient>(new WsClient(std::move(impl)));
}

bool WsClient::send(std::string_view frame, std::chrono::milliseconds timeout, std::string* error,
                    bool text) {
  bool done = false;
  beast::error_code ec;
  impl_->async_write(frame, text, [&](beast::error_code e) {
    ec = e;
    done = true;
  });
  if (!impl_->run_until(done, timeout)) {
    impl_->abort();
    *error = "send timed out";
    return false;
  }
  if (ec) {
    *error = "send: " + ec.message();
    return false;
  }
  return true;
}

std::optional<std::string> WsClient::receive(std::chrono::milliseconds timeout,
                                             std::string* error) {
  Impl& impl = *impl_;
  if (!impl.reading) {
    impl.reading = true;
    impl.read_done = false;
    impl.buffer.clear();
    impl.async_read([&impl](beast::error_code e) {
      impl.read_ec = e;
      impl.read_done = true;
    });
  }
  if (!impl.run_until(impl.read_done, timeout)) {
    *error = "receive timed out";
    return std::nullopt;
  }
  impl.reading = false;
  if (impl.read_ec) {
    *error = impl.read_ec == websocket::error::closed ? "closed by server"
                                                      : "receive: " + impl.read_ec.message();
    return std::nullopt;
  }
  return beast::buffers_to_string(impl.buffer.data());
}

bool WsClient::close(std::chrono::milliseconds timeout) {
  bool done = false;
  beast::error_code ec;
  impl_->async_close([&](beast::error_code e) {
    ec = e;
    done = true;
  });
  if (!impl_->run_until(done, timeout)) {
    impl_->abort();
    return false;
  }
  return !ec;
}

bool WsClient::received_text() const {
  return impl_->got_text();
}
const std::string& WsClient::subprotocol() const {
  return impl_->subprotocol;
}

std::uint16_t WsClient::close_code() const {
  return impl_->reason().code;
}
std::string WsClient::close_reason() const {
  const auto reason = impl_->reason();
  return std::string(reason.reason.data(), reason.reason.size());
}
bool WsClient::is_open() const {
  return impl_->is_open();
}

}  // namespace castra::client
