// ChatStore: match chat lines and mutes (migrations/0005_chat.sql), written through the
// store's one writer and read on its read connection. Synchronous; service thread only.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "server/store/sql_access.hpp"
#include "server/store/sqlite.hpp"

namespace castra::lobby {

enum class Channel { kPlayers = 0, kSpectators = 1 };

struct ChatLine {
  std::int64_t id = 0;
  std::string match_id;
  Channel channel = Channel::kPlayers;
  std::int64_t author_id = 0;
  std::string author;
  std::string text;
  std::int64_t sent_ms = 0;
};

class ChatStore {
 public:
  explicit ChatStore(store::SqlAccess& sql) : sql_(sql) {}
  // Stores the line and gives it its id.
  store::Status add(ChatLine& line);
  // Lines before `before_id` (0: the newest), oldest first, at most `limit`.
  std::vector<ChatLine> history(const std::string& match_id, Channel channel,
                                std::int64_t before_id, int limit, store::Status* status);
  store::Status mute(const std::string& match_id, std::int64_t account_id,
                     const std::string& muted_key);
  store::Status unmute(const std::string& match_id, std::int64_t account_id,
                       const std::string& muted_key);
  // The name keys `account_id` has muted in `match_id`.
  std::set<std::string> mutes(const std::string& match_id, std::int64_t account_id,
                              store::Status* status);

 private:
  store::SqlAccess& sql_;
};

}  // namespace castra::lobby
