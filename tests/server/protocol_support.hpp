// Helpers for the protocol's integration tests: the real castra-server with test flags
// (minimum Argon2id cost, the test scenarios), clients that have said Hello, and accounts.
// One test thread uses them.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "client/net/protocol_client.hpp"
#include "tests/support/server_process.hpp"

namespace castra::testing {

using namespace std::chrono_literals;
namespace v1 = castra::v1;

// The encoding the protocol tests speak: binary, or JSON text frames (castra.v1.json). Every
// helper below that connects does so in the running test's encoding.
enum class Encoding { kBinary, kJson };
Encoding encoding();

// Sets the encoding for one test body, back to binary when it ends.
class EncodingScope {
 public:
  explicit EncodingScope(Encoding e);
  ~EncodingScope();
  EncodingScope(const EncodingScope&) = delete;
  EncodingScope& operator=(const EncodingScope&) = delete;
};

// One test body, run twice: Suite.Name in binary and JsonProtocol.Suite_Name over JSON text
// frames, so that every case of the binary protocol holds in JSON too (issue 18).
#define CASTRA_ENCODED_TEST(Suite, Name)                                          \
  void Suite##_##Name##_Body();                                                   \
  TEST(Suite, Name) {                                                             \
    ::castra::testing::EncodingScope scope(::castra::testing::Encoding::kBinary); \
    Suite##_##Name##_Body();                                                      \
  }                                                                               \
  TEST(JsonProtocol, Suite##_##Name) {                                            \
    ::castra::testing::EncodingScope scope(::castra::testing::Encoding::kJson);   \
    Suite##_##Name##_Body();                                                      \
  }                                                                               \
  void Suite##_##Name##_Body()

// `options` asking for the running test's encoding.
client::ClientOptions encoded(client::ClientOptions options = client::ClientOptions());

// Connects to `url` in the test's encoding without saying Hello; nullptr (and a test failure)
// otherwise.
std::unique_ptr<client::ProtocolClient> connected(
    const std::string& url, const client::ClientOptions& options = client::ClientOptions());

// Sends `request` as it is (its request_id too, 0 included) as one frame in `c`'s encoding.
bool send_raw(client::ProtocolClient& c, const v1::ClientEnvelope& request, std::string* error);

// Any message as `c` would put it on the wire (binary bytes, or its JSON text with the
// server's options), to look for in raw frames.
std::string wire_text(const client::ProtocolClient& c, const google::protobuf::Message& m);

// The flags every protocol test passes, then `extra`.
std::vector<std::string> test_flags(std::vector<std::string> extra = {});

// test_flags() above the default flood limit, for the tests that play whole games as fast as
// the server answers.
std::vector<std::string> play_flags(std::vector<std::string> extra = {});

// The match requests the tests send.
v1::ClientEnvelope sit(const std::string& match_id);  // ProvideEntropy with fresh entropy
v1::ClientEnvelope submit(const std::string& match_id, std::uint64_t seq,
                          const v1::GameCommand& command);
v1::ClientEnvelope get_legal(const std::string& match_id);
v1::ClientEnvelope resign_match(const std::string& match_id);
v1::ClientEnvelope export_record(const std::string& match_id);

// The campaign requests the tests send. create_campaign: side A for its creator, a day to
// select, spectators allowed, a correspondence battle of fourteen days a move.
v1::ClientEnvelope create_campaign(const std::string& definition);
v1::ClientEnvelope get_campaign(const std::string& id);
// SubmitSelection with fresh entropy.
v1::ClientEnvelope select(const std::string& id, const std::string& node,
                          const v1::Selection& selection);

// Connects to `url` in the test's encoding and says Hello; nullptr (and a test failure)
// otherwise.
std::unique_ptr<client::ProtocolClient> greeted_client(
    const std::string& url, const client::ClientOptions& options = client::ClientOptions());

// A request's reply, or an empty envelope (and a test failure) when none came.
v1::ServerEnvelope call(client::ProtocolClient& c, v1::ClientEnvelope request);

// A greeted client signed in to a new account `name` (password: name + "-password").
struct Player {
  std::unique_ptr<client::ProtocolClient> client;
  std::string name;
  std::string token;
};
Player registered(const std::string& url, const std::string& name);

// The error code of a reply, ERROR_UNSPECIFIED when it is not an error.
v1::ErrorCode error_of(const v1::ServerEnvelope& e);

// 32 bytes a client would draw from its own random source.
std::string client_entropy();

// The server is alive and serves: its process exists and /healthz answers 200.
bool server_alive(const ServerProcess& server);

// VmRSS of a process, in KiB (0 if unreadable).
long rss_kib(pid_t pid);

// Runs `castra-server admin ...` against `server`'s admin socket; its standard output.
std::string admin(const ServerProcess& server, const std::string& command, int* exit_code);

}  // namespace castra::testing
