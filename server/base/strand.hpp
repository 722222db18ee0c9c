// Executor and Strand. An Executor runs posted tasks somewhere (a pool's threads, or at once in
// tests); a Strand runs its own tasks one at a time, in the order they were posted, on an
// executor: the one serial line of work of an actor such as a match. A task posted from inside
// the strand runs after the current one, never inside it, so an actor never re-enters itself.
// Any thread may post; the executor must outlive its strands.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace castra::server {

class Executor {
 public:
  virtual ~Executor() = default;
  virtual void post(std::function<void()> task) = 0;
};

// Runs each task at once on the posting thread (tests, tools): with a Strand on top, work stays
// serial and in order, and a task posted while the strand runs elsewhere waits its turn.
class InlineExecutor final : public Executor {
 public:
  void post(std::function<void()> task) override { task(); }
};

class Strand {
 public:
  explicit Strand(Executor& executor) : state_(std::make_shared<State>(executor)) {}
  Strand(const Strand&) = delete;
  Strand& operator=(const Strand&) = delete;

  void post(std::function<void()> task);
  // True while the calling thread runs one of this strand's tasks.
  bool running_here() const;

 private:
  struct State {
    explicit State(Executor& e) : executor(e) {}
    Executor& executor;
    std::mutex mu;
    std::deque<std::function<void()>> tasks;
    bool scheduled = false;  // a drain is posted or running
  };
  static void drain(const std::shared_ptr<State>& state);

  std::shared_ptr<State> state_;
};

}  // namespace castra::server
