// SqliteChatStore: ChatStore over the SQLite tables chat_messages and chat_mutes
// (migrations/0005_chat.sql), written through the store's one writer and read on its read
// connection (server/store/sql_access.hpp). Service thread only.
#pragma once

#include "server/lobby/chat_store.hpp"
#include "server/store/sql_access.hpp"

namespace castra::lobby {

class SqliteChatStore final : public ChatStore {
 public:
  explicit SqliteChatStore(store::SqlAccess& sql) : sql_(sql) {}
  void add(ChatLine line, std::function<void(store::Status, ChatLine)> done) override;
  std::vector<ChatLine> history(const std::string& match_id, Channel channel,
                                std::int64_t before_id, int limit, store::Status* status) override;
  void mute(const std::string& match_id, std::int64_t account_id, const std::string& muted_key,
            Done done) override;
  void unmute(const std::string& match_id, std::int64_t account_id, const std::string& muted_key,
              Done done) override;
  std::set<std::string> mutes(const std::string& match_id, std::int64_t account_id,
                              store::Status* status) override;

 private:
  store::SqlAccess& sql_;
};

}  // namespace castra::lobby
