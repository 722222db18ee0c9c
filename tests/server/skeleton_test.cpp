// The walking skeleton of castra-server, run as a real process: it applies the migrations,
// answers /healthz, accepts a WebSocket at /ws, and stops cleanly on SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "client/net/ws_client.hpp"
#include "server/store/database.hpp"
#include "server/store/migrations.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using testing::ServerProcess;

TEST(ServerSkeleton, AnswersHealthz) {
  ServerProcess server;
  ASSERT_TRUE(server.started()) << server.log();
  const auto reply = testing::http_get(server.port(), "/healthz");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "ok\n");
  EXPECT_EQ(testing::http_get(server.port(), "/nothing-here").status, 404);
}

TEST(ServerSkeleton, AppliesMigrationsIntoTheDataDirectory) {
  ServerProcess server;
  ASSERT_TRUE(server.started()) << server.log();
  const std::string path = server.data_dir() + "/castra.db";
  ASSERT_TRUE(std::filesystem::exists(path));
  server.signal(SIGTERM);
  ASSERT_NE(server.wait(10s), -1);

  store::Status status;
  auto db = store::open_database({path}, &status);
  ASSERT_TRUE(db) << status.message;
  EXPECT_EQ(store::schema_version(*db), store::embedded_migrations().back().number);
}

TEST(ServerSkeleton, AcceptsAWebSocketAtWs) {
  ServerProcess server;
  ASSERT_TRUE(server.started()) << server.log();
  std::string error;
  auto client = client::WsClient::connect(server.ws_url(), 5s, &error);
  ASSERT_NE(client, nullptr) << error;
  EXPECT_TRUE(client->is_open());
  EXPECT_TRUE(client->send("hello", 2s, &error)) << error;
}

TEST(ServerSkeleton, RefusesAWebSocketElsewhere) {
  ServerProcess server;
  ASSERT_TRUE(server.started()) << server.log();
  std::string error;
  auto client = client::WsClient::connect(
      "ws://127.0.0.1:" + std::to_string(server.port()) + "/other", 5s, &error);
  EXPECT_EQ(client, nullptr);
}

TEST(ServerSkeleton, SigtermClosesSocketsWithGoingAwayAndExitsZero) {
  ServerProcess server;
  ASSERT_TRUE(server.started()) << server.log();
  std::string error;
  auto client = client::WsClient::connect(server.ws_url(), 5s, &error);
  ASSERT_NE(client, nullptr) << error;

  server.signal(SIGTERM);
  auto message = client->receive(5s, &error);
  EXPECT_FALSE(message.has_value());
  EXPECT_EQ(client->close_code(), 1001) << error;  // "going away"

  const int status = server.wait(10s);
  ASSERT_NE(status, -1) << "server did not stop";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(testing::http_get(server.port(), "/healthz").status, 0);  // no longer listening
}

TEST(ServerSkeleton, RefusesADatabaseThatIsNotSqliteWithoutTouchingIt) {
  const std::string dir = testing::make_temp_dir("castra-bad-db");
  const std::string garbage(4096, 'x');
  std::ofstream(dir + "/castra.db") << garbage;
  ServerProcess server({}, dir);
  EXPECT_FALSE(server.started());
  EXPECT_NE(server.log().find("event=database_failed"), std::string::npos) << server.log();
  std::ifstream in(dir + "/castra.db");
  std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(after, garbage);
}

}  // namespace
}  // namespace castra
