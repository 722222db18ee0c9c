// Clock: the time the match runtime reads for deadlines. SystemClock in the server; tests
// use ManualClock to move time by hand. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace castra::runtime {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t now_ms() const = 0;  // unix milliseconds
};

class SystemClock final : public Clock {
 public:
  std::int64_t now_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::int64_t start_ms) : now_(start_ms) {}
  std::int64_t now_ms() const override { return now_.load(); }
  void advance(std::int64_t ms) { now_ += ms; }

 private:
  std::atomic<std::int64_t> now_;
};

}  // namespace castra::runtime
