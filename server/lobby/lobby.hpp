// Lobby: creating matches (the one place a match comes into being: its id and server seed),
// listing, seating players with their dice entropy, withdrawing and ending matches, and chat
// with per-player mutes. It decides who may do what and asks the match runtime directly
// (Runtime::prepare and host to create, MatchHost::seat and abort after that), which checks
// the rules, stores and plays. Nothing here waits on a commit: every answer that depends on a
// write is given, through `done`, after its commit. Service thread only; `done` callbacks run
// on the service thread too (the runtime's answers are posted back there).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "proto/castra/v1/match.pb.h"
#include "server/base/clock.hpp"
#include "server/base/failure.hpp"
#include "server/base/metrics.hpp"
#include "server/lobby/chat_store.hpp"
#include "server/lobby/scenarios.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/match_store.hpp"

namespace castra::lobby {

using Post = std::function<void(std::function<void()>)>;

struct LobbyOptions {
  int max_open_matches_per_account = 10;
};

using store::MatchStatus;

struct Created {
  store::MatchRow row;
  std::string invitation_code;  // private matches
};

// 0 for side A, 1 for side B, nullopt when `account` has no seat in `row`.
std::optional<int> seat_of(const store::MatchRow& row, std::int64_t account);
// The side the creator chose (or drew), whether or not he has taken it yet.
int creator_side(const castra::v1::MatchSettings& settings);
bool to_act(const store::MatchRow& row, int side);
// The settings a client asked for, checked and with defaults filled in (docs/protocol.md).
server::Result<castra::v1::MatchSettings> normalized_settings(castra::v1::MatchSettings settings);
// How the server's computer opponent is named in a match's summary: "Computer (greedy)".
std::string computer_name(castra::v1::ComputerStrength strength);
// The side (0: A, 1: B) the computer plays in a match whose settings name one.
int computer_side(const castra::v1::MatchSettings& settings);
// Match ids are 32 lower-case hex digits (128 random bits).
bool well_formed_match_id(const std::string& id);

class Lobby {
 public:
  Lobby(store::MatchStore& matches, const Scenarios& scenarios, ChatStore& chat,
        runtime::Runtime& runtime, store::MatchCounts& counts, Post to_service,
        const server::Clock& clock, LobbyOptions options, server::Metrics* metrics);

  template <class T>
  using Done = std::function<void(server::Result<T>)>;
  using RowDone = Done<store::MatchRow>;

  // Checks the request, has the runtime check the scenario against its rules (a scenario the
  // engine refuses is ERROR_INVALID_REQUEST naming the rule) and host the match; `done` after
  // the commit.
  void create(std::int64_t account, const std::string& scenario, castra::v1::MatchSettings settings,
              bool is_private, Done<Created> done);
  std::vector<store::MatchRow> list(MatchStatus status, const std::string& ruleset, int limit);
  // The account's matches, those where it has to act first, then the newest.
  std::vector<store::MatchRow> mine(std::int64_t account, int limit);
  // The match as it is now: the hosted one's row, else the stored one; nullopt when there is
  // none (or the store failed: logged).
  std::optional<store::MatchRow> find(const std::string& match_id);
  castra::v1::MatchSettings settings_of(const store::MatchRow& row) const;

  // The creator takes his side with his entropy: the match is listed from now on.
  void provide_entropy(std::int64_t account, const std::string& match_id,
                       const std::string& entropy, RowDone done);
  // A second player takes the other side with his entropy: the match starts.
  void join(std::int64_t account, const std::string& match_id, const std::string& code,
            const std::string& entropy, RowDone done);
  // The creator withdraws a match that has not started: it is closed.
  void leave(std::int64_t account, const std::string& match_id, RowDone done);
  void end_by_operator(const std::string& match_id, const std::string& reason, RowDone done);
  // Checks a private match's code (public matches need none).
  bool invitation_ok(const store::MatchRow& row, const std::string& code) const;

  void post_chat(const store::MatchRow& row, Channel channel, std::int64_t author_id,
                 const std::string& author, const std::string& text, Done<ChatLine> done);
  server::Result<std::vector<ChatLine>> chat_history(const std::string& match_id, Channel channel,
                                                     std::int64_t before_id, int limit);
  void mute(const std::string& match_id, std::int64_t player, const std::string& name, bool muted,
            Done<server::Ok> done);
  // Whether `player` has muted the spectator named `author` in `match_id`.
  bool muted(const std::string& match_id, std::int64_t player, const std::string& author);

  // Recounts matches by status into the metrics.
  void refresh_counts();

 private:
  void seat(const std::shared_ptr<runtime::MatchHost>& host, int side, std::int64_t account,
            const std::string& entropy, RowDone done);
  void end(const std::shared_ptr<runtime::MatchHost>& host, const std::string& reason,
           RowDone done);
  // ERROR_TOO_MANY_MATCHES when the account has its fill of open matches.
  std::optional<server::Failure> open_limit(std::int64_t account);
  // The hosted match of an existing row, loaded back if it left memory.
  std::shared_ptr<runtime::MatchHost> host_of(const std::string& match_id);

  store::MatchStore& matches_;
  const Scenarios& scenarios_;
  ChatStore& chat_;
  runtime::Runtime& runtime_;
  store::MatchCounts& counts_;
  Post to_service_;
  const server::Clock& clock_;
  LobbyOptions options_;
  server::Metrics* metrics_;
  std::map<std::pair<std::string, std::int64_t>, std::set<std::string>> mutes_;  // cache
};

}  // namespace castra::lobby
