// Writer: the one thread that writes to Castra's database. It drains a bounded queue of jobs:
// every job waiting when it wakes (up to max_batch) runs in one transaction, each job inside
// its own savepoint, then one COMMIT (group commit), then each job's callback in queue order.
// No callback runs before its commit, and none waits for a later one.
// Threading: submit(), try_submit(), run(), flush() and stats() from any thread but the
// writer's own; callbacks run on the writer thread and must be quick (post the result
// elsewhere). A thread that must never wait (the service thread) uses try_submit only.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "server/store/sqlite.hpp"

namespace castra::store {

struct WriterOptions {
  std::size_t queue_capacity = 4096;  // jobs waiting; submit() blocks while the queue is full
  std::size_t max_batch = 512;        // jobs per transaction
  // Tests only (a slow or failing disk): runs on the writer thread after a batch's jobs and
  // before its COMMIT, and may block there; a failure it returns fails the batch as a failed
  // COMMIT would. Empty in the server.
  std::function<Status()> before_commit;
};

struct WriterStats {
  std::uint64_t jobs = 0;         // jobs finished, committed or failed
  std::uint64_t commits = 0;      // transactions committed
  std::uint64_t failed_jobs = 0;  // jobs whose writes were rolled back
  std::uint64_t largest_batch = 0;
  std::uint64_t queued = 0;              // jobs waiting now
  std::uint64_t blocked_submitters = 0;  // submit() calls waiting for room now
};

class Writer {
 public:
  // The job's writes, on the writer's connection inside a savepoint. A failing job is rolled
  // back alone and the rest of its batch commits.
  using Work = std::function<Status(Db&)>;
  // The job's outcome, after its batch committed (or failed).
  using Done = std::function<void(Status)>;

  // Starts the thread over `db`, which must outlive the Writer. `batch_lock`, if given, is held
  // from BEGIN to COMMIT: a reader sharing this connection (":memory:") takes it too.
  Writer(Db& db, WriterOptions options, std::mutex* batch_lock = nullptr);
  // Runs every job already queued, then stops the thread.
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void submit(Work work, Done done);
  // Queues the job unless the queue is full, never waiting: false (and `done` not called)
  // when it is full.
  bool try_submit(Work work, Done done);
  // Submits and waits for the outcome.
  Status run(Work work);
  // Waits until every job queued before it has committed; the sticky failure if any.
  Status flush();
  WriterStats stats() const;
  bool on_writer_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

 private:
  struct Job {
    Work work;  // empty: a flush marker
    Done done;
  };

  void loop();
  void write_batch(std::deque<Job>& batch);
  Status run_job(Job& job);

  Db& db_;
  const WriterOptions options_;
  std::mutex* batch_lock_;

  mutable std::mutex mutex_;
  std::condition_variable has_work_;
  std::condition_variable has_room_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  // Set by the first failed BEGIN or COMMIT, or a job failure that ended the transaction:
  // every later job fails with it (whatever was in memory is now ahead of the database).
  Status failed_;
  WriterStats stats_;

  std::thread thread_;  // last: starts once every other member is ready
};

}  // namespace castra::store
