// A client that sends requests and never reads the answers: once its outbound queue is full
// the server disconnects it, and the server's memory does not grow with what it did not read.
#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

TEST(SlowReader, IsDisconnectedOnceItsQueueIsFullAndMemoryStaysBounded) {
#ifdef CASTRA_SANITIZED
  // AddressSanitizer keeps freed memory in a quarantine (256 MiB by default) to catch uses
  // after free, so the server's RSS would count what it freed, not what it holds (48 MiB of
  // growth in one sanitized run): this server runs without the quarantine.
  ::setenv("ASAN_OPTIONS", "quarantine_size_mb=0", 1);
#endif
  ServerProcess server(test_flags({"--max-queued-frames", "64", "--max-queued-bytes", "1048576",
                                   "--messages-per-second", "1000000", "--message-burst", "1000000",
                                   "--max-open-matches", "1000", "--durability", "normal"}));
  ASSERT_TRUE(server.started()) << server.log();

  // Enough matches that one open list is a large reply (about 18 KB).
  Player alice = registered(server.ws_url(), "alice");
  for (int i = 0; i < 100; ++i) {
    const auto created = call(*alice.client, req::create_match("optio/test", true));
    ASSERT_TRUE(created.has_match_created());
    v1::ClientEnvelope sit;
    sit.mutable_provide_entropy()->set_match_id(created.match_created().match().match_id());
    sit.mutable_provide_entropy()->set_entropy(client_entropy());
    ASSERT_TRUE(call(*alice.client, sit).has_done());
  }
  const auto list = call(*alice.client, req::list_matches(v1::MATCH_OPEN, 100));
  ASSERT_EQ(list.matches().matches_size(), 100);
  const std::size_t reply_bytes = list.ByteSizeLong();
  EXPECT_GT(reply_bytes, 15'000u);

  const long rss_before = rss_kib(server.pid());
  ASSERT_GT(rss_before, 0);

  // The slow reader: a small receive window, 4000 requests (about 70 MB of answers), no reads.
  client::ClientOptions options;
  options.receive_buffer_bytes = 4096;
  auto slow = greeted_client(server.ws_url(), options);
  ASSERT_TRUE(slow);
  ASSERT_TRUE(call(*slow, req::guest()).has_session());
  std::string error;
  int sent = 0;
  for (; sent < 4000; ++sent) {
    auto request = req::list_matches(v1::MATCH_OPEN, 100);
    if (!slow->send(std::move(request), &error)) break;  // the server has cut it off
  }

  // The server drops it and says so in its log; its memory did not follow the backlog.
  bool dropped = false;
  for (int i = 0; i < 200 && !dropped; ++i) {
    dropped = server.log().find("event=slow_reader") != std::string::npos;
    if (!dropped) std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(dropped) << "sent " << sent << " requests\n" << server.log().substr(0, 4000);
  const long rss_after = rss_kib(server.pid());
  const long growth_kib = rss_after - rss_before;
  const long backlog_kib = static_cast<long>(reply_bytes * static_cast<std::size_t>(sent) / 1024);
  RecordProperty("rss_growth_kib", std::to_string(growth_kib));
  RecordProperty("unread_backlog_kib", std::to_string(backlog_kib));
  // The test did ask for a lot, unless the server cut the reader off even sooner.
  EXPECT_TRUE(backlog_kib > 50 * 1024 || sent < 4000) << "sent " << sent;
  EXPECT_LT(growth_kib, 24 * 1024) << "RSS " << rss_before << " KiB -> " << rss_after << " KiB";

  // Draining what the kernel buffered ends in the disconnect.
  bool closed = false;
  for (int i = 0; i < 10000 && !closed; ++i) {
    closed = !slow->next_frame(5s, &error);
  }
  EXPECT_TRUE(closed);

  // Everyone else carries on. The slow reader's last requests may still fill the bounded
  // service queue for a moment: ERROR_SERVER_BUSY is the documented "retry later".
  v1::ServerEnvelope listed;
  for (int i = 0; i < 100; ++i) {
    listed = call(*alice.client, req::list_matches(v1::MATCH_OPEN, 1));
    if (error_of(listed) != v1::ERROR_SERVER_BUSY) break;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(listed.matches().matches_size(), 1) << listed.DebugString();
  EXPECT_TRUE(server_alive(server));
  const auto metrics = http_get(server.port(), "/metrics");
  EXPECT_NE(metrics.body.find("castra_slow_reader_disconnects_total 1"), std::string::npos)
      << metrics.body;
}

}  // namespace
}  // namespace castra::testing
