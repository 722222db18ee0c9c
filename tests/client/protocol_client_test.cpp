// ProtocolClient (client/net) and protocol 1.1's mover's frame: a reply that carries
// `match_update_first` is split into the update, kept as a push after whatever came before
// it, and the reply without it. The frames are ServerEnvelopes the test writes itself and
// castra-bench-echo sends back over a real WebSocket, so the client reads exactly them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "client/net/protocol_client.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;

// castra-bench-echo on a port of its choosing, killed at the end.
class Echo {
 public:
  Echo() {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      const std::string path = std::string(CASTRA_BINARY_DIR) + "/tools/bench/castra-bench-echo";
      execl(path.c_str(), path.c_str(), "--port", "0", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    FILE* out = fdopen(fds[0], "r");
    char line[128] = {};
    // "listening on PORT" once it accepts.
    if (out != nullptr && std::fgets(line, sizeof line, out) != nullptr) {
      const std::string text(line);
      if (text.rfind("listening on ", 0) == 0) port_ = std::stoi(text.substr(13));
    }
    if (out != nullptr) std::fclose(out);
  }
  ~Echo() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  std::string url() const { return "ws://127.0.0.1:" + std::to_string(port_) + "/"; }
  bool started() const { return port_ > 0; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

v1::ServerEnvelope update_push(const std::string& match_id, std::uint32_t entries) {
  v1::ServerEnvelope e;
  e.mutable_match_update()->set_match_id(match_id);
  e.mutable_match_update()->mutable_snapshot()->set_entry_count(entries);
  return e;
}

// The CommandResult of request `id`, with the update it made in its frame.
v1::ServerEnvelope answer_with_update(std::uint64_t id, std::uint32_t entries) {
  v1::ServerEnvelope e;
  e.set_request_id(id);
  e.mutable_command_result()->set_accepted(true);
  e.mutable_command_result()->set_entry(entries - 1);
  e.mutable_match_update_first()->set_match_id("m");
  e.mutable_match_update_first()->mutable_snapshot()->set_entry_count(entries);
  e.mutable_match_update_first()->set_your_move(true);
  return e;
}

class ProtocolClientFrames : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(echo_.started());
    std::string error;
    client_ = client::ProtocolClient::connect(echo_.url(), 5s, &error);
    ASSERT_TRUE(client_) << error;
  }
  // Has the echo send `e` back to the client, as a server would send it.
  void from_server(const v1::ServerEnvelope& e) {
    std::string error;
    ASSERT_TRUE(client_->socket().send(e.SerializeAsString(), 5s, &error)) << error;
  }
  std::uint32_t next_push_entries() {
    std::string error;
    auto push = client_->next_push(5s, &error);
    EXPECT_TRUE(push && push->has_match_update()) << error;
    return push ? push->match_update().snapshot().entry_count() : 0;
  }

  Echo echo_;
  std::unique_ptr<client::ProtocolClient> client_;
};

TEST_F(ProtocolClientFrames, AReplysUpdateFirstIsAPushAfterThePushesBeforeIt) {
  from_server(update_push("m", 3));
  from_server(answer_with_update(7, 4));
  from_server(update_push("m", 5));
  std::string error;
  auto reply = client_->wait_reply(7, 5s, &error);
  ASSERT_TRUE(reply) << error;
  EXPECT_TRUE(reply->has_command_result());
  EXPECT_FALSE(reply->has_match_update_first()) << "the update is handed on once, as a push";
  EXPECT_EQ(next_push_entries(), 3u);
  EXPECT_EQ(next_push_entries(), 4u) << "the mover's update, in the order it came";
  EXPECT_EQ(next_push_entries(), 5u);
}

TEST_F(ProtocolClientFrames, TheUpdateOfAReplyNobodyWaitsForIsStillAPush) {
  from_server(answer_with_update(9, 2));  // a request given up on
  std::string error;
  auto push = client_->next_push(5s, &error);
  ASSERT_TRUE(push) << error;
  EXPECT_EQ(push->request_id(), 0u);
  ASSERT_TRUE(push->has_match_update());
  EXPECT_EQ(push->match_update().match_id(), "m");
  EXPECT_EQ(push->match_update().snapshot().entry_count(), 2u);
  EXPECT_TRUE(push->match_update().your_move());
}

}  // namespace
}  // namespace castra
