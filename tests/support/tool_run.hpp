// Runs one of Castra's command-line tools for a test: its exit code and everything it printed
// (standard output and error together). One test thread uses it.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace castra::testing {

struct ToolRun {
  int exit_code = -1;  // -1: it could not be run, or did not exit normally
  std::string out;
};

// `command` is a shell command line: the tool's path and its arguments.
inline ToolRun run_tool(const std::string& command) {
  ToolRun r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace castra::testing
