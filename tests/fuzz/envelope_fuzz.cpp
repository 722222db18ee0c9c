// Fuzz target (b): envelope bytes through parse and dispatch. One server application
// (server/app's ServerApp: dispatch, accounts, lobby, matches, campaigns) over a real SQLite
// store in a temporary folder, built once and kept across inputs as a running server is.
// Each input is one new connection and up to kMaxFrames frames, each a flags byte (bit 0: a
// text frame), a 16-bit length and that many bytes, given to ServerApp::on_message as the
// WebSocket session gives them; the connection closes after them. A frame the application
// closed the connection on ends the input, as the session stops reading then. Between
// inputs a Ping on a connection of its own makes sure the service thread has taken every
// request before it (one service thread, first in first out). The application's threads make
// a run's order of replies vary a little; the parse and the checks before dispatch do not.
#include <sodium.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "proto/castra/v1/protocol.pb.h"
#include "server/accounts/passwords.hpp"
#include "server/app/server_app.hpp"
#include "server/base/clock.hpp"
#include "server/base/task_queue.hpp"
#include "server/lobby/scenarios.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace castra::fuzz {
namespace {

namespace v1 = castra::v1;

constexpr int kMaxFrames = 16;
constexpr std::size_t kMaxFrameBytes = 4096;
constexpr std::uint64_t kProbeRequest = 1;

// A connection as the application sees it; remembers whether it was closed and, for the
// probe, whether its Pong has come.
class FuzzConnection final : public net::Connection {
 public:
  explicit FuzzConnection(std::uint64_t id) : id_(id) {}
  std::uint64_t id() const override { return id_; }
  const std::string& address() const override { return address_; }
  bool secure() const override { return false; }
  void send(std::shared_ptr<const std::string> frame) override {
    v1::ServerEnvelope e;
    if (!e.ParseFromString(*frame)) broken("the server sent a frame that is no ServerEnvelope");
    std::lock_guard lock(mu_);
    if (e.request_id() == kProbeRequest) ++probe_answers_;
    changed_.notify_all();
  }
  void close(net::CloseCode, std::string, std::shared_ptr<const std::string> last) override {
    if (last) send(std::move(last));
    std::lock_guard lock(mu_);
    closed_ = true;
  }
  void greeted() override {}

  bool closed() {
    std::lock_guard lock(mu_);
    return closed_;
  }
  // Waits for the probe's answer number `n` (counted from 1).
  void wait_probe(int n) {
    std::unique_lock lock(mu_);
    if (!changed_.wait_for(lock, std::chrono::seconds(20), [&] { return probe_answers_ >= n; })) {
      broken("the service thread did not answer a Ping within 20 s");
    }
  }

 private:
  std::uint64_t id_;
  std::string address_ = "127.0.0.1";
  std::mutex mu_;
  std::condition_variable changed_;
  bool closed_ = false;
  int probe_answers_ = 0;
};

std::string envelope(v1::ClientEnvelope e) {
  e.set_request_id(kProbeRequest);
  return e.SerializeAsString();
}

// The store, the runtime and the application, as main builds them (tests/server/in_process
// does the same for the server tests); never torn down, as the process ends after the run.
class Server {
 public:
  Server() {
    quiet_logs();
    if (sodium_init() < 0) broken("libsodium does not start");
    const auto dir = std::filesystem::temp_directory_path() /
                     ("castra-fuzz-envelope-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    store::StoreOptions options;
    options.database = {(dir / "castra.db").string(), store::Durability::kNormal};
    if (const store::Status s = store::SqliteMatchStore::open(options, &store_); !s.ok()) {
      broken("the store does not open: " + s.message);
    }
    matches_ = std::make_unique<server::TaskQueue>("matches", 1, 4096);
    runtime_ = std::make_unique<runtime::Runtime>(*store_, clock_, *matches_);
    server::AppOptions app;
    app.accounts.cost = accounts::minimum_cost();
    app_ = std::make_unique<server::ServerApp>(
        app, *store_, lobby::Scenarios::load(CASTRA_SOURCE_DIR "/tests/data/scenarios"), *runtime_,
        clock_);
    probe_ = std::make_shared<FuzzConnection>(next_id_++);
    app_->on_open(probe_);
    v1::ClientEnvelope hello;
    hello.mutable_hello()->set_major(v1::PROTOCOL_MAJOR);
    hello.mutable_hello()->set_minor(v1::PROTOCOL_MINOR);
    app_->on_message(probe_, envelope(hello), false);
    probe_->wait_probe(++probes_);
  }

  void run(Input& in) {
    auto c = std::make_shared<FuzzConnection>(next_id_++);
    app_->on_open(c);
    for (int i = 0; i < kMaxFrames && !in.empty() && !c->closed(); ++i) {
      const bool text = (in.byte() & 1) != 0;
      const std::string_view frame = in.bytes(in.u16() % kMaxFrameBytes);
      app_->on_message(c, std::string(frame), text);
    }
    v1::ClientEnvelope ping;
    ping.mutable_ping()->set_nonce(7);
    app_->on_message(probe_, envelope(ping), false);
    probe_->wait_probe(++probes_);
    app_->on_closed(c->id());
  }

 private:
  std::unique_ptr<store::SqliteMatchStore> store_;
  server::SystemClock clock_;
  std::unique_ptr<server::TaskQueue> matches_;
  std::unique_ptr<runtime::Runtime> runtime_;
  std::unique_ptr<server::ServerApp> app_;
  std::shared_ptr<FuzzConnection> probe_;
  std::uint64_t next_id_ = 1;
  int probes_ = 0;
};

}  // namespace
}  // namespace castra::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Leaked on purpose: its threads must outlive every input, and libFuzzer exits without
  // running destructors in order.
  static auto* server = new castra::fuzz::Server();
  castra::fuzz::Input in(data, size);
  server->run(in);
  return 0;
}
