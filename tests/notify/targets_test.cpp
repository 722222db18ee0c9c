// NotifyTargets.*: what an account may give as its reminder targets (a webhook URL, an e-mail
// address; anything else is refused with ERROR_BAD_NOTIFICATION_TARGET), and their table
// (migrations/0007_notifications.sql) through TargetStore on an in-memory database with every
// migration applied.
#include <gtest/gtest.h>

#include "server/notify/sqlite_target_store.hpp"
#include "server/notify/targets.hpp"
#include "server/store/database.hpp"

namespace castra::testing {
namespace {

namespace v1 = castra::v1;
using notify::Targets;

TEST(NotifyTargets, AWebhookIsAnHttpOrHttpsUrl) {
  for (const std::string& url : std::vector<std::string>{
           "", "https://example.org/hook", "http://127.0.0.1:8080/castra?token=abc%20def",
           "HTTPS://Example.org:8443/a/b#frag"}) {
    EXPECT_FALSE(notify::check_webhook_url(url)) << url;
  }
  for (const std::string& url : std::vector<std::string>{
           "ftp://example.org/hook", "example.org/hook", "https://", "javascript:alert(1)",
           "file:///etc/passwd", "smtp://example.org", "https://exa mple.org/",
           "https://example.org/\r\nX-Injected: 1", "https://example.org/caf\xc3\xa9",
           "https://example.org/" + std::string(1990, 'a')}) {
    const auto f = notify::check_webhook_url(url);
    ASSERT_TRUE(f) << url;
    EXPECT_EQ(f->code, v1::ERROR_BAD_NOTIFICATION_TARGET) << url;
    EXPECT_FALSE(f->message.empty());
  }
}

TEST(NotifyTargets, AnEmailIsOneSaneAddressOnOneLine) {
  for (const std::string& address :
       std::vector<std::string>{"", "alice@example.org", "a.b+campaigns@mail.example.co.uk",
                                "root@localhost", "o'brien@example.ie"}) {
    EXPECT_FALSE(notify::check_email(address)) << address;
  }
  for (const std::string& address : std::vector<std::string>{
           "alice", "@example.org", "alice@", "alice@@example.org", "alice@example..org",
           "alice@example.org\r\nBcc: everyone@example.org", "alice@example.org\n",
           "alice smith@example.org", "<alice@example.org>", "alice@-example.org",
           "al..ice@example.org", ".alice@example.org", "alice@exa_mple.org",
           "\"alice\"@example.org", "alice@example.org,bob@example.org",
           std::string(65, 'a') + "@example.org", "a@" + std::string(250, 'b') + ".org"}) {
    const auto f = notify::check_email(address);
    ASSERT_TRUE(f) << address;
    EXPECT_EQ(f->code, v1::ERROR_BAD_NOTIFICATION_TARGET) << address;
  }
}

TEST(NotifyTargets, BothTargetsAreChecked) {
  EXPECT_FALSE(notify::check_targets({"https://example.org/hook", "alice@example.org"}));
  EXPECT_TRUE(notify::check_targets({"https://example.org/hook", "alice"}));
  EXPECT_TRUE(notify::check_targets({"gopher://example.org", "alice@example.org"}));
}

TEST(NotifyTargets, TheMailTransferAgentIsAnSmtpUrl) {
  EXPECT_TRUE(notify::valid_smtp_url("smtp://127.0.0.1:25"));
  EXPECT_TRUE(notify::valid_smtp_url("smtps://mail.example.org:465"));
  EXPECT_FALSE(notify::valid_smtp_url("http://127.0.0.1:25"));
  EXPECT_FALSE(notify::valid_smtp_url("127.0.0.1:25"));
  EXPECT_FALSE(notify::valid_smtp_url(""));
}

// Account 7 in an in-memory database with every migration applied.
struct MemoryDb {
  MemoryDb() {
    store::Status s;
    db = store::open_database({":memory:"}, &s);
    EXPECT_TRUE(db) << s.message;
    EXPECT_TRUE(db->exec("INSERT INTO accounts(id, name, name_key, password_hash, created_ms) "
                         "VALUES (7, 'alice', 'alice', 'x', 1)")
                    .ok());
    sql.emplace(*db);
  }
  store::Status set(std::int64_t account, const Targets& targets, std::int64_t now_ms) {
    store::Status out{-1, "not called"};
    notify::SqliteTargetStore(*sql).set(account, targets, now_ms,
                                        [&](store::Status s) { out = s; });
    return out;
  }
  std::int64_t query(const char* sql_text) {
    store::Status s;
    store::Statement q = db->prepare(sql_text, &s);
    EXPECT_TRUE(q.step(&s)) << s.message;
    return q.column_int(0);
  }

  std::optional<store::Db> db;
  std::optional<store::DirectSqlAccess> sql;
};

TEST(NotifyTargets, StoringReplacesThemAndBothEmptyRemovesTheRow) {
  MemoryDb m;
  notify::SqliteTargetStore targets(*m.sql);
  store::Status s;
  EXPECT_EQ(targets.find(7, &s), (Targets{}));
  EXPECT_TRUE(s.ok());

  ASSERT_TRUE(m.set(7, {"https://example.org/a", "alice@example.org"}, 100).ok());
  EXPECT_EQ(targets.find(7, &s), (Targets{"https://example.org/a", "alice@example.org"}));
  ASSERT_TRUE(m.set(7, {"", "alice@example.net"}, 200).ok());
  EXPECT_EQ(targets.find(7, &s), (Targets{"", "alice@example.net"}));
  EXPECT_EQ(m.query("SELECT count(*) FROM notification_targets"), 1);
  EXPECT_EQ(m.query("SELECT updated_ms FROM notification_targets WHERE account_id = 7"), 200);
  std::string error;
  EXPECT_EQ(targets.targets_of(7, &error), (Targets{"", "alice@example.net"}));

  ASSERT_TRUE(m.set(7, {}, 300).ok());
  EXPECT_EQ(m.query("SELECT count(*) FROM notification_targets"), 0);
  EXPECT_EQ(targets.find(7, &s), (Targets{}));
}

TEST(NotifyTargets, TargetsBelongToAnExistingAccount) {
  MemoryDb m;
  EXPECT_FALSE(m.set(99, {"https://example.org/a", ""}, 1).ok());
  EXPECT_EQ(m.query("SELECT count(*) FROM notification_targets"), 0);
}

}  // namespace
}  // namespace castra::testing
