// What castra-load measures and prints: latency histograms, counters, errors by kind, the
// server's memory and CPU (from /proc), the generator's own CPU (getrusage) and scheduling
// lag (how late its timers fire), in words for people and as one JSON line for scripts
// (a google.protobuf.Struct, printed with protobuf's json_util). Single-threaded.
#pragma once

#include <google/protobuf/struct.pb.h>
#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "tools/load/histogram.hpp"

namespace castra::load {

// The server's resident memory in KiB (VmRSS), 0 when unknown.
long rss_kib(pid_t pid);

// CPU seconds used, of this process (getrusage) and of the server (/proc/PID/stat), and wall
// time: two samples give each one's share of a core over the span.
struct Usage {
  double self_cpu = 0;
  double server_cpu = 0;
  std::chrono::steady_clock::time_point wall;
  static Usage now(pid_t server_pid);
};

// A timer every `period` that records how late it fires: the generator's scheduling lag.
class LagProbe {
 public:
  LagProbe(boost::asio::io_context& ioc, std::chrono::microseconds period);
  void start();
  void stop();
  Histogram& lag() { return lag_; }

 private:
  void arm();
  boost::asio::steady_timer timer_;
  std::chrono::microseconds period_;
  std::chrono::steady_clock::time_point due_;
  Histogram lag_;
  bool running_ = false;
};

// One summary: lines for people (print) and fields for the JSON line.
class Report {
 public:
  explicit Report(std::string mode);
  void number(const std::string& key, double value, const std::string& words = "");
  void text(const std::string& key, const std::string& value, const std::string& words = "");
  // n, p50, p99, p99.9 and max in milliseconds, under `key`_...
  void latency(const std::string& key, const Histogram& h, const std::string& words);
  void errors(const std::map<std::string, std::uint64_t>& errors);
  // The generator's CPU and lag, the server's CPU, RSS, over [from, to].
  void usage(const Usage& from, const Usage& to, const Histogram& lag, pid_t server_pid);
  // Prints the lines; then the JSON line when `json`.
  void print(bool json) const;

 private:
  std::string lines_;
  google::protobuf::Struct fields_;
};

double ms(std::int64_t micros);

}  // namespace castra::load
