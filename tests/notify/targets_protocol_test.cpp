// NotifyTargets.* through the real server: SetNotifications over a WebSocket, refusals of bad
// targets, and the stored targets used by a real delivery (the operators' test-reminder
// command) to local HTTP and SMTP receivers, before and after a restart.
#include <gtest/gtest.h>

#include <google/protobuf/util/json_util.h>

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

std::vector<std::string> reminder_flags(const SmtpReceiver& mta) {
  return test_flags({"--smtp-url", mta.url(), "--mail-from", "castra@castra.test",
                     "--webhook-allow-private", "--webhook-timeout-ms", "5000"});
}

TEST(NotifyTargets, SetThroughTheServerAndUsedForReminders) {
  HttpReceiver hook;
  SmtpReceiver mta;
  ServerProcess server(reminder_flags(mta));
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  ASSERT_TRUE(alice.client);

  auto reply = call(*alice.client, set_notifications(hook.url("/alice"), "alice@example.org"));
  EXPECT_TRUE(reply.has_done()) << reply.DebugString();
  // Refused targets leave the stored ones as they were.
  reply = call(*alice.client, set_notifications("ftp://example.org/", ""));
  EXPECT_EQ(error_of(reply), v1::ERROR_BAD_NOTIFICATION_TARGET);
  reply =
      call(*alice.client, set_notifications("", "alice@example.org\r\nBcc: everyone@example.org"));
  EXPECT_EQ(error_of(reply), v1::ERROR_BAD_NOTIFICATION_TARGET);
  EXPECT_FALSE(reply.error().message().empty());

  int code = -1;
  const std::string out = admin(server, "test-reminder alice", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(out.rfind("ok test-reminder name=alice", 0), 0u) << out;
  ASSERT_TRUE(hook.wait_for(1)) << server.log();
  ASSERT_TRUE(mta.wait_for(1)) << server.log();

  const auto request = hook.requests().at(0);
  EXPECT_EQ(request.target, "/alice");
  v1::ReminderWebhook body;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(request.body, &body).ok());
  EXPECT_EQ(body.kind(), "test");
  EXPECT_GT(body.account_id(), 0);
  EXPECT_EQ(request.headers.at("user-agent").rfind("castra-server/", 0), 0u);
  const auto mail = mta.messages().at(0);
  EXPECT_EQ(mail.mail_from, "<castra@castra.test>");
  EXPECT_EQ(mail.rcpt_to, std::vector<std::string>{"<alice@example.org>"});
  EXPECT_NE(mail.data.find("\r\nTo: alice@example.org\r\n"), std::string::npos) << mail.data;
  EXPECT_NE(mail.data.find("\r\nSubject: Castra: a test reminder\r\n"), std::string::npos);

  // Guests have no targets.
  auto guest = greeted_client(server.ws_url());
  ASSERT_TRUE(guest);
  ASSERT_TRUE(call(*guest, client::requests::guest()).has_session());
  EXPECT_EQ(error_of(call(*guest, set_notifications(hook.url(), ""))), v1::ERROR_GUEST_NOT_ALLOWED);

  // The targets survive a restart.
  alice.client.reset();
  guest.reset();
  const std::string data_dir = server.data_dir();
  server.signal(SIGTERM);
  ASSERT_NE(server.wait(20s), -1);
  ServerProcess again(reminder_flags(mta), data_dir);
  ASSERT_TRUE(again.started()) << again.log();
  EXPECT_EQ(admin(again, "test-reminder alice", &code).rfind("ok test-reminder", 0), 0u);
  ASSERT_TRUE(hook.wait_for(2)) << again.log();
  ASSERT_TRUE(mta.wait_for(2)) << again.log();

  // Both empty switch alice's reminders off. One worker delivers in order: once bob's test
  // reminder has come, alice's (asked for first) has been dealt with, and sent nothing.
  auto resumed = greeted_client(again.ws_url());
  ASSERT_TRUE(resumed);
  v1::ClientEnvelope resume;
  resume.mutable_resume_session()->set_token(alice.token);
  ASSERT_TRUE(call(*resumed, resume).has_session());
  EXPECT_TRUE(call(*resumed, set_notifications("", "")).has_done());
  Player bob = registered(again.ws_url(), "bob");
  ASSERT_TRUE(bob.client);
  EXPECT_TRUE(call(*bob.client, set_notifications(hook.url("/bob"), "")).has_done());
  EXPECT_EQ(admin(again, "test-reminder alice", &code).rfind("ok test-reminder", 0), 0u);
  EXPECT_EQ(admin(again, "test-reminder bob", &code).rfind("ok test-reminder", 0), 0u);
  ASSERT_TRUE(hook.wait_for(3)) << again.log();
  EXPECT_EQ(hook.count(), 3u);
  EXPECT_EQ(hook.requests().at(2).target, "/bob");
  EXPECT_EQ(mta.count(), 2u);

  EXPECT_EQ(admin(again, "test-reminder nobody", &code).rfind("error", 0), 0u);
  EXPECT_EQ(code, 1);
}

}  // namespace
}  // namespace castra::testing
