#include "server/net/admin_endpoint.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

namespace castra::net {

namespace asio = boost::asio;
using local = asio::local::stream_protocol;

namespace {

constexpr std::size_t kMaxLine = 4096;
constexpr auto kAdminTimeout = std::chrono::seconds(10);

// One admin connection: one line in, one answer out, then closed.
class AdminSession : public std::enable_shared_from_this<AdminSession> {
 public:
  AdminSession(local::socket socket, Application& application)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        input_(kMaxLine),
        application_(application) {}

  void run() {
    timer_.expires_after(kAdminTimeout);
    timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec) {
        boost::system::error_code ignored;
        self->socket_.close(ignored);
      }
    });
    asio::async_read_until(socket_, input_, '\n',
                           [self = shared_from_this()](boost::system::error_code ec,
                                                       std::size_t n) { self->on_line(ec, n); });
  }

 private:
  void on_line(boost::system::error_code ec, std::size_t n) {
    if (ec) return;
    std::string line(asio::buffers_begin(input_.data()),
                     asio::buffers_begin(input_.data()) + static_cast<std::ptrdiff_t>(n));
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
      line.pop_back();
    application_.on_admin(std::move(line), [self = shared_from_this()](std::string answer) {
      asio::post(self->socket_.get_executor(), [self, answer = std::move(answer)]() mutable {
        self->answer_ = std::move(answer);
        asio::async_write(self->socket_, asio::buffer(self->answer_),
                          [self](boost::system::error_code, std::size_t) {
                            boost::system::error_code ignored;
                            self->socket_.shutdown(local::socket::shutdown_both, ignored);
                            self->socket_.close(ignored);
                            self->timer_.cancel();
                          });
      });
    });
  }

  local::socket socket_;
  asio::steady_timer timer_;
  asio::streambuf input_;
  Application& application_;
  std::string answer_;
};

}  // namespace

AdminEndpoint::AdminEndpoint(asio::io_context& ioc, Application& application)
    : ioc_(ioc), acceptor_(asio::make_strand(ioc)), application_(application) {}

bool AdminEndpoint::open(const std::string& path, boost::beast::error_code& ec) {
  path_ = path;
  ::unlink(path.c_str());  // a socket file left by a server that was killed
  const local::endpoint endpoint(path);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec && ::chmod(path.c_str(), S_IRUSR | S_IWUSR) != 0) {
    ec = boost::system::error_code(errno, boost::system::system_category());
  }
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  return !ec;
}

void AdminEndpoint::run() {
  do_accept();
}

void AdminEndpoint::stop() {
  asio::dispatch(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ec;
    self->acceptor_.close(ec);
    ::unlink(self->path_.c_str());
  });
}

void AdminEndpoint::do_accept() {
  acceptor_.async_accept(
      asio::make_strand(ioc_),
      [self = shared_from_this()](boost::system::error_code ec, local::socket socket) {
        if (ec == asio::error::operation_aborted) return;
        if (ec) {
          spdlog::warn("event=admin_accept_error error=\"{}\"", ec.message());
        } else {
          std::make_shared<AdminSession>(std::move(socket), self->application_)->run();
        }
        if (self->acceptor_.is_open()) self->do_accept();
      });
}

}  // namespace castra::net
