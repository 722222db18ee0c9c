// CampaignEndToEnd.* for the reminders outside the client (issue 13): a selection falling due,
// and its deadline drawing near, reach each player's webhook and mailbox (local receivers),
// once each and only while his selection is not in; the webhook names the campaign and its
// deadline. A player away from the client is told when his move in a campaign battle is due.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <set>

#include "proto/castra/v1/notify.pb.h"
#include "tests/notify/receivers.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

v1::ClientEnvelope set_notifications(const std::string& webhook, const std::string& email) {
  v1::ClientEnvelope e;
  e.mutable_set_notifications()->set_webhook_url(webhook);
  e.mutable_set_notifications()->set_email(email);
  return e;
}

v1::ClientEnvelope create(const std::string& definition) {
  v1::ClientEnvelope e;
  e.mutable_create_campaign()->set_definition(definition);
  e.mutable_create_campaign()->mutable_settings()->set_selection_days(3);
  return e;
}

TEST(CampaignEndToEnd, SelectionRemindersReachTheWebhookAndMailboxOfWhoeverHasNotSelected) {
  HttpReceiver hook;
  SmtpReceiver mta;
  // Three days to select, reminded when due and a day before the deadline: two days later,
  // under nine seconds at 20,000 times real time.
  ServerProcess server(
      test_flags({"--smtp-url", mta.url(), "--mail-from", "castra@castra.test",
                  "--webhook-allow-private", "--tick-ms", "20", "--clock-speed", "20000"}));
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  ASSERT_TRUE(call(*alice.client, set_notifications(hook.url("/alice"), "")).has_done());
  ASSERT_TRUE(call(*bob.client, set_notifications(hook.url("/bob"), "bob@example.org")).has_done());

  auto created = call(*alice.client, create("test-optio"));
  ASSERT_TRUE(created.has_campaign_created()) << created.DebugString();
  const std::string id = created.campaign_created().campaign().campaign_id();
  v1::ClientEnvelope join;
  join.mutable_join_campaign()->set_campaign_id(id);
  const auto joined = call(*bob.client, join);
  ASSERT_TRUE(joined.has_campaign()) << joined.DebugString();
  const std::int64_t deadline = joined.campaign().summary().deadline_ms();

  // Both are told the selection is due: alice by her webhook, bob by his and by mail.
  ASSERT_TRUE(hook.wait_for(2)) << server.log();
  ASSERT_TRUE(mta.wait_for(1)) << server.log();
  // Alice's selection goes in; only bob is reminded that the deadline is near.
  v1::ClientEnvelope select;
  select.mutable_submit_selection()->set_campaign_id(id);
  select.mutable_submit_selection()->set_node("first");
  select.mutable_submit_selection()->set_entropy(client_entropy());
  ASSERT_TRUE(call(*alice.client, select).selection_result().accepted());
  ASSERT_TRUE(hook.wait_for(3)) << server.log();
  ASSERT_TRUE(mta.wait_for(2)) << server.log();

  std::multiset<std::string> told;  // "target kind"
  for (const auto& request : hook.requests()) {
    v1::ReminderWebhook body;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(request.body, &body).ok())
        << request.body;
    told.insert(request.target + " " + body.kind());
    EXPECT_EQ(body.about_id(), id);
    EXPECT_EQ(body.deadline_ms(), deadline);
  }
  EXPECT_EQ(told, (std::multiset<std::string>{"/alice selection_due", "/bob selection_due",
                                              "/bob selection_deadline_soon"}));
  for (const auto& mail : mta.messages()) {
    EXPECT_EQ(mail.rcpt_to, std::vector<std::string>{"<bob@example.org>"});
    EXPECT_NE(mail.data.find("Test campaign (Optio)"), std::string::npos) << mail.data;
  }
  EXPECT_EQ(hook.count(), 3u) << "a reminder is sent once";

  // Alice goes away; bob's selection starts the battle, where side A deploys first: alice is
  // told outside the client that it is her move.
  alice.client.reset();
  select.mutable_submit_selection()->set_entropy(client_entropy());
  ASSERT_TRUE(call(*bob.client, select).selection_result().accepted());
  ASSERT_TRUE(hook.wait_for(4)) << server.log();
  const auto request = hook.requests().at(3);
  v1::ReminderWebhook body;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(request.body, &body).ok());
  EXPECT_EQ(request.target, "/alice");
  EXPECT_EQ(body.kind(), "your_move");
  EXPECT_EQ(body.about_id(), id);
  EXPECT_GT(body.deadline_ms(), 0);
}

}  // namespace
}  // namespace castra::testing
