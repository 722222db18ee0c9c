#include "tests/support/server_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace castra::testing {

namespace fs = std::filesystem;

std::string binary_dir() {
  return CASTRA_BINARY_DIR;
}

std::string source_dir() {
  return CASTRA_SOURCE_DIR;
}

std::string make_temp_dir(const std::string& prefix) {
  std::string tmpl = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr) return {};
  return tmpl;
}

pid_t spawn_logged(std::vector<std::string> args, const std::string& log_path) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

ServerProcess::ServerProcess(std::vector<std::string> extra, std::string data_dir)
    : data_dir_(data_dir.empty() ? make_temp_dir("castra-server") : std::move(data_dir)) {
  const std::string port_file = data_dir_ + "/port";
  fs::remove(port_file);
  log_path_ = data_dir_ + "/server.log";
  std::vector<std::string> args = {binary_dir() + "/server/castra-server", "--port", "0",
                                   "--port-file", port_file};
  // On PostgreSQL (--store) the directory holds only the port file, the log and the admin
  // socket: --data-dir would select SQLite, and the server refuses both.
  if (std::find(extra.begin(), extra.end(), "--store") == extra.end()) {
    args.insert(args.end(), {"--data-dir", data_dir_});
  } else {
    args.insert(args.end(), {"--admin-socket", data_dir_ + "/admin.sock"});
  }
  args.insert(args.end(), extra.begin(), extra.end());

  pid_ = spawn_logged(std::move(args), log_path_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(port_file);
    int port = 0;
    if (in >> port && port > 0) {
      port_ = static_cast<std::uint16_t>(port);
      return;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void ServerProcess::signal(int sig) {
  if (pid_ > 0) kill(pid_, sig);
}

bool ServerProcess::pause() {
  if (pid_ <= 0 || kill(pid_, SIGSTOP) != 0) return false;
  int status = 0;
  while (waitpid(pid_, &status, WUNTRACED) == pid_) {
    if (WIFSTOPPED(status)) return true;
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
      pid_ = -1;
      return false;
    }
  }
  return false;
}

int ServerProcess::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (pid_ > 0) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return status;
    }
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return -1;
}

std::string ServerProcess::log() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

HttpReply http_get(std::uint16_t port, const std::string& target) {
  HttpReply reply;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return reply;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return reply;
  }
  const std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  if (::send(fd, request.data(), request.size(), 0) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return reply;
  }
  std::string raw;
  char buf[4096];
  ssize_t n = 0;
  while ((n = recv(fd, buf, sizeof buf, 0)) > 0)
    raw.append(buf, static_cast<std::size_t>(n));
  close(fd);
  if (raw.rfind("HTTP/1.1 ", 0) != 0) return reply;
  reply.status = std::atoi(raw.c_str() + 9);
  const auto body = raw.find("\r\n\r\n");
  if (body != std::string::npos) reply.body = raw.substr(body + 4);
  return reply;
}

}  // namespace castra::testing
