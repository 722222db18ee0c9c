#include "server/store/writer.hpp"

#include <sqlite3.h>

#include <cassert>
#include <future>
#include <optional>
#include <utility>
#include <vector>

namespace castra::store {

Writer::Writer(Db& db, WriterOptions options, std::mutex* batch_lock)
    : db_(db), options_(options), batch_lock_(batch_lock), thread_([this] { loop(); }) {
  assert(options_.queue_capacity > 0 && options_.max_batch > 0);
}

Writer::~Writer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  has_work_.notify_all();
  has_room_.notify_all();
  thread_.join();
}

void Writer::submit(Work work, Done done) {
  assert(!on_writer_thread() && "a job submitted from the writer thread could wait on itself");
  std::unique_lock lock(mutex_);
  ++stats_.blocked_submitters;
  has_room_.wait(lock, [&] { return stopping_ || queue_.size() < options_.queue_capacity; });
  --stats_.blocked_submitters;
  if (stopping_) {
    lock.unlock();
    if (done) done(Status{SQLITE_MISUSE, "the store is closing: nothing more is written"});
    return;
  }
  queue_.push_back(Job{std::move(work), std::move(done)});
  ++stats_.queued;
  lock.unlock();
  has_work_.notify_one();
}

bool Writer::try_submit(Work work, Done done) {
  assert(!on_writer_thread());
  std::unique_lock lock(mutex_);
  if (!stopping_ && queue_.size() >= options_.queue_capacity) return false;
  if (stopping_) {
    lock.unlock();
    if (done) done(Status{SQLITE_MISUSE, "the store is closing: nothing more is written"});
    return true;
  }
  queue_.push_back(Job{std::move(work), std::move(done)});
  ++stats_.queued;
  lock.unlock();
  has_work_.notify_one();
  return true;
}

Status Writer::run(Work work) {
  std::promise<Status> outcome;
  std::future<Status> result = outcome.get_future();
  submit(std::move(work), [&outcome](Status s) { outcome.set_value(std::move(s)); });
  return result.get();
}

Status Writer::flush() {
  return run(Work());
}

WriterStats Writer::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void Writer::loop() {
  for (;;) {
    std::deque<Job> batch;
    {
      std::unique_lock lock(mutex_);
      has_work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued has been written
      // Whatever is waiting now shares one commit; nothing waits for more to arrive.
      const std::size_t n = std::min(queue_.size(), options_.max_batch);
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      stats_.queued -= n;
    }
    has_room_.notify_all();
    write_batch(batch);
  }
}

Status Writer::run_job(Job& job) {
  if (!job.work) return Status::success();
  // When a savepoint cannot be closed cleanly, the whole transaction goes: the batch fails
  // (the caller sees autocommit) rather than commit part of a job.
  auto abandon = [this](Status why) {
    db_.exec("ROLLBACK");
    return why;
  };
  Status s;
  {
    Lease begin = db_.statement("SAVEPOINT job", &s);
    if (s.ok()) s = begin->run();
    if (!s.ok()) return abandon(s);
  }
  Status outcome = job.work(db_);
  if (outcome.ok()) {
    Lease release = db_.statement("RELEASE job", &s);
    if (s.ok()) s = release->run();
    return s.ok() ? s : abandon(s);
  }
  // SQLite ends the whole transaction by itself after some errors (I/O, full disk): then
  // there is no savepoint to go back to, and the caller sees autocommit.
  if (db_.autocommit()) return outcome;
  Lease back = db_.statement("ROLLBACK TO job", &s);
  if (s.ok()) s = back->run();
  if (!s.ok()) return abandon(outcome);
  Lease release = db_.statement("RELEASE job", &s);
  if (s.ok()) s = release->run();
  if (!s.ok()) return abandon(outcome);
  return outcome;
}

void Writer::write_batch(std::deque<Job>& batch) {
  std::vector<Status> outcomes(batch.size());
  Status batch_failure;
  {
    std::unique_lock<std::mutex> shared;
    if (batch_lock_ != nullptr) shared = std::unique_lock(*batch_lock_);
    Status earlier;
    {
      std::lock_guard lock(mutex_);
      earlier = failed_;
    }
    if (!earlier.ok()) {
      batch_failure = Status{earlier.code, "the store stopped writing after an earlier failure (" +
                                               earlier.message + ")"};
    } else {
      Transaction tx(db_);
      batch_failure = tx.begun();
      for (std::size_t i = 0; batch_failure.ok() && i < batch.size(); ++i) {
        outcomes[i] = run_job(batch[i]);
        if (!outcomes[i].ok() && db_.autocommit()) batch_failure = outcomes[i];
      }
      if (batch_failure.ok() && options_.before_commit) batch_failure = options_.before_commit();
      if (batch_failure.ok()) batch_failure = tx.commit();
    }
  }

  std::uint64_t failed = 0;
  if (!batch_failure.ok()) {
    // Nothing of this batch is in the database: every job hears so.
    for (Status& s : outcomes) {
      s = batch_failure;
    }
    failed = batch.size();
  } else {
    for (const Status& s : outcomes) {
      if (!s.ok()) ++failed;
    }
  }
  {
    std::lock_guard lock(mutex_);
    if (!batch_failure.ok() && failed_.ok()) failed_ = batch_failure;
    stats_.jobs += batch.size();
    stats_.failed_jobs += failed;
    if (batch_failure.ok()) ++stats_.commits;
    stats_.largest_batch = std::max<std::uint64_t>(stats_.largest_batch, batch.size());
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].done) batch[i].done(std::move(outcomes[i]));
  }
}

}  // namespace castra::store
