#include "server/postgres/pg_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <thread>

namespace castra::postgres {

using store::Status;
namespace codes = store::status_codes;
using Clock = std::chrono::steady_clock;

PgSession::PgSession(std::string url, std::string role, Prepare prepare)
    : url_(std::move(url)), role_(std::move(role)), prepare_(std::move(prepare)) {}

Status PgSession::run(const Work& work, std::chrono::milliseconds patience) {
  const Clock::time_point until = Clock::now() + patience;
  for (int attempt = 0;; ++attempt) {
    if (!connection_) {
      if (Status s = reconnect(until); !s.ok()) return s;
    }
    bool lost = false;
    Status s = guarded([&] {
      try {
        return work(*connection_);
      } catch (const pqxx::broken_connection& e) {
        lost = true;
        return Status{codes::kIoError, e.what()};
      }
    });
    if (!lost) return s;
    spdlog::warn("event=database_connection_lost role={} error=\"{}\"", role_, s.message);
    connection_.reset();
    if (attempt == 1) return s;  // lost again at once: the database is not there to retry on
  }
}

Status PgSession::reconnect(Clock::time_point until) {
  // Quick at first (a terminated backend is back at once), then once a second at most.
  std::chrono::milliseconds pause{50};
  for (;;) {
    Status s;
    std::unique_ptr<pqxx::connection> c = connect(url_, &s);
    if (c && prepare_) {
      s = guarded([&] {
        prepare_(*c);
        return Status::success();
      });
    }
    if (c && s.ok()) {
      connection_ = std::move(c);
      if (ever_connected_) {
        ++reconnections_;
        spdlog::info("event=database_reconnected role={}", role_);
      }
      ever_connected_ = true;
      return s;
    }
    if (Clock::now() + pause > until) {
      return Status{codes::kIoError, "the database cannot be reached: " + s.message};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds{1000});
  }
}

}  // namespace castra::postgres
