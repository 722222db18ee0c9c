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

// Connects to `url` and says Hello; nullptr (and a test failure) otherwise.
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
