// PgWriter: the one thread that writes to the PostgreSQL database, as store::Writer is for
// SQLite: it drains a bounded queue of jobs; every job waiting when it wakes (up to
// max_batch) runs in one transaction, each inside its own savepoint (so a failing job is
// rolled back alone), then one COMMIT (group commit, durable: the connection
// runs with synchronous_commit=on), then each job's callback in queue order. No callback runs
// before its commit. A cluster's lease epoch check belongs in that same transaction, before
// the COMMIT (docs/architecture.md). A batch that finds its connection lost before the COMMIT
// runs again, whole, on a new one (PgSession): a job's work must be SQL that may run twice,
// its outputs written afresh each time. A batch whose COMMIT's outcome is unknown (the
// connection lost during it) fails every one of its jobs.
// Threading: submit(), try_submit(), run() and flush() from any thread but the writer's own;
// callbacks run on the writer thread and must be quick (post the result elsewhere).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "server/postgres/pg.hpp"
#include "server/postgres/pg_session.hpp"

namespace castra::postgres {

class PgWriter {
 public:
  // The job's writes, inside its savepoint. A thrown libpqxx error is a failed job.
  using Work = std::function<store::Status(pqxx::transaction_base&)>;
  using Done = std::function<void(store::Status)>;

  // Starts the thread over `session`, which must outlive the PgWriter. A lost connection is
  // made again for up to `patience` before the batch fails (the queue meanwhile fills, and a
  // full queue answers "busy").
  PgWriter(PgSession& session, std::size_t queue_capacity, std::size_t max_batch,
           std::chrono::milliseconds patience);
  // Runs every job already queued, then stops the thread.
  ~PgWriter();
  PgWriter(const PgWriter&) = delete;
  PgWriter& operator=(const PgWriter&) = delete;

  // Waits while the queue is full (backpressure).
  void submit(Work work, Done done);
  // Never waits: false (and `done` not called) when the queue is full.
  bool try_submit(Work work, Done done);
  // Submits and waits for the outcome.
  store::Status run(Work work);
  // Waits until every job queued before it has committed.
  store::Status flush();
  std::uint64_t commits() const;

 private:
  struct Job {
    Work work;  // empty: a flush marker
    Done done;
  };

  void loop();
  void write_batch(std::deque<Job>& batch);
  store::Status commit_batch(pqxx::connection& connection, std::deque<Job>& batch,
                             std::vector<store::Status>& outcomes);

  PgSession& session_;
  const std::size_t capacity_;
  const std::size_t max_batch_;
  const std::chrono::milliseconds patience_;

  mutable std::mutex mutex_;
  std::condition_variable has_work_;
  std::condition_variable has_room_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::uint64_t commits_ = 0;

  std::thread thread_;  // last: starts once every other member is ready
};

}  // namespace castra::postgres
