#include "server/lobby/sqlite_chat_store.hpp"

#include <algorithm>
#include <memory>

namespace castra::lobby {

void SqliteChatStore::add(ChatLine line, std::function<void(store::Status, ChatLine)> done) {
  // The id is given on the writer thread and read by `done` after the commit.
  auto stored = std::make_shared<ChatLine>(std::move(line));
  sql_.write(
      [stored](store::Db& db) {
        store::Status s;
        store::Statement q = db.prepare(
            "INSERT INTO chat_messages(match_id, channel, author_id, author, body, sent_ms) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            &s);
        if (!s.ok()) return s;
        s = q.bind(1, stored->match_id)
                .bind(2, static_cast<std::int64_t>(stored->channel))
                .bind(3, stored->author_id)
                .bind(4, stored->author)
                .bind(5, stored->text)
                .bind(6, stored->sent_ms)
                .run();
        if (s.ok()) stored->id = db.last_insert_rowid();
        return s;
      },
      [stored, done = std::move(done)](store::Status s) { done(s, std::move(*stored)); });
}

std::vector<ChatLine> SqliteChatStore::history(const std::string& match_id, Channel channel,
                                               std::int64_t before_id, int limit,
                                               store::Status* status) {
  std::vector<ChatLine> out;
  *status = sql_.read([&](store::Db& db) {
    store::Status s;
    store::Statement q = db.prepare(
        "SELECT id, author_id, author, body, sent_ms FROM chat_messages "
        "WHERE match_id = ? AND channel = ? AND id < ? ORDER BY id DESC LIMIT ?",
        &s);
    if (!s.ok()) return s;
    q.bind(1, match_id)
        .bind(2, static_cast<std::int64_t>(channel))
        .bind(3, before_id > 0 ? before_id : INT64_MAX)
        .bind(4, static_cast<std::int64_t>(limit));
    while (q.step(&s)) {
      ChatLine line;
      line.id = q.column_int(0);
      line.match_id = match_id;
      line.channel = channel;
      line.author_id = q.column_int(1);
      line.author = q.column_text(2);
      line.text = q.column_text(3);
      line.sent_ms = q.column_int(4);
      out.push_back(std::move(line));
    }
    return s;
  });
  std::reverse(out.begin(), out.end());
  return out;
}

void SqliteChatStore::mute(const std::string& match_id, std::int64_t account_id,
                           const std::string& muted_key, Done done) {
  sql_.write(
      [match_id, account_id, muted_key](store::Db& db) {
        store::Status s;
        store::Statement q = db.prepare(
            "INSERT OR IGNORE INTO chat_mutes(match_id, account_id, muted_key) VALUES (?, ?, ?)",
            &s);
        if (!s.ok()) return s;
        return q.bind(1, match_id).bind(2, account_id).bind(3, muted_key).run();
      },
      std::move(done));
}

void SqliteChatStore::unmute(const std::string& match_id, std::int64_t account_id,
                             const std::string& muted_key, Done done) {
  sql_.write(
      [match_id, account_id, muted_key](store::Db& db) {
        store::Status s;
        store::Statement q = db.prepare(
            "DELETE FROM chat_mutes WHERE match_id = ? AND account_id = ? AND muted_key = ?", &s);
        if (!s.ok()) return s;
        return q.bind(1, match_id).bind(2, account_id).bind(3, muted_key).run();
      },
      std::move(done));
}

std::set<std::string> SqliteChatStore::mutes(const std::string& match_id, std::int64_t account_id,
                                             store::Status* status) {
  std::set<std::string> out;
  *status = sql_.read([&](store::Db& db) {
    store::Status s;
    store::Statement q =
        db.prepare("SELECT muted_key FROM chat_mutes WHERE match_id = ? AND account_id = ?", &s);
    if (!s.ok()) return s;
    q.bind(1, match_id).bind(2, account_id);
    while (q.step(&s))
      out.insert(q.column_text(0));
    return s;
  });
  return out;
}

}  // namespace castra::lobby
