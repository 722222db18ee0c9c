// PgSession: one of the store's long-lived connections (the writer's, the reads'), made again
// when the database drops it (a restart, a failover, pg_terminate_backend, a session timeout).
// Work that fails because the connection was found lost (pqxx::broken_connection: nothing it
// did was committed) runs once more on a new connection; an outcome libpqxx cannot know
// (pqxx::in_doubt_error, the connection lost during COMMIT) is never retried: it is the
// caller's failure to handle. Reconnections are ours, logged (event=database_connection_lost,
// event=database_reconnected) and prepared like the first connection; libpqxx's own silent
// reactivation is switched off (pg.cpp, connect). One thread at a time, as a connection.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "server/postgres/pg.hpp"

namespace castra::postgres {

class PgSession {
 public:
  // Run on every new connection before it is used, for settings of the session (a throw
  // fails that connection).
  using Prepare = std::function<void(pqxx::connection&)>;
  using Work = std::function<store::Status(pqxx::connection&)>;

  // `role` names the connection in the log. Connects on the first run().
  PgSession(std::string url, std::string role, Prepare prepare = {});

  // Runs `work`, turning libpqxx's exceptions into a Status (guarded). A lost connection is
  // made again, trying for up to `patience` (0: once), and `work` runs once more on it; the
  // Status is kIoError when no connection could be made.
  store::Status run(const Work& work, std::chrono::milliseconds patience);
  // How many times a lost connection was made again (any thread).
  std::uint64_t reconnections() const { return reconnections_.load(); }

 private:
  store::Status reconnect(std::chrono::steady_clock::time_point until);

  const std::string url_;
  const std::string role_;
  const Prepare prepare_;
  std::unique_ptr<pqxx::connection> connection_;  // null: lost, or not made yet
  bool ever_connected_ = false;
  std::atomic<std::uint64_t> reconnections_{0};
};

}  // namespace castra::postgres
