// TaskQueue: worker threads running posted tasks in order. With one thread it is the service
// thread (the lobby, accounts and dispatch run there one task at a time, as in Redis); with a
// few it is the password-hashing pool, or the executor the matches' strands run on. Bounded:
// try_post refuses when `capacity` tasks wait. post() is for completions of work already
// admitted, so their number is bounded by the admitted work. Any thread may post; stop() from
// the thread that owns the queue.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/base/strand.hpp"

namespace castra::server {

class TaskQueue final : public Executor {
 public:
  TaskQueue(std::string name, int threads, std::size_t capacity);
  ~TaskQueue() override;  // stop()
  TaskQueue(const TaskQueue&) = delete;
  TaskQueue& operator=(const TaskQueue&) = delete;

  // Queues `task` unless `capacity` tasks already wait or the queue is stopping.
  bool try_post(std::function<void()> task);
  // Queues `task` regardless of the bound (never after stop()).
  void post(std::function<void()> task) override;
  // Runs what is queued, then joins the threads. Later posts are dropped.
  void stop();
  // True on one of this queue's threads.
  bool on_worker_thread() const;

 private:
  void run();

  std::string name_;
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace castra::server
