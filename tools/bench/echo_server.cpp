// castra-bench-echo: the raw WebSocket baseline (docs/load.md). Accepts WebSockets on any
// path and sends every frame straight back, on one thread, with nothing else to do: the most
// messages per second Beast serves on this machine, to set Castra's figures against. Prints
// "listening on PORT" once it accepts; runs until killed.
#include <CLI/CLI.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <iostream>
#include <memory>

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

// One connection: read a frame, write it back, read the next.
class Echo : public std::enable_shared_from_this<Echo> {
 public:
  explicit Echo(tcp::socket socket) : ws_(std::move(socket)) {}

  void start() {
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->do_read();
    });
  }

 private:
  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->ws_.binary(self->ws_.got_binary());
      self->ws_.async_write(self->buffer_.data(),
                            [self](beast::error_code e, std::size_t) { self->on_write(e); });
    });
  }

  void on_write(beast::error_code ec) {
    if (ec) return;
    buffer_.consume(buffer_.size());
    do_read();
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

void do_accept(tcp::acceptor& acceptor) {
  acceptor.async_accept([&acceptor](beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<Echo>(std::move(socket))->start();
    do_accept(acceptor);
  });
}

}  // namespace

int main(int argc, char** argv) {
  std::string address = "127.0.0.1";
  unsigned short port = 0;
  CLI::App app{"castra-bench-echo: a WebSocket echo server, the raw baseline of castra-load"};
  app.add_option("--address", address, "Address to listen on")->capture_default_str();
  app.add_option("--port", port, "Port (0: any free one)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  boost::asio::io_context ioc(1);
  tcp::acceptor acceptor(ioc, tcp::endpoint(boost::asio::ip::make_address(address), port));
  acceptor.listen(4096);
  std::cout << "listening on " << acceptor.local_endpoint().port() << std::endl;
  do_accept(acceptor);
  ioc.run();
  return 0;
}
