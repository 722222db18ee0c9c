#include "tests/server/protocol_support.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace castra::testing {

namespace {
Encoding current_encoding = Encoding::kBinary;
}  // namespace

Encoding encoding() {
  return current_encoding;
}

EncodingScope::EncodingScope(Encoding e) {
  current_encoding = e;
}

EncodingScope::~EncodingScope() {
  current_encoding = Encoding::kBinary;
}

client::ClientOptions encoded(client::ClientOptions options) {
  if (current_encoding == Encoding::kJson) options.subprotocol = client::kJsonSubprotocol;
  return options;
}

std::unique_ptr<client::ProtocolClient> connected(const std::string& url,
                                                  const client::ClientOptions& options) {
  std::string error;
  auto c = client::ProtocolClient::connect(url, 5s, &error, encoded(options));
  if (!c) ADD_FAILURE() << "connect " << url << ": " << error;
  if (c && c->json() != (current_encoding == Encoding::kJson)) {
    ADD_FAILURE() << "the server did not take the encoding asked for";
  }
  return c;
}

bool send_raw(client::ProtocolClient& c, const v1::ClientEnvelope& request, std::string* error) {
  return c.socket().send(c.encode(request), 2s, error, c.json());
}

std::string wire_text(const client::ProtocolClient& c, const google::protobuf::Message& m) {
  return c.encode(m);
}

std::vector<std::string> test_flags(std::vector<std::string> extra) {
  std::vector<std::string> flags = {"--argon2-opslimit", "1",
                                    "--argon2-memlimit", "8192",
                                    "--scenarios",       source_dir() + "/tests/data/scenarios",
                                    "--log-level",       "debug"};
  flags.insert(flags.end(), extra.begin(), extra.end());
  return flags;
}

std::vector<std::string> play_flags(std::vector<std::string> extra) {
  std::vector<std::string> flags = {"--messages-per-second", "10000", "--message-burst", "10000"};
  flags.insert(flags.end(), extra.begin(), extra.end());
  return test_flags(flags);
}

v1::ClientEnvelope sit(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_provide_entropy()->set_match_id(match_id);
  e.mutable_provide_entropy()->set_entropy(client_entropy());
  return e;
}

v1::ClientEnvelope submit(const std::string& match_id, std::uint64_t seq,
                          const v1::GameCommand& command) {
  v1::ClientEnvelope e;
  auto* s = e.mutable_submit_command();
  s->set_match_id(match_id);
  s->set_client_seq(seq);
  *s->mutable_command() = command;
  return e;
}

v1::ClientEnvelope get_legal(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_get_legal()->set_match_id(match_id);
  return e;
}

v1::ClientEnvelope resign_match(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_resign()->set_match_id(match_id);
  return e;
}

v1::ClientEnvelope export_record(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_export_record()->set_match_id(match_id);
  return e;
}

std::unique_ptr<client::ProtocolClient> greeted_client(const std::string& url,
                                                       const client::ClientOptions& options) {
  auto c = connected(url, options);
  if (!c) return nullptr;
  std::string error;
  if (!c->hello(5s, &error)) {
    ADD_FAILURE() << "hello: " << error;
    return nullptr;
  }
  return c;
}

v1::ServerEnvelope call(client::ProtocolClient& c, v1::ClientEnvelope request) {
  std::string error;
  auto reply = c.call(std::move(request), 10s, &error);
  if (!reply) {
    ADD_FAILURE() << "no reply: " << error;
    return {};
  }
  return *reply;
}

Player registered(const std::string& url, const std::string& name) {
  Player p;
  p.name = name;
  p.client = greeted_client(url);
  if (!p.client) return p;
  const auto reply = call(*p.client, client::requests::register_account(name, name + "-password"));
  EXPECT_TRUE(reply.has_session()) << reply.DebugString();
  p.token = reply.session().token();
  return p;
}

v1::ErrorCode error_of(const v1::ServerEnvelope& e) {
  return e.has_error() ? e.error().code() : v1::ERROR_UNSPECIFIED;
}

v1::ClientEnvelope create_campaign(const std::string& definition) {
  v1::ClientEnvelope e;
  auto* c = e.mutable_create_campaign();
  c->set_definition(definition);
  c->mutable_settings()->set_creator_side(v1::SIDE_A);
  c->mutable_settings()->set_selection_days(1);
  c->mutable_settings()->set_spectators_allowed(true);
  c->mutable_settings()->mutable_battle()->set_spectators_allowed(true);
  // Fourteen days a move: at 20,000 times real time a minute, long enough to play; at a
  // million times, about a second, short enough to see run out.
  auto* tc = c->mutable_settings()->mutable_battle()->mutable_time_control();
  tc->set_kind(v1::TimeControl::CORRESPONDENCE);
  tc->set_seconds_per_move(14 * 24 * 3600);
  return e;
}

v1::ClientEnvelope get_campaign(const std::string& id) {
  v1::ClientEnvelope e;
  e.mutable_get_campaign()->set_campaign_id(id);
  return e;
}

v1::ClientEnvelope select(const std::string& id, const std::string& node,
                          const v1::Selection& selection) {
  v1::ClientEnvelope e;
  auto* s = e.mutable_submit_selection();
  s->set_campaign_id(id);
  s->set_node(node);
  *s->mutable_selection() = selection;
  s->set_entropy(client_entropy());
  return e;
}

std::string client_entropy() {
  static int counter = 0;
  std::string e(32, '\0');
  for (std::size_t i = 0; i < e.size(); ++i)
    e[i] = static_cast<char>(i * 7 + ++counter);
  return e;
}

bool server_alive(const ServerProcess& server) {
  return server.pid() > 0 && kill(server.pid(), 0) == 0 &&
         http_get(server.port(), "/healthz").status == 200;
}

long rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

std::string admin(const ServerProcess& server, const std::string& command, int* exit_code) {
  const std::string shell = binary_dir() + "/server/castra-server admin --data-dir " +
                            server.data_dir() + " " + command + " 2>&1";
  FILE* pipe = popen(shell.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  std::array<char, 4096> buf;
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    out.append(buf.data(), n);
  const int status = pclose(pipe);
  if (exit_code != nullptr) *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace castra::testing
