#include "server/base/task_queue.hpp"

#include <algorithm>

namespace castra::server {

TaskQueue::TaskQueue(std::string name, int threads, std::size_t capacity)
    : name_(std::move(name)), capacity_(capacity) {
  for (int i = 0; i < std::max(threads, 1); ++i)
    threads_.emplace_back([this] { run(); });
}

TaskQueue::~TaskQueue() {
  stop();
}

bool TaskQueue::try_post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || tasks_.size() >= capacity_) return false;
    tasks_.push_back(std::move(task));
  }
  ready_.notify_one();
  return true;
}

void TaskQueue::post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  ready_.notify_one();
}

void TaskQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

bool TaskQueue::on_worker_thread() const {
  const auto me = std::this_thread::get_id();
  return std::any_of(threads_.begin(), threads_.end(),
                     [me](const std::thread& t) { return t.get_id() == me; });
}

void TaskQueue::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      // Stopping still drains: completions of admitted work (a commit's reply) must run.
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

}  // namespace castra::server
