// ServerProcess: runs the real castra-server binary as a child process on 127.0.0.1 and an
// ephemeral port, with its own temporary data directory, for integration and crash tests.
// One test thread owns it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace castra::testing {

// The build and source directories ctest passes to every test (tests/CMakeLists.txt).
std::string binary_dir();
std::string source_dir();
// A fresh empty directory under the system's temporary directory.
std::string make_temp_dir(const std::string& prefix);
// Starts args[0] with args as its argv, its stdout and stderr appended to `log_path`; the
// child's pid (the caller waits for it).
pid_t spawn_logged(std::vector<std::string> args, const std::string& log_path);

class ServerProcess {
 public:
  // Starts castra-server with `--port 0 --data-dir <dir>` plus `extra` flags, and waits
  // until it listens. `data_dir` empty: a fresh temporary one. With `--store` in `extra` the
  // server keeps its data in PostgreSQL and `dir` holds only its port file, log and socket.
  explicit ServerProcess(std::vector<std::string> extra = {}, std::string data_dir = "");
  ~ServerProcess();  // SIGKILL if still running
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  bool started() const { return port_ != 0; }
  std::uint16_t port() const { return port_; }
  const std::string& data_dir() const { return data_dir_; }
  const std::string& log_path() const { return log_path_; }
  std::string ws_url() const { return "ws://127.0.0.1:" + std::to_string(port_) + "/ws"; }
  pid_t pid() const { return pid_; }

  void signal(int sig);
  // SIGSTOP, then waits until every thread of the server has stopped: a multi-threaded
  // process stops only once the thread the signal went to has run, and its other threads
  // (its network thread among them) meanwhile go on. False when it ended instead.
  bool pause();
  // Waits for the process to end; its exit status (as from waitpid), or -1 on timeout.
  int wait(std::chrono::milliseconds timeout);
  std::string log() const;

 private:
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  std::string data_dir_;
  std::string log_path_;
};

// A plain HTTP/1.1 GET over a blocking socket: the status code and body, or status 0 when
// the server could not be reached.
struct HttpReply {
  int status = 0;
  std::string body;
};
HttpReply http_get(std::uint16_t port, const std::string& target);

}  // namespace castra::testing
