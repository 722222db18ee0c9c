// PostgresCluster: a private PostgreSQL server for tests, made with Debian's initdb and pg_ctl
// (/usr/lib/postgresql/<version>/bin, package `postgresql`) in a temporary directory, on a
// free 127.0.0.1 port, trusted local logins, stopped and removed when the object ends. As root
// (CI) initdb refuses to run, so the server runs as the `postgres` user the Debian package
// creates, through runuser; otherwise as the current user. A missing PostgreSQL is an error
// (error() says which step failed), never a reason to skip. One test thread owns it.
#pragma once

#include <cstdint>
#include <string>

namespace castra::testing {

class PostgresCluster {
 public:
  // Runs initdb and starts the server; ok() false (and error()) when either failed.
  PostgresCluster();
  // Stops the server (fast shutdown) and removes its directory.
  ~PostgresCluster();
  PostgresCluster(const PostgresCluster&) = delete;
  PostgresCluster& operator=(const PostgresCluster&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  std::uint16_t port() const { return port_; }

  // Creates a new empty database and returns its postgresql:// URL; "" (and error()) on failure.
  std::string create_database(const std::string& name);

  // Ends every session on the database of `url` but its own, as an operator's
  // pg_terminate_backend or a database restart would, and waits until each has ended: how
  // many there were, or -1 (and error()) when psql failed.
  int end_sessions(const std::string& url);
  // Runs one SQL statement on the database of `url` with psql, its rows unaligned in
  // `*output` if given; false (and error()) when it failed.
  bool execute(const std::string& url, const std::string& statement, std::string* output = nullptr);

  // One cluster for the whole test program, started on first use.
  static PostgresCluster& shared();
  // A new empty database of the shared cluster, named `stem` and a number unique in this
  // program (so that --gtest_repeat gets a fresh one each time); "" on failure, with
  // shared().error() saying why.
  static std::string fresh_database(const std::string& stem);

 private:
  // "" when it exited 0 (its output in `*output`, if given), else what it said.
  std::string run(const std::string& command, std::string* output = nullptr);

  std::string bin_;  // the directory of initdb, pg_ctl and createdb
  std::string dir_;  // the cluster's data and socket directory
  std::string as_;   // "runuser -u postgres -- " as root, "" otherwise
  std::uint16_t port_ = 0;
  bool started_ = false;
  std::string error_;
};

}  // namespace castra::testing
