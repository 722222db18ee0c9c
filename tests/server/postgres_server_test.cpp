// castra-server on PostgreSQL (--store postgresql://...), end to end with real WebSocket
// clients. PostgresServer.*: both games played to results whose records verify, kept across a
// restart; a match that plays on after the database ended the server's sessions. StoreMigration.*:
// an SQLite installation with a finished match, a live one and a campaign is moved by
// --migrate-store; the record still verifies, the live match plays on to a verified end, the
// campaign is there. Each test uses a fresh database of the program's private cluster.
#include <gtest/gtest.h>
#include <signal.h>

#include <optional>
#include <string>

#include "common/wire/any_match.hpp"
#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"
#include "tests/support/postgres_cluster.hpp"
#include "tests/support/tool_run.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

// A match two players sit at, with the client sequence numbers each has used.
struct Table {
  std::string id;
  std::uint64_t seq[2] = {0, 0};
};

Table open_match(const std::string& scenario, Player& alice, Player& bob) {
  Table t;
  auto created = call(*alice.client, req::create_match(scenario, /*spectators=*/true));
  EXPECT_TRUE(created.has_match_created()) << created.DebugString();
  t.id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(t.id))));
  EXPECT_TRUE(call(*bob.client, req::join_match(t.id, client_entropy())).has_match_joined());
  return t;
}

// Plays with a Picker each until the match has a record (returned) or `limit` commands were
// accepted (nullopt); `*commands` counts the accepted ones.
std::optional<v1::MatchRecord> play(Table& t, Player& alice, Player& bob, int limit,
                                    int* commands) {
  Picker pickers[2];
  Player* players[2] = {&alice, &bob};
  for (int round = 0; round < 2000; ++round) {
    auto exported = call(*alice.client, export_record(t.id));
    if (exported.has_record()) return exported.record();
    for (int p = 0; p < 2; ++p) {
      if (*commands >= limit) return std::nullopt;
      auto legal = call(*players[p]->client, get_legal(t.id));
      if (!legal.has_legal()) continue;
      auto cmd = pickers[p].pick(legal.legal().legal(), p == 0 ? rules::Side::kA : rules::Side::kB);
      if (!cmd) continue;
      auto result = call(*players[p]->client, submit(t.id, ++t.seq[p], *cmd));
      if (result.command_result().accepted()) ++*commands;
    }
  }
  ADD_FAILURE() << "no record after 2000 rounds";
  return std::nullopt;
}

// A returning player, signed in with the password `registered` gave him.
Player signed_in(const std::string& url, const std::string& name) {
  Player p;
  p.name = name;
  p.client = greeted_client(url);
  EXPECT_EQ(error_of(call(*p.client, req::login(name, name + "-password"))), v1::ERROR_UNSPECIFIED);
  return p;
}

TEST(PostgresServer, PlaysBothGamesToVerifiedRecordsAndKeepsThemAcrossARestart) {
  const std::string url = PostgresCluster::fresh_database("server_play");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  std::string ids[2];
  {
    ServerProcess server(play_flags({"--store", url}));
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = registered(server.ws_url(), "alice");
    Player bob = registered(server.ws_url(), "bob");
    const char* scenarios[2] = {"optio/test", "stand/test"};
    for (int g = 0; g < 2; ++g) {
      Table t = open_match(scenarios[g], alice, bob);
      ids[g] = t.id;
      int commands = 0;
      const auto record = play(t, alice, bob, 1 << 30, &commands);
      ASSERT_TRUE(record) << scenarios[g];
      EXPECT_GT(commands, 20) << scenarios[g];
      EXPECT_TRUE(record->has_outcome()) << scenarios[g];
      EXPECT_EQ(wire::verify_record(*record), std::nullopt) << scenarios[g];
    }
  }
  // The same database, a new process: what was committed is what it serves.
  ServerProcess again(play_flags({"--store", url}));
  ASSERT_TRUE(again.started()) << again.log();
  Player alice = signed_in(again.ws_url(), "alice");
  for (const std::string& id : ids) {
    auto exported = call(*alice.client, export_record(id));
    ASSERT_TRUE(exported.has_record()) << exported.DebugString();
    EXPECT_EQ(wire::verify_record(exported.record()), std::nullopt);
  }
}

// The database ends every session of the server mid-match (an operator's pg_terminate_backend,
// a restart or failover of PostgreSQL): the server makes its connections again and the match
// plays on to a verified end, nothing refused and nothing closed.
TEST(PostgresServer, PlaysOnAfterTheDatabaseEndsItsSessionsMidMatch) {
  const std::string url = PostgresCluster::fresh_database("sessions_ended");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  ServerProcess server(play_flags({"--store", url}));
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Table t = open_match("stand/test", alice, bob);
  int commands = 0;
  ASSERT_FALSE(play(t, alice, bob, 8, &commands));

  EXPECT_GE(PostgresCluster::shared().end_sessions(url), 2) << PostgresCluster::shared().error();
  commands = 0;
  const auto record = play(t, alice, bob, 1 << 30, &commands);
  ASSERT_TRUE(record) << server.log();
  EXPECT_GT(commands, 0);
  EXPECT_EQ(wire::verify_record(*record), std::nullopt);
  // Accounts and sessions too: a new player signs up, an old one signs in again.
  EXPECT_FALSE(registered(server.ws_url(), "carol").token.empty());
  signed_in(server.ws_url(), "alice");
  const std::string log = server.log();
  EXPECT_NE(log.find("event=database_reconnected role=writer"), std::string::npos) << log;
  EXPECT_NE(log.find("event=database_reconnected role=reader"), std::string::npos) << log;
  EXPECT_EQ(log.find("event=match_closed"), std::string::npos) << log;
}

TEST(PostgresServer, RefusesStoreAndDataDirTogether) {
  ServerProcess server({"--store", "postgresql://castra@127.0.0.1:1/none", "--data-dir", "/tmp"});
  EXPECT_FALSE(server.started());
  EXPECT_NE(server.log().find("--store and --data-dir both given"), std::string::npos)
      << server.log();
}

TEST(StoreMigration, MovesFinishedAndLiveMatchesAndACampaignThatAllGoOn) {
  const std::string dir = make_temp_dir("castra-migration");
  std::string finished_id;
  std::string campaign_id;
  Table live;
  {
    ServerProcess sqlite(play_flags(), dir);
    ASSERT_TRUE(sqlite.started()) << sqlite.log();
    Player alice = registered(sqlite.ws_url(), "alice");
    Player bob = registered(sqlite.ws_url(), "bob");
    Table finished = open_match("optio/test", alice, bob);
    finished_id = finished.id;
    int commands = 0;
    ASSERT_TRUE(play(finished, alice, bob, 1 << 30, &commands));
    live = open_match("stand/test", alice, bob);
    commands = 0;
    ASSERT_FALSE(play(live, alice, bob, 6, &commands));
    ASSERT_EQ(commands, 6);
    v1::ClientEnvelope create;
    create.mutable_create_campaign()->set_definition("test-optio");
    create.mutable_create_campaign()->mutable_settings()->set_creator_side(v1::SIDE_A);
    auto created = call(*alice.client, create);
    ASSERT_TRUE(created.has_campaign_created()) << created.DebugString();
    campaign_id = created.campaign_created().campaign().campaign_id();
    sqlite.signal(SIGTERM);
    ASSERT_EQ(sqlite.wait(std::chrono::seconds(30)), 0) << sqlite.log();
  }

  const std::string url = PostgresCluster::fresh_database("migration");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  const std::string server = binary_dir() + "/server/castra-server";
  const ToolRun moved = run_tool(server + " --migrate-store " + dir + " " + url);
  ASSERT_EQ(moved.exit_code, 0) << moved.out;
  EXPECT_NE(moved.out.find("table=match_log"), std::string::npos) << moved.out;
  // Into a database that holds Castra data already, nothing is moved.
  const ToolRun again = run_tool(server + " --migrate-store " + dir + " " + url);
  EXPECT_EQ(again.exit_code, 2) << again.out;
  EXPECT_NE(again.out.find("already holds Castra data"), std::string::npos) << again.out;

  ServerProcess pg(play_flags({"--store", url}));
  ASSERT_TRUE(pg.started()) << pg.log();
  Player alice = signed_in(pg.ws_url(), "alice");
  Player bob = signed_in(pg.ws_url(), "bob");
  auto finished = call(*alice.client, export_record(finished_id));
  ASSERT_TRUE(finished.has_record()) << finished.DebugString();
  EXPECT_EQ(wire::verify_record(finished.record()), std::nullopt);
  // The live match was recovered from its moved log and plays on to a verified end.
  int commands = 0;
  const auto record = play(live, alice, bob, 1 << 30, &commands);
  ASSERT_TRUE(record);
  EXPECT_GT(commands, 0);
  EXPECT_TRUE(record->has_outcome());
  EXPECT_EQ(wire::verify_record(*record), std::nullopt);
  v1::ClientEnvelope get;
  get.mutable_get_campaign()->set_campaign_id(campaign_id);
  auto campaign = call(*alice.client, get);
  ASSERT_TRUE(campaign.has_campaign()) << campaign.DebugString();
  EXPECT_EQ(campaign.campaign().summary().campaign_id(), campaign_id);
  // A new account gets an id after the moved ones (the sequences were moved on).
  Player carol = registered(pg.ws_url(), "carol");
  EXPECT_FALSE(carol.token.empty());
}

}  // namespace
}  // namespace castra::testing
