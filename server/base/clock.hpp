// Clock: the time the server reads (deadlines, sessions, lobby times). SystemClock in the
// server; tests use ManualClock to move time by hand. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace castra::server {

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

// Time that runs `speed` times faster than the system's from the moment it is made: for
// tests and demonstrations of live deadlines (castra-server --clock-speed). At speed 1 it is
// the system clock.
class ScaledClock final : public Clock {
 public:
  explicit ScaledClock(double speed) : speed_(speed), start_(system_.now_ms()) {}
  std::int64_t now_ms() const override {
    const std::int64_t real = system_.now_ms();
    return start_ + static_cast<std::int64_t>(static_cast<double>(real - start_) * speed_);
  }

 private:
  SystemClock system_;
  double speed_;
  std::int64_t start_;
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::int64_t start_ms) : now_(start_ms) {}
  std::int64_t now_ms() const override { return now_.load(); }
  void advance(std::int64_t ms) { now_ += ms; }

 private:
  std::atomic<std::int64_t> now_;
};

}  // namespace castra::server
