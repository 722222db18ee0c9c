// The server's application (server/app's ServerApp) run in process over a real SQLite file,
// with connections that record what they are sent, and a gate on the store's commits (a slow
// or failing disk): for the SlowStore and ErrorKinds tests. One test thread drives it; the
// gate and the connections are called from the server's threads.
#pragma once

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "proto/castra/v1/protocol.pb.h"
#include "server/app/server_app.hpp"
#include "server/base/clock.hpp"
#include "server/base/task_queue.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra::testing {

namespace v1 = castra::v1;

// WriterOptions::before_commit: holds every commit while held, or fails it.
class CommitGate {
 public:
  void hold();
  void release();
  // Waits until a commit is being held.
  void wait_held();
  // Every later commit fails with `status` (as a failing disk's COMMIT would).
  void fail_with(store::Status status);
  store::Status before_commit();

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  bool holding_ = false;
  int held_ = 0;
  store::Status failure_;
};

// A connection as the application sees it: every frame it is sent, parsed, in order.
// stall_reply(id) makes the thread that sends the reply to request `id` (the service thread)
// wait inside that send until unstall(): a busy service thread.
class TestConnection final : public net::Connection {
 public:
  explicit TestConnection(std::uint64_t id) : id_(id) {}
  std::uint64_t id() const override { return id_; }
  const std::string& address() const override { return address_; }
  bool secure() const override { return false; }
  void send(std::shared_ptr<const std::string> frame) override;
  void close(net::CloseCode, std::string, std::shared_ptr<const std::string> last) override;
  void greeted() override {}

  // The reply to `request_id`, waited for (a test failure and an empty envelope after 20 s).
  v1::ServerEnvelope reply(std::uint64_t request_id);
  // Whether the reply to `request_id` has come.
  bool has_reply(std::uint64_t request_id);
  void stall_reply(std::uint64_t request_id);
  // Waits until the reply to `request_id` is being held (true), or came without being held
  // (false: it was refused before the service thread saw it).
  bool wait_stalled(std::uint64_t request_id);
  void unstall();

 private:
  std::uint64_t id_;
  std::string address_ = "127.0.0.1";
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<v1::ServerEnvelope> frames_;
  std::uint64_t stall_ = 0;  // the request whose reply is held; 0: none
  bool stalled_ = false;
  std::thread::id staller_;
};

struct InProcessOptions {
  std::string scenarios = CASTRA_SOURCE_DIR "/tests/data/scenarios";
  std::size_t service_queue = 1024;
  std::size_t writer_queue = 4096;
};

// The store, the runtime over a "matches" pool, and the application, as main builds them.
class InProcessServer {
 public:
  explicit InProcessServer(const std::string& name, InProcessOptions options = {});
  ~InProcessServer();

  CommitGate& gate() { return gate_; }
  server::ServerApp& app() { return *app_; }
  // A new connection that has said Hello.
  std::shared_ptr<TestConnection> connect();
  // Sends `request` (its request_id set here) on `c`; returns the request_id.
  std::uint64_t send(const std::shared_ptr<TestConnection>& c, v1::ClientEnvelope request);
  v1::ServerEnvelope call(const std::shared_ptr<TestConnection>& c, v1::ClientEnvelope request);
  // A connection signed in to a new account `name`.
  std::shared_ptr<TestConnection> registered(const std::string& name);

 private:
  std::filesystem::path dir_;
  CommitGate gate_;
  std::unique_ptr<store::SqliteMatchStore> store_;
  server::SystemClock clock_;
  std::unique_ptr<server::TaskQueue> matches_;
  std::unique_ptr<runtime::Runtime> runtime_;
  std::unique_ptr<server::ServerApp> app_;
  std::uint64_t next_connection_ = 1;
  std::uint64_t next_request_ = 1;
};

// Requests, built.
v1::ClientEnvelope ping();
v1::ClientEnvelope login(const std::string& name);
v1::ClientEnvelope create_match(const std::string& scenario);
v1::ClientEnvelope provide_entropy(const std::string& match_id);
v1::ClientEnvelope join_match(const std::string& match_id);
v1::ClientEnvelope subscribe(const std::string& match_id);
v1::ClientEnvelope send_chat(const std::string& match_id, const std::string& text);
v1::ClientEnvelope chat_history(const std::string& match_id);
v1::ClientEnvelope list_matches();
v1::ClientEnvelope get_legal(const std::string& match_id);
v1::ClientEnvelope submit(const std::string& match_id, std::int64_t client_seq,
                          const v1::GameCommand& command);
// The error code of a reply, ERROR_UNSPECIFIED when it is not an error.
v1::ErrorCode error_of(const v1::ServerEnvelope& e);

}  // namespace castra::testing
