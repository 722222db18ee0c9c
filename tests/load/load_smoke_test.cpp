// LoadSmoke: castra-load, run as its own process for a few seconds with small numbers
// against the real castra-server (and castra-bench-echo), says in its JSON summary line that
// every command sent was acknowledged and delivered and that nothing erred. The figures
// themselves are benchmarks (docs/load.md), not checked here.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/support/server_process.hpp"

namespace castra::testing {
namespace {

// A child process whose standard output comes through a pipe.
class Child {
 public:
  explicit Child(std::vector<std::string> args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> argv;
      for (auto& a : args)
        argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    out_ = fdopen(fds[0], "r");
  }
  ~Child() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_) fclose(out_);
  }

  // The next line of its output (blocking), without its newline; empty at the end.
  std::string line() {
    std::string s;
    int c = 0;
    while (out_ && (c = fgetc(out_)) != EOF && c != '\n')
      s += static_cast<char>(c);
    return s;
  }
  // Reads its output to the end and waits for it; its exit code (-1 if it did not exit).
  int finish(std::string* output) {
    for (std::string l; !(l = line()).empty() || (out_ && !feof(out_));)
      *output += l + "\n";
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
};

// Runs castra-load with `args`; its JSON summary (the last line), or a test failure.
google::protobuf::Struct run_load(std::vector<std::string> args) {
  args.insert(args.begin(), binary_dir() + "/tools/load/castra-load");
  args.push_back("--json");
  Child load(args);
  std::string output;
  const int code = load.finish(&output);
  EXPECT_EQ(code, 0) << output;
  const auto end = output.find_last_not_of('\n');
  const auto start = output.rfind('\n', end);
  const std::string json = output.substr(start == std::string::npos ? 0 : start + 1);
  google::protobuf::Struct summary;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &summary).ok()) << output;
  return summary;
}

double field(const google::protobuf::Struct& s, const std::string& key) {
  const auto it = s.fields().find(key);
  EXPECT_NE(it, s.fields().end()) << "no " << key << " in the summary";
  return it == s.fields().end() ? -1 : it->second.number_value();
}

std::vector<std::string> server_flags() {
  return {"--argon2-opslimit", "1", "--argon2-memlimit", "8192", "--scenarios",
          source_dir() + "/tests/data/scenarios", "--messages-per-second", "10000",
          "--message-burst", "10000", "--max-open-matches", "100",
          // The idle test's resumes may arrive before the server has seen the first
          // connections close.
          "--max-connections-per-address", "1000", "--log-level", "warn"};
}

// `json`: the spectators speak castra.v1.json.
void expect_every_command_acknowledged(const std::string& scenario, bool json = false) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  std::vector<std::string> args = {"matches",
                                   "--url",
                                   server.ws_url(),
                                   "--server-pid",
                                   std::to_string(server.pid()),
                                   "--matches",
                                   "4",
                                   "--spectators",
                                   "1",
                                   "--rate",
                                   "50",
                                   "--seconds",
                                   "3",
                                   "--scenario",
                                   scenario};
  if (json) args.push_back("--json-spectators");
  const auto s = run_load(args);
  EXPECT_EQ(field(s, "json_spectators"), json ? 1 : 0);
  // 50 a second for 3 seconds, every one sent, answered, accepted and seen.
  EXPECT_GE(field(s, "commands_sent"), 140);
  EXPECT_EQ(field(s, "commands_acked"), field(s, "commands_sent"));
  EXPECT_EQ(field(s, "commands_accepted"), field(s, "commands_sent"));
  EXPECT_EQ(field(s, "commands_unsent"), 0);
  EXPECT_EQ(field(s, "commands_unanswered"), 0);
  EXPECT_EQ(field(s, "opponent_missing"), 0);
  EXPECT_EQ(field(s, "spectator_missing"), 0);
  EXPECT_EQ(field(s, "spectator_n"), field(s, "commands_accepted"));
  EXPECT_EQ(field(s, "board_refreshes"), 0) << "every update carries the board (protocol 1.1)";
  EXPECT_EQ(field(s, "errors"), 0) << s.ShortDebugString();
  EXPECT_GT(field(s, "server_rss_mib"), 0);
}

TEST(LoadSmoke, FourOptioMatchesAtFiftyCommandsASecondHaveEveryCommandAcknowledged) {
  expect_every_command_acknowledged("optio/test");
}

TEST(LoadSmoke, FourStandMatchesAtFiftyCommandsASecondHaveEveryCommandAcknowledged) {
  expect_every_command_acknowledged("stand/test");
}

TEST(JsonProtocol, LoadWithJsonSpectatorsHasEveryCommandAcknowledgedAndSeen) {
  expect_every_command_acknowledged("optio/test", /*json=*/true);
}

TEST(LoadSmoke, IdleConnectionsSignInAgainWithTheirSessionTokens) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const auto s = run_load({"idle", "--url", server.ws_url(), "--server-pid",
                           std::to_string(server.pid()), "--connections", "20"});
  EXPECT_EQ(field(s, "resume_n"), 20);
  EXPECT_EQ(field(s, "errors"), 0) << s.ShortDebugString();
  EXPECT_GT(field(s, "rss_idle_mib"), 0);
}

TEST(LoadSmoke, TheEchoModeDrivesTheRawWebSocketBaseline) {
  Child echo({binary_dir() + "/tools/bench/castra-bench-echo", "--port", "0"});
  const std::string listening = echo.line();  // "listening on PORT"
  ASSERT_EQ(listening.rfind("listening on ", 0), 0u) << listening;
  const std::string port = listening.substr(13);
  const auto s = run_load({"echo", "--url", "ws://127.0.0.1:" + port + "/", "--connections", "4",
                           "--seconds", "1", "--frame-bytes", "66"});
  EXPECT_GT(field(s, "echo_rtt_n"), 0);
  EXPECT_GT(field(s, "echo_messages_per_s"), 0);
  EXPECT_EQ(field(s, "echo_errors"), 0);
}

}  // namespace
}  // namespace castra::testing
