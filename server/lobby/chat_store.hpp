// ChatStore: the interface to match chat lines and mutes, whichever database holds them
// (SQLite: sqlite_chat_store.hpp; PostgreSQL: server/store/postgres/). Each write's `done`
// runs after its commit, on the caller's thread; reads are synchronous. Service thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "server/store/status.hpp"

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
  using Done = std::function<void(store::Status)>;
  virtual ~ChatStore() = default;
  // Stores the line; `done` gets it with its id after the commit.
  virtual void add(ChatLine line, std::function<void(store::Status, ChatLine)> done) = 0;
  // Lines before `before_id` (0: the newest), oldest first, at most `limit`.
  virtual std::vector<ChatLine> history(const std::string& match_id, Channel channel,
                                        std::int64_t before_id, int limit,
                                        store::Status* status) = 0;
  virtual void mute(const std::string& match_id, std::int64_t account_id,
                    const std::string& muted_key, Done done) = 0;
  virtual void unmute(const std::string& match_id, std::int64_t account_id,
                      const std::string& muted_key, Done done) = 0;
  // The name keys `account_id` has muted in `match_id`.
  virtual std::set<std::string> mutes(const std::string& match_id, std::int64_t account_id,
                                      store::Status* status) = 0;
};

}  // namespace castra::lobby
