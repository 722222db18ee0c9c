#include "tests/server/in_process.hpp"

#include <sodium.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "server/accounts/passwords.hpp"
#include "server/lobby/scenarios.hpp"

namespace castra::testing {

namespace {
constexpr auto kPatience = std::chrono::seconds(20);
}  // namespace

void CommitGate::hold() {
  std::lock_guard lock(mu_);
  holding_ = true;
}

void CommitGate::release() {
  {
    std::lock_guard lock(mu_);
    holding_ = false;
  }
  changed_.notify_all();
}

void CommitGate::wait_held() {
  std::unique_lock lock(mu_);
  ASSERT_TRUE(changed_.wait_for(lock, kPatience, [&] { return held_ > 0; }))
      << "no commit came to be held";
}

void CommitGate::fail_with(store::Status status) {
  std::lock_guard lock(mu_);
  failure_ = std::move(status);
}

store::Status CommitGate::before_commit() {
  std::unique_lock lock(mu_);
  ++held_;
  changed_.notify_all();
  changed_.wait(lock, [&] { return !holding_; });
  --held_;
  return failure_;
}

void TestConnection::send(std::shared_ptr<const std::string> frame) {
  v1::ServerEnvelope e;
  e.ParseFromString(*frame);
  std::unique_lock lock(mu_);
  // Never on the thread that asked for the stall: a reply the network thread refuses at once
  // comes back on it.
  const bool hold =
      stall_ != 0 && e.request_id() == stall_ && std::this_thread::get_id() != staller_;
  frames_.push_back(std::move(e));
  if (hold) {
    stalled_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return stall_ == 0; });
    stalled_ = false;
  }
  changed_.notify_all();
}

void TestConnection::close(net::CloseCode, std::string, std::shared_ptr<const std::string> last) {
  if (last) send(std::move(last));
}

v1::ServerEnvelope TestConnection::reply(std::uint64_t request_id) {
  std::unique_lock lock(mu_);
  const auto& frames = frames_;
  auto find = [&]() -> const v1::ServerEnvelope* {
    for (const auto& e : frames)
      if (e.request_id() == request_id) return &e;
    return nullptr;
  };
  if (!changed_.wait_for(lock, kPatience, [&] { return find() != nullptr; })) {
    ADD_FAILURE() << "no reply to request " << request_id;
    return {};
  }
  return *find();
}

bool TestConnection::has_reply(std::uint64_t request_id) {
  std::lock_guard lock(mu_);
  for (const auto& e : frames_)
    if (e.request_id() == request_id) return true;
  return false;
}

void TestConnection::stall_reply(std::uint64_t request_id) {
  std::lock_guard lock(mu_);
  stall_ = request_id;
  staller_ = std::this_thread::get_id();
}

bool TestConnection::wait_stalled(std::uint64_t request_id) {
  std::unique_lock lock(mu_);
  auto answered = [&] {
    for (const auto& e : frames_)
      if (e.request_id() == request_id) return true;
    return false;
  };
  changed_.wait_for(lock, kPatience, [&] { return stalled_ || answered(); });
  return stalled_;
}

void TestConnection::unstall() {
  {
    std::lock_guard lock(mu_);
    stall_ = 0;
  }
  changed_.notify_all();
}

InProcessServer::InProcessServer(const std::string& name, InProcessOptions options) {
  EXPECT_GE(sodium_init(), 0);
  dir_ = std::filesystem::temp_directory_path() /
         ("castra-inproc-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  store::StoreOptions store_options;
  store_options.database = {(dir_ / "castra.db").string(), store::Durability::kNormal};
  store_options.writer.queue_capacity = options.writer_queue;
  store_options.writer.before_commit = [this] { return gate_.before_commit(); };
  const store::Status s = store::SqliteMatchStore::open(store_options, &store_);
  EXPECT_TRUE(s.ok()) << s.message;
  matches_ = std::make_unique<server::TaskQueue>("matches", 1, 4096);
  runtime_ = std::make_unique<runtime::Runtime>(*store_, clock_, *matches_);
  server::AppOptions app;
  app.accounts.cost = accounts::minimum_cost();
  app.service_queue = options.service_queue;
  app_ = std::make_unique<server::ServerApp>(
      app, *store_, lobby::Scenarios::load(options.scenarios), *runtime_, clock_);
}

InProcessServer::~InProcessServer() {
  gate_.release();
  app_->on_stopped();
  app_.reset();
  matches_->stop();
  runtime_.reset();
  store_.reset();
  std::filesystem::remove_all(dir_);
}

std::shared_ptr<TestConnection> InProcessServer::connect() {
  auto c = std::make_shared<TestConnection>(next_connection_++);
  app_->on_open(c);
  v1::ClientEnvelope hello;
  hello.mutable_hello()->set_major(v1::PROTOCOL_MAJOR);
  hello.mutable_hello()->set_minor(v1::PROTOCOL_MINOR);
  hello.mutable_hello()->set_client("in-process-test");
  const auto answer = call(c, hello);
  EXPECT_TRUE(answer.has_hello()) << answer.DebugString();
  return c;
}

std::uint64_t InProcessServer::send(const std::shared_ptr<TestConnection>& c,
                                    v1::ClientEnvelope request) {
  const std::uint64_t id = next_request_++;
  request.set_request_id(id);
  app_->on_message(c, request.SerializeAsString(), false);
  return id;
}

v1::ServerEnvelope InProcessServer::call(const std::shared_ptr<TestConnection>& c,
                                         v1::ClientEnvelope request) {
  return c->reply(send(c, std::move(request)));
}

std::shared_ptr<TestConnection> InProcessServer::registered(const std::string& name) {
  auto c = connect();
  v1::ClientEnvelope r;
  r.mutable_register_account()->set_name(name);
  r.mutable_register_account()->set_password(name + "-password");
  const auto answer = call(c, r);
  EXPECT_TRUE(answer.has_session()) << answer.DebugString();
  return c;
}

v1::ClientEnvelope ping() {
  v1::ClientEnvelope e;
  e.mutable_ping()->set_nonce(7);
  return e;
}

v1::ClientEnvelope login(const std::string& name) {
  v1::ClientEnvelope e;
  e.mutable_login()->set_name(name);
  e.mutable_login()->set_password(name + "-password");
  return e;
}

v1::ClientEnvelope create_match(const std::string& scenario) {
  v1::ClientEnvelope e;
  e.mutable_create_match()->set_scenario(scenario);
  e.mutable_create_match()->mutable_settings()->set_creator_side(v1::SIDE_A);
  return e;
}

v1::ClientEnvelope provide_entropy(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_provide_entropy()->set_match_id(match_id);
  e.mutable_provide_entropy()->set_entropy(std::string(32, 'a'));
  return e;
}

v1::ClientEnvelope join_match(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_join_match()->set_match_id(match_id);
  e.mutable_join_match()->set_entropy(std::string(32, 'b'));
  return e;
}

v1::ClientEnvelope subscribe(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_subscribe_match()->set_match_id(match_id);
  return e;
}

v1::ClientEnvelope send_chat(const std::string& match_id, const std::string& text) {
  v1::ClientEnvelope e;
  e.mutable_send_chat()->set_match_id(match_id);
  e.mutable_send_chat()->set_channel(v1::CHAT_PLAYERS);
  e.mutable_send_chat()->set_text(text);
  return e;
}

v1::ClientEnvelope chat_history(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_chat_history()->set_match_id(match_id);
  e.mutable_chat_history()->set_channel(v1::CHAT_PLAYERS);
  return e;
}

v1::ClientEnvelope list_matches() {
  v1::ClientEnvelope e;
  e.mutable_list_matches()->set_status(v1::MATCH_OPEN);
  return e;
}

v1::ClientEnvelope get_legal(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_get_legal()->set_match_id(match_id);
  return e;
}

v1::ClientEnvelope submit(const std::string& match_id, std::int64_t client_seq,
                          const v1::GameCommand& command) {
  v1::ClientEnvelope e;
  e.mutable_submit_command()->set_match_id(match_id);
  e.mutable_submit_command()->set_client_seq(client_seq);
  *e.mutable_submit_command()->mutable_command() = command;
  return e;
}

v1::ErrorCode error_of(const v1::ServerEnvelope& e) {
  return e.has_error() ? e.error().code() : v1::ERROR_UNSPECIFIED;
}

}  // namespace castra::testing
