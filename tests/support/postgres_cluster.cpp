#include "tests/support/postgres_cluster.hpp"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "tests/support/server_process.hpp"

namespace castra::testing {

namespace {

// The newest installed PostgreSQL's programs, "" when there is none.
std::string find_bin() {
  std::error_code ec;
  std::string best;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string bin = (entry.path() / "bin").string();
    if (std::filesystem::exists(bin + "/initdb") && bin > best) best = bin;
  }
  return best;
}

// A port nobody listens on now: the kernel's pick for an ephemeral bind.
std::uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  std::uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

}  // namespace

PostgresCluster::PostgresCluster() {
  bin_ = find_bin();
  if (bin_.empty()) {
    error_ = "no PostgreSQL under /usr/lib/postgresql (install Debian's postgresql)";
    return;
  }
  dir_ = make_temp_dir("castra-pg");
  if (::geteuid() == 0) {
    const passwd* pw = ::getpwnam("postgres");
    if (pw == nullptr) {
      error_ = "running as root and there is no postgres user to run PostgreSQL as";
      return;
    }
    if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      error_ = "cannot give " + dir_ + " to the postgres user";
      return;
    }
    as_ = "runuser -u postgres -- ";
  }
  const std::string data = dir_ + "/data";
  if (error_ = run(as_ + bin_ + "/initdb -D " + data +
                   " -U castra --auth=trust --no-sync -E UTF8 --locale=C.UTF-8");
      !error_.empty()) {
    error_ = "initdb failed: " + error_;
    return;
  }
  port_ = free_port();
  // fsync stays on: the store's promise is durability, and the tests run what production runs.
  const std::string options = "-p " + std::to_string(port_) + " -k " + dir_ +
                              " -c listen_addresses=127.0.0.1 -c max_connections=200";
  if (error_ = run(as_ + bin_ + "/pg_ctl -D " + data + " -o '" + options + "' -l " + dir_ +
                   "/server.log -w -t 60 start");
      !error_.empty()) {
    error_ = "pg_ctl start failed: " + error_;
    return;
  }
  started_ = true;
}

PostgresCluster::~PostgresCluster() {
  if (started_) run(as_ + bin_ + "/pg_ctl -D " + dir_ + "/data -m fast -w stop");
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

std::string PostgresCluster::create_database(const std::string& name) {
  if (!ok()) return "";
  if (const std::string e =
          run(bin_ + "/createdb -h 127.0.0.1 -p " + std::to_string(port_) + " -U castra " + name);
      !e.empty()) {
    error_ = "createdb " + name + " failed: " + e;
    return "";
  }
  return "postgresql://castra@127.0.0.1:" + std::to_string(port_) + "/" + name;
}

PostgresCluster& PostgresCluster::shared() {
  // Destroyed at the program's exit, which stops the server.
  static PostgresCluster cluster;
  return cluster;
}

std::string PostgresCluster::fresh_database(const std::string& stem) {
  static std::atomic<int> made{0};
  PostgresCluster& cluster = shared();
  if (!cluster.ok()) return "";
  return cluster.create_database(stem + "_" + std::to_string(made++));
}

int PostgresCluster::end_sessions(const std::string& url) {
  std::string out;
  if (!execute(url,
               "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 10000)) FROM "
               "pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
               &out)) {
    return -1;
  }
  return std::stoi(out);
}

bool PostgresCluster::execute(const std::string& url, const std::string& statement,
                              std::string* output) {
  const std::string e =
      run(bin_ + "/psql -v ON_ERROR_STOP=1 '" + url + "' -Atc \"" + statement + "\"", output);
  if (!e.empty()) error_ = "psql failed on " + url + ": " + e;
  return e.empty();
}

std::string PostgresCluster::run(const std::string& command, std::string* output) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>&1").c_str(), "r"), ::pclose);
  if (!pipe) return "cannot run " + command;
  std::string out;
  std::array<char, 512> buf;
  while (std::fgets(buf.data(), buf.size(), pipe.get()) != nullptr)
    out += buf.data();
  const int status = ::pclose(pipe.release());
  if (status == 0) {
    if (output) *output = out;
    return "";
  }
  return out.empty() ? command + " exited with " + std::to_string(status) : out;
}

}  // namespace castra::testing
