// castra-server on PostgreSQL (--store postgresql://...), end to end: two real WebSocket
// clients play a match of each game through to a result, the exported record verifies, and
// after a restart on the same database the accounts, the finished match and its record are
// still there. The database is a fresh one in the test program's private cluster.
#include <gtest/gtest.h>

#include <string>

#include "common/wire/any_match.hpp"
#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"
#include "tests/support/postgres_cluster.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

// Creates `scenario`, seats both players and plays it with a Picker each until it has a record;
// the number of accepted commands.
int play_to_the_end(const std::string& scenario, Player& alice, Player& bob, std::string* id,
                    v1::MatchRecord* record) {
  auto created = call(*alice.client, req::create_match(scenario, /*spectators=*/true));
  EXPECT_TRUE(created.has_match_created()) << created.DebugString();
  *id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(*id))));
  EXPECT_TRUE(call(*bob.client, req::join_match(*id, client_entropy())).has_match_joined());
  Picker pickers[2];
  std::uint64_t seq[2] = {0, 0};
  Player* players[2] = {&alice, &bob};
  int commands = 0;
  for (int round = 0; round < 2000; ++round) {
    auto exported = call(*alice.client, export_record(*id));
    if (exported.has_record()) {
      *record = exported.record();
      return commands;
    }
    for (int p = 0; p < 2; ++p) {
      auto legal = call(*players[p]->client, get_legal(*id));
      if (!legal.has_legal()) continue;
      auto cmd = pickers[p].pick(legal.legal().legal(), p == 0 ? rules::Side::kA : rules::Side::kB);
      if (!cmd) continue;
      auto result = call(*players[p]->client, submit(*id, ++seq[p], *cmd));
      if (result.command_result().accepted()) ++commands;
    }
  }
  ADD_FAILURE() << "no record after 2000 rounds";
  return commands;
}

TEST(PostgresServer, PlaysBothGamesToVerifiedRecordsAndKeepsThemAcrossARestart) {
  PostgresCluster& cluster = PostgresCluster::shared();
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const std::string url = cluster.create_database("server_play");
  ASSERT_FALSE(url.empty()) << cluster.error();

  std::string ids[2];
  {
    ServerProcess server(play_flags({"--store", url}));
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = registered(server.ws_url(), "alice");
    Player bob = registered(server.ws_url(), "bob");
    const char* scenarios[2] = {"optio/test", "stand/test"};
    for (int g = 0; g < 2; ++g) {
      v1::MatchRecord record;
      const int commands = play_to_the_end(scenarios[g], alice, bob, &ids[g], &record);
      EXPECT_GT(commands, 20) << scenarios[g];
      EXPECT_TRUE(record.has_outcome()) << scenarios[g];
      EXPECT_EQ(wire::verify_record(record), std::nullopt) << scenarios[g];
    }
  }
  // The same database, a new process: what was committed is what it serves.
  ServerProcess again(play_flags({"--store", url}));
  ASSERT_TRUE(again.started()) << again.log();
  Player carol = registered(again.ws_url(), "carol");
  for (const std::string& id : ids) {
    auto exported = call(*carol.client, export_record(id));
    ASSERT_TRUE(exported.has_record()) << exported.DebugString();
    EXPECT_EQ(wire::verify_record(exported.record()), std::nullopt);
  }
  // alice signs in with her password: the accounts are in the database too.
  auto returning = greeted_client(again.ws_url());
  ASSERT_TRUE(returning);
  EXPECT_EQ(error_of(call(*returning, req::login("alice", "alice-password"))),
            v1::ERROR_UNSPECIFIED);
}

TEST(PostgresServer, RefusesStoreAndDataDirTogether) {
  ServerProcess server({"--store", "postgresql://castra@127.0.0.1:1/none", "--data-dir", "/tmp"});
  EXPECT_FALSE(server.started());
  EXPECT_NE(server.log().find("--store and --data-dir both given"), std::string::npos)
      << server.log();
}

}  // namespace
}  // namespace castra::testing
