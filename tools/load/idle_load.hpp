// IdleLoad: K logged-in connections that only stay open (the server's memory per connection),
// then, once they are closed, K new connections that sign in with the session tokens of the
// first (connect, upgrade, Hello, ResumeSession), timed. Single-threaded, on the load
// generator's io_context thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tools/load/histogram.hpp"
#include "tools/load/setup.hpp"

namespace castra::load {

struct IdleOptions {
  int connections = 100;
  std::size_t register_concurrency = 32;  // registrations at once (each hashes a password)
  std::size_t concurrency = 256;          // resumes being opened at once
  std::string prefix;
};

struct IdleResult {
  double register_seconds = 0;  // opening and registering all K
  long rss_before_kib = 0;      // the server, before any connection
  long rss_idle_kib = 0;        // with all K open and signed in
  double resume_seconds = 0;    // K connect-and-resume, all of them
  Histogram resume;             // each one's connect-and-resume
  std::uint64_t errors = 0;
  std::string first_error;
};

class IdleLoad {
 public:
  IdleLoad(Net& net, IdleOptions options, pid_t server_pid);
  void run(std::function<void(const IdleResult&)> done);

 private:
  void open_all();
  void resume_all();
  void failed(const std::string& error);

  Net& net_;
  IdleOptions options_;
  pid_t server_pid_;
  Gate register_gate_;
  Gate gate_;
  std::vector<std::unique_ptr<Peer>> peers_;
  std::vector<std::string> tokens_;
  std::size_t remaining_ = 0;
  Clock::time_point phase_start_;
  IdleResult result_;
  std::function<void(const IdleResult&)> done_;
};

}  // namespace castra::load
