// ServerApp: the application behind the network front. Frames are parsed on the network
// threads, then every request runs on one service thread (dispatch, accounts, lobby, chat),
// with Argon2id on a small hashing pool; both queues are bounded, and a full one answers
// ERROR_SERVER_BUSY. Built by main on its thread; net::Application's methods are called by
// the network threads as documented there.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "server/accounts/account_store.hpp"
#include "server/accounts/accounts.hpp"
#include "server/admin/admin_commands.hpp"
#include "server/base/metrics.hpp"
#include "server/base/task_queue.hpp"
#include "server/dispatch/clients.hpp"
#include "server/dispatch/dispatcher.hpp"
#include "server/dispatch/handlers.hpp"
#include "server/lobby/chat_store.hpp"
#include "server/lobby/lobby.hpp"
#include "server/lobby/match_runtime.hpp"
#include "server/lobby/scenarios.hpp"
#include "server/net/network.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/match_store.hpp"
#include "server/store/sql_access.hpp"

namespace castra::server {

struct AppOptions {
  net::NetOptions net;
  accounts::AccountOptions accounts;
  lobby::LobbyOptions lobby;
  int hash_threads = 1;
  std::size_t hash_queue = 64;
  std::size_t service_queue = 1024;  // x max frame bytes: the worst case of its memory
  std::string server_name = "castra-server";
};

class ServerApp final : public net::Application, public dispatch::MatchLookup {
 public:
  // `sql` reaches the service thread's tables (accounts, sessions, chat). `runtime`: the
  // match runtime; null for the lobby-only stand-in.
  ServerApp(AppOptions options, store::MatchStore& matches, store::SqlAccess& sql,
            lobby::Scenarios scenarios, lobby::MatchRuntime* runtime,
            runtime::Runtime* play = nullptr);
  ~ServerApp() override;
  ServerApp(const ServerApp&) = delete;
  ServerApp& operator=(const ServerApp&) = delete;

  void on_open(const std::shared_ptr<net::Connection>& connection) override;
  void on_message(const std::shared_ptr<net::Connection>& connection, std::string frame,
                  bool text) override;
  void on_violation(const std::shared_ptr<net::Connection>& connection,
                    net::Violation violation) override;
  void on_closed(std::uint64_t connection_id) override;
  net::HttpAnswer on_http(const net::HttpRequest& request) override;
  void on_shutdown_started() override;
  void on_stopped() override;
  void on_admin(std::string line, std::function<void(std::string)> reply) override;

 private:
  std::optional<store::MatchRow> find(const std::string& match_id) override;
  void refuse(const std::shared_ptr<net::Connection>& connection, std::uint64_t request_id,
              const Failure& failure);

  AppOptions options_;
  std::atomic<bool> stopping_{false};
  store::MatchStore& matches_;
  Metrics metrics_;
  store::SqlAccess& sql_;
  accounts::AccountStore account_store_;
  lobby::ChatStore chat_store_;
  lobby::Scenarios scenarios_;
  std::unique_ptr<lobby::MatchRuntime> own_runtime_;
  lobby::MatchRuntime& runtime_;
  runtime::Runtime* play_;
  // ~ServerApp stops both queues first: their tasks use everything below.
  std::unique_ptr<TaskQueue> service_;
  std::unique_ptr<TaskQueue> hash_pool_;
  std::unique_ptr<accounts::Accounts> accounts_;
  std::unique_ptr<lobby::Lobby> lobby_;
  dispatch::Clients clients_;
  std::unique_ptr<dispatch::Handlers> handlers_;
  std::unique_ptr<dispatch::Dispatcher> dispatcher_;
  std::unique_ptr<admin::AdminCommands> admin_;
};

}  // namespace castra::server
