// EchoLoad: the raw WebSocket baseline. C connections to an echo server (castra-bench-echo),
// each keeping W frames of a chosen size in flight, for a few seconds: the messages per
// second and round trips one core of plain Beast serves, the ceiling Castra's figures are
// divided by. Single-threaded, on the load generator's io_context thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tools/load/histogram.hpp"
#include "tools/load/setup.hpp"

namespace castra::load {

struct EchoOptions {
  int connections = 64;
  int window = 8;
  std::size_t frame_bytes = 96;
  double seconds = 5;
};

struct EchoResult {
  std::uint64_t messages = 0;  // echoed during the measured span
  double seconds = 0;
  Histogram round_trip;
  std::uint64_t errors = 0;
  double per_second() const { return seconds > 0 ? static_cast<double>(messages) / seconds : 0; }
};

class EchoLoad {
 public:
  EchoLoad(Net& net, EchoOptions options);
  ~EchoLoad();
  // Connects everyone, runs for options.seconds, then `done` (once) with the figures.
  void run(std::function<void(const EchoResult&)> done);

 private:
  struct Link;
  void start();
  void finish();
  void send_one(Link& link);

  Net& net_;
  EchoOptions options_;
  std::vector<std::unique_ptr<Link>> links_;
  std::function<void(const EchoResult&)> done_;
  EchoResult result_;
  std::string frame_;
  std::size_t connected_ = 0;
  bool running_ = false;
  Clock::time_point started_;
};

}  // namespace castra::load
