// ServerApp: the application behind the network front. Frames are parsed on the network
// threads, then every request runs on one service thread (dispatch, accounts, lobby, chat),
// with Argon2id on a small hashing pool; both queues are bounded, and a full one answers
// ERROR_SERVER_BUSY. The service thread never waits on disk: its writes are jobs for the
// store's writer, refused (busy) rather than waited for when the writer's queue is full, and
// answered after their commit. Built by main (or a test) on its thread; net::Application's
// methods are called by the network threads as documented there.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "server/accounts/account_store.hpp"
#include "server/accounts/accounts.hpp"
#include "server/admin/admin_commands.hpp"
#include "server/app/stores.hpp"
#include "server/base/clock.hpp"
#include "server/base/metrics.hpp"
#include "server/base/task_queue.hpp"
#include "server/campaign/campaign_store.hpp"
#include "server/campaign/campaigns.hpp"
#include "server/campaign/definitions.hpp"
#include "server/dispatch/clients.hpp"
#include "server/dispatch/dispatcher.hpp"
#include "server/dispatch/handlers.hpp"
#include "server/lobby/chat_store.hpp"
#include "server/lobby/lobby.hpp"
#include "server/lobby/scenarios.hpp"
#include "server/net/network.hpp"
#include "server/notify/notifier.hpp"
#include "server/notify/target_store.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra::server {

struct AppOptions {
  net::NetOptions net;
  accounts::AccountOptions accounts;
  lobby::LobbyOptions lobby;
  notify::NotifyOptions notify;
  int hash_threads = 1;
  std::size_t hash_queue = 64;
  std::size_t service_queue = 1024;  // x max frame bytes: the worst case of its memory
  std::string server_name = "castra-server";
  // Cluster mode: where an unfinished match this node does not host is (the dispatcher's
  // ERROR_MATCH_ELSEWHERE); empty: every match is this server's.
  std::function<std::optional<Failure>(const std::string& match_id)> placement;
  // Cluster mode: where the campaigns are hosted (nothing while this node hosts them); with
  // it the campaigns wait for host_campaigns(true) instead of being recovered at once.
  std::function<std::optional<Failure>()> campaign_placement;
};

class ServerApp final : public net::Application, public dispatch::MatchLookup {
 public:
  // `store` holds every table (the service thread's through its writer and read connection);
  // `play` hosts the matches; `clock` is what accounts and the lobby read.
  // `campaigns` are the definitions it offers; its campaigns are recovered here (the runtime's
  // matches must have been recovered first).
  ServerApp(AppOptions options, store::SqliteMatchStore& store, lobby::Scenarios scenarios,
            runtime::Runtime& play, const Clock& clock,
            campaign_server::Definitions campaigns = {});
  // The same over any database: `make_stores` builds every store (app/stores.hpp).
  ServerApp(AppOptions options, MakeStores make_stores, lobby::Scenarios scenarios,
            runtime::Runtime& play, const Clock& clock,
            campaign_server::Definitions campaigns = {});
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
  // The campaigns' deadlines (the server's ticker calls it every few hundred milliseconds).
  void tick();

  // Cluster mode, another node's notices (LISTEN/NOTIFY), from any thread: taken to the
  // service thread and pushed to this node's connections (Handlers::remote_*).
  void remote_match_changed(std::string match_id);
  void remote_your_move(std::string match_id, std::int64_t account, std::int64_t deadline_ms);
  void remote_campaign_changed(std::string campaign_id);
  // Cluster mode, from any thread: this node took the campaigns role (true) or lost it.
  void host_campaigns(bool hosting);

  // Deadline reminders outside the client: remind() from any thread.
  notify::Notifier& notifier() { return *notifier_; }

 private:
  std::optional<store::MatchRow> find(const std::string& match_id) override;
  std::optional<Failure> elsewhere(const store::MatchRow& row) override;
  void refuse(const std::shared_ptr<net::Connection>& connection, std::uint64_t request_id,
              const Failure& failure);

  // Takes a task to the service thread; dropped once the service queue has stopped or gone
  // (the runtime's and the writer's answers may come later than that).
  std::function<void(std::function<void()>)> to_service() const;

  AppOptions options_;
  std::atomic<bool> stopping_{false};
  const Clock& clock_;
  Metrics metrics_;
  lobby::Scenarios scenarios_;
  runtime::Runtime& play_;
  // ~ServerApp stops both queues first: their tasks use everything below. Shared so that a
  // late answer can tell it is gone (to_service).
  std::shared_ptr<TaskQueue> service_;
  std::unique_ptr<Stores> stores_;
  // Stopped first: its worker reads the notification targets.
  std::unique_ptr<notify::Notifier> notifier_;
  campaign_server::Definitions definitions_;
  std::unique_ptr<campaign_server::Campaigns> campaigns_;
  std::unique_ptr<TaskQueue> hash_pool_;
  std::unique_ptr<accounts::Accounts> accounts_;
  std::unique_ptr<lobby::Lobby> lobby_;
  dispatch::Clients clients_;
  std::unique_ptr<dispatch::Handlers> handlers_;
  std::unique_ptr<dispatch::Dispatcher> dispatcher_;
  std::unique_ptr<admin::AdminCommands> admin_;
};

}  // namespace castra::server
