// Small helpers for the store's file-level tests: whole-file bytes, page checksums as the
// checksum VFS writes them, and running castra-server once to its exit. Test threads only.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "server/store/checksum_vfs.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store::test {

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

inline int page_size_of(const std::string& file) {
  const int size =
      (static_cast<unsigned char>(file[16]) << 8) | static_cast<unsigned char>(file[17]);
  return size == 1 ? 65536 : size;
}

// Whether every page of the file ends with the checksum of its other bytes.
inline bool every_page_has_its_checksum(const std::string& file) {
  const int page = page_size_of(file);
  if (page < 512 || file.size() % static_cast<std::size_t>(page) != 0) return false;
  for (std::size_t at = 0; at < file.size(); at += static_cast<std::size_t>(page)) {
    const std::uint64_t want =
        page_checksum(std::string_view(file).substr(at, page - kChecksumBytes));
    std::uint64_t got = 0;
    for (int i = 7; i >= 0; --i) {
      got = (got << 8) | static_cast<unsigned char>(file[at + page - kChecksumBytes + i]);
    }
    if (got != want) return false;
  }
  return true;
}

struct Exit {
  int code = -1;  // the exit code, or -1 when killed by a signal
  std::string output;
};

// Runs castra-server with `args` to its end; its exit code and everything it printed.
inline Exit run_server(const std::vector<std::string>& args) {
  const std::string out = testing::make_temp_dir("castra-run") + "/out.log";
  std::vector<std::string> argv_s = {testing::binary_dir() + "/server/castra-server"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv;
    for (auto& a : argv_s)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  Exit exit;
  exit.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  exit.output = read_bytes(out);
  return exit;
}

}  // namespace castra::store::test
