// SlowStore: the service thread never waits on disk. With the store's commit held (a slow
// disk), log-ins, chat and match creation are taken in and answered once their commit is
// done, while requests that need no write are answered at once; after an overload that
// produced ERROR_SERVER_BUSY the server answers again as soon as the work it owes is done.
// In process (tests/server/in_process.hpp), over a real SQLite file.
#include <gtest/gtest.h>

#include <vector>

#include "tests/server/in_process.hpp"
#include "tests/server/picker.hpp"

namespace castra::testing {
namespace {

// A live Optio match between two new accounts, both in its room; its id.
std::string live_match(InProcessServer& server, const std::shared_ptr<TestConnection>& alice,
                       const std::shared_ptr<TestConnection>& bob) {
  const auto made = server.call(alice, create_match("optio/test"));
  EXPECT_TRUE(made.has_match_created()) << made.DebugString();
  const std::string id = made.match_created().match().match_id();
  EXPECT_TRUE(server.call(alice, provide_entropy(id)).has_done());
  EXPECT_TRUE(server.call(bob, join_match(id)).has_match_joined());
  EXPECT_TRUE(server.call(alice, subscribe(id)).has_subscribed());
  EXPECT_TRUE(server.call(bob, subscribe(id)).has_subscribed());
  return id;
}

TEST(SlowStore, LoginsChatAndMatchCreationAreAnsweredAfterTheirCommitWhileOthersAreNot) {
  InProcessServer server("slow-answers");
  auto alice = server.registered("alice");
  const auto made = server.call(alice, create_match("optio/test"));
  ASSERT_TRUE(made.has_match_created()) << made.DebugString();
  const std::string id = made.match_created().match().match_id();
  ASSERT_TRUE(server.call(alice, provide_entropy(id)).has_done());
  ASSERT_TRUE(server.call(alice, subscribe(id)).has_subscribed());

  auto second = server.connect();
  server.gate().hold();
  const auto login_id = server.send(second, login("alice"));
  server.gate().wait_held();  // the new session's commit, after its hashing
  const auto create_id = server.send(alice, create_match("optio/test"));
  const auto chat_id = server.send(alice, send_chat(id, "hello"));

  // The service thread takes them in and goes on answering what needs no write.
  EXPECT_TRUE(server.call(alice, ping()).has_pong());
  EXPECT_TRUE(server.call(alice, list_matches()).has_matches());
  EXPECT_TRUE(server.call(alice, chat_history(id)).has_chat_lines());
  EXPECT_FALSE(second->has_reply(login_id));
  EXPECT_FALSE(alice->has_reply(create_id));
  EXPECT_FALSE(alice->has_reply(chat_id));

  server.gate().release();
  EXPECT_TRUE(second->reply(login_id).has_session());
  EXPECT_TRUE(alice->reply(create_id).has_match_created());
  EXPECT_TRUE(alice->reply(chat_id).has_done());
  const auto history = server.call(alice, chat_history(id));
  ASSERT_EQ(history.chat_lines().lines_size(), 1);
  EXPECT_EQ(history.chat_lines().lines(0).text(), "hello");
}

TEST(SlowStore, AfterAnOverloadACommandIsAcknowledgedOnceTheOwedAnswersAreIn) {
  InProcessOptions options;
  options.service_queue = 4;
  options.writer_queue = 4;
  InProcessServer server("overload", options);
  auto alice = server.registered("alice");
  auto bob = server.registered("bob");
  const std::string id = live_match(server, alice, bob);

  // The writer's queue fills behind a held commit: the writes beyond it are refused at once
  // (busy), and the service thread is not stuck behind them.
  server.gate().hold();
  std::vector<std::uint64_t> chats{server.send(alice, send_chat(id, "line 0"))};
  server.gate().wait_held();
  for (int i = 1; i < 12; ++i) {
    chats.push_back(server.send(alice, send_chat(id, "line " + std::to_string(i))));
    // Answered at once, after the chat was taken in: the service thread never waits, and its
    // own small queue does not overflow here.
    EXPECT_TRUE(server.call(alice, ping()).has_pong());
  }
  int refused_writes = 0;
  for (std::size_t i = 5; i < chats.size(); ++i)
    refused_writes += error_of(alice->reply(chats[i])) == v1::ERROR_SERVER_BUSY;
  EXPECT_EQ(refused_writes, 7);  // 1 being committed, 4 queued behind it
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_FALSE(alice->has_reply(chats[i])) << "answered before its commit";

  // The service queue fills while the service thread is kept busy (inside a send to bob).
  // (Completions posted by the server's other threads may hold the queue's few places for a
  // moment: the held request is sent again until the service thread takes it.)
  bool stalled = false;
  for (std::uint64_t held_id = 999000; !stalled && held_id < 999100; ++held_id) {
    v1::ClientEnvelope held = ping();
    held.set_request_id(held_id);  // the id its reply is recognised by
    bob->stall_reply(held_id);
    server.app().on_message(bob, held.SerializeAsString(), false);
    stalled = bob->wait_stalled(held_id);
  }
  ASSERT_TRUE(stalled);
  std::vector<std::uint64_t> pings;
  for (int i = 0; i < 10; ++i)
    pings.push_back(server.send(alice, ping()));
  // At most 4 wait; the rest are refused by the network thread, while the service thread is
  // still busy.
  std::vector<std::uint64_t> owed;
  for (std::size_t i = 0; i < pings.size(); ++i) {
    if (!alice->has_reply(pings[i])) owed.push_back(pings[i]);
  }
  EXPECT_LE(owed.size(), 4u);
  for (const auto p : pings) {
    if (alice->has_reply(p)) {
      EXPECT_EQ(error_of(alice->reply(p)), v1::ERROR_SERVER_BUSY);
    }
  }

  // The load falls: everything owed is answered, then the server serves again.
  bob->unstall();
  server.gate().release();
  for (const auto p : owed)
    EXPECT_TRUE(alice->reply(p).has_pong());
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_TRUE(alice->reply(chats[i]).has_done()) << i;
  const auto legal = server.call(alice, get_legal(id));
  ASSERT_TRUE(legal.has_legal()) << legal.DebugString();
  Picker picker;
  const auto command = picker.pick(legal.legal().legal(), rules::Side::kA);
  ASSERT_TRUE(command);
  const auto result = server.call(alice, submit(id, 1, *command));
  ASSERT_TRUE(result.has_command_result()) << result.DebugString();
  EXPECT_TRUE(result.command_result().accepted()) << result.DebugString();
}

}  // namespace
}  // namespace castra::testing
