// Listener: accepts connections and starts an HttpSession for each on its own strand, over
// TLS when the server has a certificate. Only server/net/*.cpp include this.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>

#include <memory>

#include "server/net/shared_state.hpp"

namespace castra::net {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // `tls`: null for plain TCP.
  Listener(boost::asio::io_context& ioc, std::shared_ptr<SharedState> state,
           boost::asio::ssl::context* tls);
  // Opens, binds and listens; false (and `ec`) when the address cannot be used.
  bool open(const boost::asio::ip::tcp::endpoint& endpoint, boost::beast::error_code& ec);
  std::uint16_t port() const;
  void run();
  void stop();

 private:
  void do_accept();
  void on_accept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer backoff_;
  std::shared_ptr<SharedState> state_;
  boost::asio::ssl::context* tls_;
};

}  // namespace castra::net
