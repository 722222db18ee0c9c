#include "server/postgres/pg_writer.hpp"

#include <exception>
#include <future>
#include <optional>
#include <vector>

namespace castra::postgres {

using store::Status;

PgWriter::PgWriter(PgSession& session, std::size_t queue_capacity, std::size_t max_batch,
                   std::chrono::milliseconds patience)
    : session_(session),
      capacity_(queue_capacity),
      max_batch_(max_batch),
      patience_(patience),
      thread_([this] { loop(); }) {}

PgWriter::~PgWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  has_work_.notify_all();
  thread_.join();
}

void PgWriter::submit(Work work, Done done) {
  std::unique_lock lock(mutex_);
  has_room_.wait(lock, [&] { return queue_.size() < capacity_; });
  queue_.push_back(Job{std::move(work), std::move(done)});
  lock.unlock();
  has_work_.notify_one();
}

bool PgWriter::try_submit(Work work, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= capacity_) return false;
    queue_.push_back(Job{std::move(work), std::move(done)});
  }
  has_work_.notify_one();
  return true;
}

Status PgWriter::run(Work work) {
  std::promise<Status> outcome;
  submit(std::move(work), [&](Status s) { outcome.set_value(std::move(s)); });
  return outcome.get_future().get();
}

Status PgWriter::flush() {
  std::promise<Status> outcome;
  submit(Work{}, [&](Status s) { outcome.set_value(std::move(s)); });
  return outcome.get_future().get();
}

std::uint64_t PgWriter::commits() const {
  std::lock_guard lock(mutex_);
  return commits_;
}

void PgWriter::loop() {
  for (;;) {
    std::deque<Job> batch;
    {
      std::unique_lock lock(mutex_);
      has_work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to write
      while (!queue_.empty() && batch.size() < max_batch_) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    has_room_.notify_all();
    write_batch(batch);
  }
}

void PgWriter::write_batch(std::deque<Job>& batch) {
  std::vector<Status> outcomes(batch.size());
  const Status committed = session_.run(
      [&](pqxx::connection& connection) { return commit_batch(connection, batch, outcomes); },
      patience_);
  {
    std::lock_guard lock(mutex_);
    if (committed.ok()) ++commits_;
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].done) continue;
    batch[i].done(committed.ok() ? outcomes[i] : committed);
  }
}

Status PgWriter::commit_batch(pqxx::connection& connection, std::deque<Job>& batch,
                              std::vector<Status>& outcomes) {
  pqxx::work tx(connection);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].work) continue;
    // Savepoints by hand: with libpqxx 6's subtransaction a failed job's exec_params writes
    // stayed in the batch (StoreConformance's AFailedAppend... and ARepeatedClientSeq...).
    tx.exec("SAVEPOINT job");
    // A job that lost the connection is no failure of its own: the whole batch runs again on
    // a new connection (libpqxx would answer the savepoint's statement "transaction closed").
    std::exception_ptr lost;
    outcomes[i] = guarded([&] {
      try {
        return batch[i].work(tx);
      } catch (const pqxx::broken_connection&) {
        lost = std::current_exception();
        return Status::success();
      }
    });
    if (lost) std::rethrow_exception(lost);
    // A failed job is rolled back alone, to its savepoint.
    tx.exec(outcomes[i].ok() ? "RELEASE SAVEPOINT job" : "ROLLBACK TO SAVEPOINT job");
  }
  tx.commit();
  return Status::success();
}

}  // namespace castra::postgres
