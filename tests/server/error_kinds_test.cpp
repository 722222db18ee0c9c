// ErrorKinds: each kind of failure reaches the player as itself. A scenario the engine refuses
// and a game command a rule refuses are rule errors (ERROR_INVALID_REQUEST naming the rule; a
// refused CommandResult with its rule), never ERROR_INTERNAL or a storage message; a store
// that fails is ERROR_INTERNAL, never a rule's refusal. In process, over a real SQLite file
// whose commits are made to fail (tests/server/in_process.hpp).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/server/in_process.hpp"
#include "tests/server/picker.hpp"

namespace castra::testing {
namespace {

std::string live_match(InProcessServer& server, const std::shared_ptr<TestConnection>& alice,
                       const std::shared_ptr<TestConnection>& bob) {
  const auto made = server.call(alice, create_match("optio/test"));
  EXPECT_TRUE(made.has_match_created()) << made.DebugString();
  const std::string id = made.match_created().match().match_id();
  EXPECT_TRUE(server.call(alice, provide_entropy(id)).has_done());
  EXPECT_TRUE(server.call(bob, join_match(id)).has_match_joined());
  EXPECT_TRUE(server.call(alice, subscribe(id)).has_subscribed());
  return id;
}

v1::GameCommand legal_command(InProcessServer& server, const std::shared_ptr<TestConnection>& c,
                              const std::string& id) {
  const auto legal = server.call(c, get_legal(id));
  EXPECT_TRUE(legal.has_legal()) << legal.DebugString();
  Picker picker;
  return picker.pick(legal.legal().legal(), rules::Side::kA).value_or(v1::GameCommand());
}

TEST(ErrorKinds, AScenarioTheEngineRefusesIsARuleErrorNamingItsRule) {
  InProcessOptions options;
  options.scenarios = CASTRA_SOURCE_DIR "/tests/data/refused_scenarios";
  InProcessServer server("refused-scenario", options);
  auto alice = server.registered("alice");
  const auto answer = server.call(alice, create_match("optio/one_column"));
  ASSERT_TRUE(answer.has_error()) << answer.DebugString();
  EXPECT_EQ(answer.error().code(), v1::ERROR_INVALID_REQUEST);
  EXPECT_NE(answer.error().message().find("optio.scenario"), std::string::npos)
      << answer.error().message();
  EXPECT_EQ(answer.error().message().find("database"), std::string::npos);
  // Nothing was stored: the creator has no match.
  v1::ClientEnvelope mine;
  mine.mutable_my_matches();
  EXPECT_EQ(server.call(alice, mine).matches().matches_size(), 0);
}

TEST(ErrorKinds, ARuleRefusalOfACommandIsARefusedCommandResultWithItsRule) {
  InProcessServer server("refused-command");
  auto alice = server.registered("alice");
  auto bob = server.registered("bob");
  const std::string id = live_match(server, alice, bob);

  // Side A deploys first: side B is out of turn.
  const auto out_of_turn = server.call(bob, submit(id, 1, legal_command(server, alice, id)));
  ASSERT_TRUE(out_of_turn.has_command_result()) << out_of_turn.DebugString();
  EXPECT_FALSE(out_of_turn.command_result().accepted());
  EXPECT_EQ(out_of_turn.command_result().error().rule(), "match.turn");

  // A deployment off the board: the game's own rule refuses it.
  v1::GameCommand off_board;
  auto* deploy = off_board.mutable_optio()->mutable_deploy();
  deploy->set_unit(1);
  deploy->mutable_at()->set_col(99);
  deploy->mutable_at()->set_row(99);
  const auto refused = server.call(alice, submit(id, 1, off_board));
  ASSERT_TRUE(refused.has_command_result()) << refused.DebugString();
  EXPECT_FALSE(refused.command_result().accepted());
  EXPECT_EQ(refused.command_result().error().rule().rfind("optio.", 0), 0u)
      << refused.command_result().error().rule();
}

TEST(ErrorKinds, AStorageFailureIsErrorInternalNeverARuleRefusal) {
  InProcessServer server("failing-store");
  auto alice = server.registered("alice");
  auto bob = server.registered("bob");
  const std::string id = live_match(server, alice, bob);
  const v1::GameCommand command = legal_command(server, alice, id);

  server.gate().fail_with(store::Status{SQLITE_IOERR, "disk I/O error (injected)"});
  const auto chat = server.call(alice, send_chat(id, "hello"));
  EXPECT_EQ(error_of(chat), v1::ERROR_INTERNAL) << chat.DebugString();
  const auto created = server.call(alice, create_match("optio/test"));
  EXPECT_EQ(error_of(created), v1::ERROR_INTERNAL) << created.DebugString();
  auto carol = server.connect();
  v1::ClientEnvelope reg;
  reg.mutable_register_account()->set_name("carol");
  reg.mutable_register_account()->set_password("carol-password");
  const auto registered = server.call(carol, reg);
  EXPECT_EQ(error_of(registered), v1::ERROR_INTERNAL) << registered.DebugString();

  const auto moved = server.call(alice, submit(id, 1, command));
  EXPECT_FALSE(moved.has_command_result()) << moved.DebugString();
  EXPECT_EQ(error_of(moved), v1::ERROR_INTERNAL) << moved.DebugString();
}

}  // namespace
}  // namespace castra::testing
