#include "client/net/ws_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace castra::client {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

std::optional<Url> Url::parse(std::string_view text) {
  constexpr std::string_view kScheme = "ws://";
  if (text.substr(0, kScheme.size()) != kScheme) return std::nullopt;
  text.remove_prefix(kScheme.size());
  const auto slash = text.find('/');
  const std::string_view authority = text.substr(0, slash);
  Url url;
  url.path = slash == std::string_view::npos ? "/" : std::string(text.substr(slash));
  const auto colon = authority.rfind(':');
  if (colon == std::string_view::npos) {
    url.host = authority;
    url.port = "80";
  } else {
    url.host = authority.substr(0, colon);
    url.port = authority.substr(colon + 1);
  }
  if (url.host.empty() || url.port.empty()) return std::nullopt;
  return url;
}

struct WsClient::Impl {
  boost::asio::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;

  // Runs the io_context until `done` or the timeout; on timeout the socket is closed.
  bool run_until(const bool& done, std::chrono::milliseconds timeout) {
    ioc.restart();
    ioc.run_for(timeout);
    if (!done) {
      beast::get_lowest_layer(ws).close();
      ioc.restart();
      ioc.run();
      return false;
    }
    return true;
  }
};

WsClient::WsClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WsClient::~WsClient() = default;

std::unique_ptr<WsClient> WsClient::connect(std::string_view text, std::chrono::milliseconds timeout,
                                            std::string* error) {
  auto url = Url::parse(text);
  if (!url) {
    *error = "not a ws:// address: " + std::string(text);
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  beast::error_code ec;
  tcp::resolver resolver(impl->ioc);
  auto results = resolver.resolve(url->host, url->port, ec);
  if (ec) {
    *error = "resolve " + url->host + ": " + ec.message();
    return nullptr;
  }
  bool done = false;
  auto& stream = beast::get_lowest_layer(impl->ws);
  stream.async_connect(results, [&](beast::error_code e, const tcp::endpoint&) {
    if (e) {
      ec = e;
      done = true;
      return;
    }
    impl->ws.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
      req.set(beast::http::field::user_agent, "castra-client");
    }));
    impl->ws.binary(true);
    impl->ws.async_handshake(url->host + ":" + url->port, url->path, [&](beast::error_code e2) {
      ec = e2;
      done = true;
    });
  });
  if (!impl->run_until(done, timeout)) {
    *error = "connect timed out";
    return nullptr;
  }
  if (ec) {
    *error = "connect: " + ec.message();
    return nullptr;
  }
  return std::unique_ptr<WsClient>(new WsClient(std::move(impl)));
}

bool WsClient::send(std::string_view frame, std::chrono::milliseconds timeout, std::string* error) {
  bool done = false;
  beast::error_code ec;
  impl_->ws.async_write(boost::asio::buffer(frame.data(), frame.size()),
                        [&](beast::error_code e, std::size_t) {
                          ec = e;
                          done = true;
                        });
  if (!impl_->run_until(done, timeout)) {
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
  bool done = false;
  beast::error_code ec;
  impl_->buffer.clear();
  impl_->ws.async_read(impl_->buffer, [&](beast::error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  if (!impl_->run_until(done, timeout)) {
    *error = "receive timed out";
    return std::nullopt;
  }
  if (ec) {
    *error = ec == websocket::error::closed ? "closed by server" : "receive: " + ec.message();
    return std::nullopt;
  }
  return beast::buffers_to_string(impl_->buffer.data());
}

bool WsClient::close(std::chrono::milliseconds timeout) {
  bool done = false;
  beast::error_code ec;
  impl_->ws.async_close(websocket::close_code::normal, [&](beast::error_code e) {
    ec = e;
    done = true;
  });
  return impl_->run_until(done, timeout) && !ec;
}

std::uint16_t WsClient::close_code() const { return impl_->ws.reason().code; }
bool WsClient::is_open() const { return impl_->ws.is_open(); }

}  // namespace castra::client
