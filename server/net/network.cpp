#include "server/net/network.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <csignal>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "server/net/admin_endpoint.hpp"
#include "server/net/listener.hpp"
#include "server/net/shared_state.hpp"

namespace castra::net {

namespace {

namespace ssl = boost::asio::ssl;

// TLS 1.2 and 1.3 only, the certificate chain and key from PEM files.
std::optional<ssl::context> make_tls_context(const NetOptions& options) {
  ssl::context ctx(ssl::context::tls_server);
  boost::system::error_code ec;
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                      ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                      ssl::context::single_dh_use,
                  ec);
  if (!ec) ctx.use_certificate_chain_file(options.tls_cert_file, ec);
  if (!ec) ctx.use_private_key_file(options.tls_key_file, ssl::context::pem, ec);
  if (ec) {
    spdlog::error("event=tls_failed cert={} key={} error=\"{}\"", options.tls_cert_file,
                  options.tls_key_file, ec.message());
    return std::nullopt;
  }
  return ctx;
}

}  // namespace

int run_network(const NetOptions& options, Application& application,
                const std::function<void(std::uint16_t)>& on_listening) {
  boost::asio::io_context ioc(options.threads);
  auto state = std::make_shared<SharedState>(options, application);

  std::optional<ssl::context> tls;
  if (!options.tls_cert_file.empty() || !options.tls_key_file.empty()) {
    tls = make_tls_context(options);
    if (!tls) return 2;
  }

  boost::beast::error_code ec;
  const auto address = boost::asio::ip::make_address(options.address, ec);
  if (ec) {
    spdlog::error("event=bad_address address={} error=\"{}\"", options.address, ec.message());
    return 2;
  }
  auto listener = std::make_shared<Listener>(ioc, state, tls ? &*tls : nullptr);
  if (!listener->open({address, options.port}, ec)) {
    spdlog::error("event=listen_failed address={} port={} error=\"{}\"", options.address,
                  options.port, ec.message());
    return 2;
  }
  std::shared_ptr<AdminEndpoint> admin;
  if (!options.admin_socket.empty()) {
    admin = std::make_shared<AdminEndpoint>(ioc, application);
    if (!admin->open(options.admin_socket, ec)) {
      spdlog::error("event=admin_socket_failed path={} error=\"{}\"", options.admin_socket,
                    ec.message());
      return 2;
    }
    admin->run();
  }
  listener->run();
  on_listening(listener->port());
  spdlog::info("event=serving tls={} admin_socket={}", tls ? "on" : "off",
               options.admin_socket.empty() ? "none" : options.admin_socket);

  // SIGTERM: stop accepting, close every session with "going away", and give in-flight
  // work a bounded grace period; the io threads end as soon as every session has left.
  boost::asio::signal_set signals(ioc, SIGINT, SIGTERM);
  boost::asio::steady_timer poll(ioc);
  const auto deadline = std::make_shared<std::chrono::steady_clock::time_point>();
  std::function<void()> wait_for_sessions = [&] {
    if (state->connections() == 0 || std::chrono::steady_clock::now() >= *deadline) {
      ioc.stop();
      return;
    }
    poll.expires_after(std::chrono::milliseconds(20));
    poll.async_wait([&](const boost::system::error_code& e) {
      if (!e) wait_for_sessions();
    });
  };
  signals.async_wait([&](const boost::system::error_code& error, int signal) {
    if (error) return;
    spdlog::info("event=shutdown signal={} connections={}", signal, state->connections());
    *deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(options.shutdown_grace_seconds);
    application.on_shutdown_started();
    listener->stop();
    if (admin) admin->stop();
    state->shut_down_all();
    wait_for_sessions();
  });

  std::vector<std::thread> threads;
  for (int i = 1; i < options.threads; ++i)
    threads.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : threads)
    t.join();
  spdlog::info("event=network_stopped");
  application.on_stopped();
  return 0;
}

}  // namespace castra::net
