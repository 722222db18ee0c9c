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

void LobbyOnlyRuntime::start(const store::MatchRow& row,
                             std::function<void(store::Status, store::MatchRow)> done) {
  store::MatchRow next = row;
  next.status = "live";
  next.updated_ms = now_ms();
  done(store_.update_match(next), next);
}

void LobbyOnlyRuntime::end(const store::MatchRow& row, const std::string&,
                           std::function<void(store::Status, store::MatchRow)> done) {
  store::MatchRow next = row;
  next.status = "closed";
  next.to_act.clear();
  next.deadline_a_ms.reset();
  next.deadline_b_ms.reset();
  next.updated_ms = now_ms();
  done(store_.update_match(next), next);
}

}  // namespace castra::lobby
