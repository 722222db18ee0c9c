#include "server/base/strand.hpp"

namespace castra::server {

namespace {

// The strand whose task this thread runs now (nested when an inline executor runs one strand's
// task from inside another's).
thread_local const void* running_strand = nullptr;

}  // namespace

void Strand::post(std::function<void()> task) {
  {
    std::lock_guard lock(state_->mu);
    state_->tasks.push_back(std::move(task));
    if (state_->scheduled) return;
    state_->scheduled = true;
  }
  state_->executor.post([state = state_] { drain(state); });
}

bool Strand::running_here() const {
  return running_strand == state_.get();
}

void Strand::drain(const std::shared_ptr<State>& state) {
  const void* outer = running_strand;
  running_strand = state.get();
  // A bounded turn: a strand with a steady stream of work gives its thread back now and then,
  // so that one busy match cannot starve the others on a pool.
  for (int turn = 0; turn < 64; ++turn) {
    std::function<void()> task;
    {
      std::lock_guard lock(state->mu);
      if (state->tasks.empty()) {
        state->scheduled = false;
        running_strand = outer;
        return;
      }
      task = std::move(state->tasks.front());
      state->tasks.pop_front();
    }
    task();
  }
  running_strand = outer;
  state->executor.post([state] { drain(state); });
}

}  // namespace castra::server
