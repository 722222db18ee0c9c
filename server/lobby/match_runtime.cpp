#include "server/lobby/match_runtime.hpp"

#include <chrono>

namespace castra::lobby {

namespace {
std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

store::Status LobbyOnlyRuntime::create(const store::MatchRow& row, const store::Secrets& secrets) {
  return store_.create_match(row, secrets);
}

void LobbyOnlyRuntime::seat(const store::MatchRow& row, int side, std::int64_t account,
                            const std::string& entropy, Done done) {
  std::optional<store::Secrets> secrets;
  if (auto s = store_.secrets(row.id, &secrets); !s.ok() || !secrets) {
    return done(s.ok() ? store::Status{1, "no secrets for match " + row.id} : s, row);
  }
  store::MatchRow next = row;
  (side == 0 ? next.player_a : next.player_b) = account;
  (side == 0 ? secrets->entropy_a : secrets->entropy_b) = entropy;
  if (next.player_a && next.player_b) next.status = store::MatchStatus::kLive;
  next.updated_ms = now_ms();
  store::AppendRequest request;
  request.match_id = row.id;
  request.side = side;
  request.match_update = next;
  request.secrets_update = std::move(*secrets);
  // The seat and the entropy are one transaction; `done` waits for its commit.
  store_.append(std::move(request), [next, done](store::Status s) { done(s, next); });
}

void LobbyOnlyRuntime::end(const store::MatchRow& row, const std::string&, Done done) {
  store::MatchRow next = row;
  next.status = store::MatchStatus::kClosed;
  next.to_act.clear();
  next.deadline_a_ms.reset();
  next.deadline_b_ms.reset();
  next.updated_ms = now_ms();
  done(store_.update_match(next), next);
}

}  // namespace castra::lobby
