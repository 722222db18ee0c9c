// Notify.*: the Notifier delivers reminders to real local receivers (tests/notify/receivers.hpp)
// over HTTP and SMTP through libcurl: the webhook's JSON body and the mail's headers and body as
// documented, retries then giving up, permanent refusals, deduplication, the bounded queue,
// timeouts, and the refusal of private addresses. The bytes the pure parts make are checked too.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>

#include "proto/castra/v1/notify.pb.h"
#include "server/base/clock.hpp"
#include "server/base/metrics.hpp"
#include "server/notify/message.hpp"
#include "server/notify/notifier.hpp"
#include "server/notify/transport.hpp"
#include "tests/notify/receivers.hpp"

namespace castra::testing {
namespace {

using notify::Notifier;
using notify::Reminder;
using notify::Targets;
using Admission = Notifier::Admission;

constexpr std::int64_t kNow = 1700000000000;  // Tue, 14 Nov 2023 22:13:20 UTC

class FakeTargets final : public notify::TargetSource {
 public:
  void set(std::int64_t account, Targets targets) {
    std::lock_guard lock(mu_);
    targets_[account] = std::move(targets);
  }
  std::optional<Targets> targets_of(std::int64_t account, std::string*) override {
    std::lock_guard lock(mu_);
    return targets_[account];
  }

 private:
  std::mutex mu_;
  std::map<std::int64_t, Targets> targets_;
};

// Holds the worker inside its first look-up until released.
class GatedTargets final : public notify::TargetSource {
 public:
  std::optional<Targets> targets_of(std::int64_t, std::string*) override {
    std::unique_lock lock(mu_);
    entered_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_; });
    return Targets{};
  }
  bool wait_entered() {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, 20s, [&] { return entered_; });
  }
  void open() {
    std::lock_guard lock(mu_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  bool entered_ = false;
  bool open_ = false;
};

Reminder cannae() {
  Reminder r;
  r.account_id = 42;
  r.kind = "selection_due";
  r.subject = "Cannae: choose your army";
  r.text = "Choose who fights at Cannae.\n.The deadline is in 2 days.";
  r.about_id = "c0ffee";
  r.deadline_ms = 1700172800000;
  return r;
}

notify::NotifyOptions test_options() {
  notify::NotifyOptions o;
  o.webhook_private_addresses = true;  // the receivers are on 127.0.0.1
  o.attempts = 3;
  o.retry_backoff_ms = 1;
  return o;
}

// The value of one counter line of the metrics page ("name{labels}"), -1 when absent.
long counter(const server::Metrics& metrics, const std::string& series) {
  std::istringstream page(metrics.render());
  for (std::string line; std::getline(page, line);) {
    if (line.rfind(series + " ", 0) == 0) return std::stol(line.substr(series.size() + 1));
  }
  return -1;
}

std::string deliveries(const char* channel, const char* outcome) {
  return std::string("castra_reminder_deliveries_total{channel=\"") + channel + "\",outcome=\"" +
         outcome + "\"}";
}

struct Rig {
  explicit Rig(notify::NotifyOptions options = test_options())
      : clock(kNow), metrics({}, {}), notifier(std::move(options), targets, clock, &metrics) {}
  FakeTargets targets;
  server::ManualClock clock;
  server::Metrics metrics;
  Notifier notifier;
};

TEST(Notify, WebhookGetsTheDocumentedJsonBody) {
  HttpReceiver hook;
  Rig rig;
  rig.targets.set(42, {hook.url("/castra/hook?token=s3cret"), ""});
  EXPECT_EQ(rig.notifier.remind(cannae()), Admission::kQueued);
  ASSERT_TRUE(hook.wait_for(1));
  ASSERT_TRUE(rig.notifier.wait_idle(20s));

  const auto requests = hook.requests();
  ASSERT_EQ(requests.size(), 1u);
  const auto& r = requests[0];
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.target, "/castra/hook?token=s3cret");
  EXPECT_EQ(r.headers.at("content-type"), "application/json");
  EXPECT_EQ(r.headers.at("user-agent"), "castra-server");
  EXPECT_EQ(r.body,
            "{\"kind\":\"selection_due\",\"account_id\":\"42\","
            "\"subject\":\"Cannae: choose your army\","
            "\"text\":\"Choose who fights at Cannae.\\n.The deadline is in 2 days.\","
            "\"about_id\":\"c0ffee\",\"deadline_ms\":\"1700172800000\","
            "\"sent_ms\":\"1700000000000\",\"key\":\"42/selection_due/c0ffee/1700172800000\"}");
  castra::v1::ReminderWebhook parsed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.body, &parsed).ok());
  EXPECT_EQ(parsed.deadline_ms(), 1700172800000);

  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "sent")), 1);
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "failed")), 0);
  EXPECT_EQ(counter(rig.metrics, "castra_reminders_total{outcome=\"queued\"}"), 1);
}

TEST(Notify, MailCarriesItsHeadersAndTextThroughSmtp) {
  SmtpReceiver mta;
  auto options = test_options();
  options.smtp_url = mta.url();
  Rig rig(options);
  rig.targets.set(42, {"", "alice@example.org"});
  EXPECT_EQ(rig.notifier.remind(cannae()), Admission::kQueued);
  ASSERT_TRUE(mta.wait_for(1));
  ASSERT_TRUE(rig.notifier.wait_idle(20s));

  const auto messages = mta.messages();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].mail_from, "<castra@localhost>");
  EXPECT_EQ(messages[0].rcpt_to, std::vector<std::string>{"<alice@example.org>"});
  // The second line of the text starts with a dot: it travels dot-stuffed and arrives whole.
  EXPECT_EQ(messages[0].data,
            "Date: Tue, 14 Nov 2023 22:13:20 +0000\r\n"
            "From: castra@localhost\r\n"
            "To: alice@example.org\r\n"
            "Subject: Cannae: choose your army\r\n"
            "Message-ID: <42/selection_due/c0ffee/1700172800000@localhost>\r\n"
            "Auto-Submitted: auto-generated\r\n"
            "X-Castra-Reminder: 42/selection_due/c0ffee/1700172800000\r\n"
            "MIME-Version: 1.0\r\n"
            "Content-Type: text/plain; charset=UTF-8\r\n"
            "Content-Transfer-Encoding: 8bit\r\n"
            "\r\n"
            "Choose who fights at Cannae.\r\n"
            ".The deadline is in 2 days.\r\n");
  EXPECT_EQ(counter(rig.metrics, deliveries("email", "sent")), 1);
}

TEST(Notify, BothChannelsOfOneAccountEachGetTheReminder) {
  HttpReceiver hook;
  SmtpReceiver mta;
  auto options = test_options();
  options.smtp_url = mta.url();
  Rig rig(options);
  rig.targets.set(42, {hook.url(), "alice@example.org"});
  rig.notifier.remind(cannae());
  ASSERT_TRUE(hook.wait_for(1));
  ASSERT_TRUE(mta.wait_for(1));
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "sent")), 1);
  EXPECT_EQ(counter(rig.metrics, deliveries("email", "sent")), 1);
}

TEST(Notify, FailingWebhookIsRetriedThenGivenUpAndCounted) {
  HttpReceiver hook({503});
  Rig rig;  // 3 attempts
  rig.targets.set(42, {hook.url(), ""});
  rig.notifier.remind(cannae());
  ASSERT_TRUE(hook.wait_for(3));
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(hook.count(), 3u);
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "sent")), 0);
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "retried")), 2);
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "failed")), 1);
}

TEST(Notify, AFailureThenASuccessDeliversOnce) {
  HttpReceiver hook({500, 200});
  SmtpReceiver mta({451, 250});
  auto options = test_options();
  options.smtp_url = mta.url();
  Rig rig(options);
  rig.targets.set(42, {hook.url(), "alice@example.org"});
  rig.notifier.remind(cannae());
  ASSERT_TRUE(hook.wait_for(2));
  ASSERT_TRUE(mta.wait_for(2));
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(hook.count(), 2u);
  const auto messages = mta.messages();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_FALSE(messages[0].accepted);
  EXPECT_TRUE(messages[1].accepted);
  for (const char* channel : {"webhook", "email"}) {
    EXPECT_EQ(counter(rig.metrics, deliveries(channel, "retried")), 1) << channel;
    EXPECT_EQ(counter(rig.metrics, deliveries(channel, "sent")), 1) << channel;
    EXPECT_EQ(counter(rig.metrics, deliveries(channel, "failed")), 0) << channel;
  }
}

TEST(Notify, PermanentRefusalsAreNotRetried) {
  HttpReceiver hook({404});
  SmtpReceiver mta({250}, {550});
  auto options = test_options();
  options.smtp_url = mta.url();
  Rig rig(options);
  rig.targets.set(42, {hook.url(), "nobody@example.org"});
  rig.notifier.remind(cannae());
  ASSERT_TRUE(hook.wait_for(1));
  ASSERT_TRUE(mta.wait_for(1));
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(hook.count(), 1u);
  EXPECT_EQ(mta.count(), 1u);
  for (const char* channel : {"webhook", "email"}) {
    EXPECT_EQ(counter(rig.metrics, deliveries(channel, "retried")), 0) << channel;
    EXPECT_EQ(counter(rig.metrics, deliveries(channel, "failed")), 1) << channel;
  }
}

TEST(Notify, TheSameReminderAskedTwiceIsSentOnce) {
  HttpReceiver hook;
  Rig rig;
  rig.targets.set(42, {hook.url(), ""});
  EXPECT_EQ(rig.notifier.remind(cannae()), Admission::kQueued);
  EXPECT_EQ(rig.notifier.remind(cannae()), Admission::kDuplicate);
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(rig.notifier.remind(cannae()), Admission::kDuplicate);  // also once it was sent
  // Another deadline is another reminder.
  Reminder later = cannae();
  later.deadline_ms += 86400000;
  EXPECT_EQ(rig.notifier.remind(later), Admission::kQueued);
  ASSERT_TRUE(hook.wait_for(2));
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(hook.count(), 2u);
  EXPECT_EQ(counter(rig.metrics, "castra_reminders_total{outcome=\"duplicate\"}"), 2);
}

TEST(Notify, AFullQueueDropsTheReminderWithoutWaiting) {
  GatedTargets gate;
  server::ManualClock clock(kNow);
  server::Metrics metrics({}, {});
  auto options = test_options();
  options.queue = 2;
  Notifier notifier(options, gate, clock, &metrics);
  Reminder r = cannae();
  EXPECT_EQ(notifier.remind(r), Admission::kQueued);
  ASSERT_TRUE(gate.wait_entered());  // the worker holds the first one
  for (int i = 1; i <= 2; ++i) {
    r.deadline_ms += 1;
    EXPECT_EQ(notifier.remind(r), Admission::kQueued);
  }
  r.deadline_ms += 1;
  EXPECT_EQ(notifier.remind(r), Admission::kDropped);
  EXPECT_EQ(counter(metrics, "castra_reminders_total{outcome=\"dropped\"}"), 1);
  gate.open();
  ASSERT_TRUE(notifier.wait_idle(20s));
  // A dropped reminder was not remembered: asked again, it is taken.
  EXPECT_EQ(notifier.remind(r), Admission::kQueued);
}

TEST(Notify, AWebhookThatNeverAnswersTimesOut) {
  SilentListener silent;
  auto options = test_options();
  options.webhook_timeout_ms = 200;
  options.attempts = 2;
  Rig rig(options);
  rig.targets.set(42, {"http://127.0.0.1:" + std::to_string(silent.port()) + "/hook", ""});
  const auto start = std::chrono::steady_clock::now();
  rig.notifier.remind(cannae());
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "retried")), 1);
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "failed")), 1);
}

TEST(Notify, WebhooksToPrivateAddressesAreRefusedUnlessAllowed) {
  HttpReceiver hook;
  auto options = test_options();
  options.webhook_private_addresses = false;
  Rig rig(options);
  rig.targets.set(42, {hook.url(), ""});
  rig.notifier.remind(cannae());
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(hook.count(), 0u);  // not a byte of the request reached it
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "failed")), 1);
  EXPECT_EQ(counter(rig.metrics, deliveries("webhook", "retried")), 0);
}

TEST(Notify, PrivateAddressesAreTheNonPublicRanges) {
  for (const char* ip :
       {"127.0.0.1", "10.1.2.3", "172.16.5.4", "172.31.255.255", "192.168.0.1", "169.254.169.254",
        "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1",
        "::ffff:10.0.0.1", "ff02::1", "not an address"}) {
    EXPECT_TRUE(notify::private_address(ip)) << ip;
  }
  for (const char* ip : {"8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1",
                         "2001:4860:4860::8888", "::ffff:8.8.8.8"}) {
    EXPECT_FALSE(notify::private_address(ip)) << ip;
  }
}

TEST(Notify, NoEmailIsSentWithoutAMailTransferAgent) {
  SmtpReceiver mta;
  Rig rig;  // no smtp_url
  EXPECT_FALSE(rig.notifier.mail_enabled());
  rig.targets.set(42, {"", "alice@example.org"});
  rig.notifier.remind(cannae());
  ASSERT_TRUE(rig.notifier.wait_idle(20s));
  EXPECT_EQ(mta.count(), 0u);
  EXPECT_EQ(counter(rig.metrics, deliveries("email", "sent")), 0);
  EXPECT_EQ(counter(rig.metrics, deliveries("email", "failed")), 0);
}

TEST(Notify, ReminderKeysNameAccountKindSubjectAndDeadline) {
  EXPECT_EQ(notify::reminder_key(cannae()), "42/selection_due/c0ffee/1700172800000");
  Reminder odd = cannae();
  odd.kind = "a/b";
  odd.about_id = "x y.z";
  odd.deadline_ms = 0;
  EXPECT_EQ(notify::reminder_key(odd), "42/a%2Fb/x%20y%2Ez/0");
}

TEST(Notify, MailDatesAreRfc5322InUtc) {
  EXPECT_EQ(notify::mail_date(0), "Thu, 01 Jan 1970 00:00:00 +0000");
  EXPECT_EQ(notify::mail_date(951782400000), "Tue, 29 Feb 2000 00:00:00 +0000");
  EXPECT_EQ(notify::mail_date(kNow + 999), "Tue, 14 Nov 2023 22:13:20 +0000");
}

TEST(Notify, NonAsciiSubjectsBecomeEncodedWordsOfWholeCharacters) {
  Reminder r = cannae();
  r.subject = "Cannae: \xc3\xa0 vous de choisir";
  std::string m = notify::mail_message(r, "castra@localhost", "alice@example.org", kNow);
  EXPECT_NE(m.find("\r\nSubject: =?UTF-8?B?Q2FubmFlOiDDoCB2b3VzIGRlIGNob2lzaXI=?=\r\n"),
            std::string::npos)
      << m;
  r.subject.clear();
  for (int i = 0; i < 30; ++i)
    r.subject += "\xc3\xa9";  // 60 bytes: 44 (22 characters) fit the first word, not 45
  m = notify::mail_message(r, "castra@localhost", "alice@example.org", kNow);
  EXPECT_NE(
      m.find("\r\nSubject: =?UTF-8?B?w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=?="
             "\r\n =?UTF-8?B?w6nDqcOpw6nDqcOpw6nDqQ==?=\r\n"),
      std::string::npos)
      << m;
}

TEST(Notify, HeadersCannotBeWrittenThroughTheSubjectAndLinesAreSmtpSafe) {
  Reminder r = cannae();
  r.subject = "Cannae\r\nBcc: everyone@example.org";
  r.text = "one\rtwo\r\nthree\n" + std::string(1000, 'x') + "\n\xff";
  const std::string m = notify::mail_message(r, "castra@localhost", "alice@example.org", kNow);
  EXPECT_NE(m.find("\r\nSubject: Cannae  Bcc: everyone@example.org\r\n"), std::string::npos) << m;
  EXPECT_EQ(m.find("\r\nBcc:"), std::string::npos);
  const std::string body = m.substr(m.find("\r\n\r\n") + 4);
  EXPECT_EQ(body, "one\r\ntwo\r\nthree\r\n" + std::string(900, 'x') + "\r\n" +
                      std::string(100, 'x') + "\r\n?\r\n");
}

}  // namespace
}  // namespace castra::testing
