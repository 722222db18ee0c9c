// RateLimiter: a token bucket per connection: `rate` messages a second on average, bursts of
// up to `burst`. Pure (the time is passed in); one owner thread (the connection's strand).
#pragma once

#include <algorithm>
#include <chrono>

namespace castra::net {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  RateLimiter(double rate, double burst, Clock::time_point now)
      : rate_(rate), burst_(std::max(burst, 1.0)), tokens_(burst_), last_(now) {}

  // Takes one token; false when the bucket is empty (the message breaks the limit).
  bool allow(Clock::time_point now) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

 private:
  double rate_;
  double burst_;
  double tokens_;
  Clock::time_point last_;
};

}  // namespace castra::net
