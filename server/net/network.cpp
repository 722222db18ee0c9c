#include "server/net/network.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <csignal>
#include <memory>
#include <thread>
#include <vector>

#include "server/net/listener.hpp"
#include "server/net/shared_state.hpp"

namespace castra::net {

int run_network(const NetOptions& options,
                const std::function<void(std::uint16_t)>& on_listening) {
  boost::asio::io_context ioc(options.threads);
  auto state = std::make_shared<SharedState>();

  boost::beast::error_code ec;
  const auto address = boost::asio::ip::make_address(options.address, ec);
  if (ec) {
    spdlog::error("event=bad_address address={} error=\"{}\"", options.address, ec.message());
    return 2;
  }
  auto listener = std::make_shared<Listener>(ioc, state, options);
  if (!listener->open({address, options.port}, ec)) {
    spdlog::error("event=listen_failed address={} port={} error=\"{}\"", options.address,
                  options.port, ec.message());
    return 2;
  }
  listener->run();
  on_listening(listener->port());

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
    *deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.shutdown_grace_seconds);
    listener->stop();
    state->shut_down_all();
    wait_for_sessions();
  });

  std::vector<std::thread> threads;
  for (int i = 1; i < options.threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : threads) t.join();
  spdlog::info("event=stopped");
  return 0;
}

}  // namespace castra::net
