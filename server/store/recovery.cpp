#include "server/store/recovery.hpp"

#include <spdlog/spdlog.h>

#include <string>

namespace castra::store {

Status recover_matches(MatchStore& store, const ReplayCheck& replay, std::int64_t now_ms,
                       Recovery* recovery) {
  *recovery = Recovery{};
  for (MatchStatus status : {MatchStatus::kLive, MatchStatus::kOpen}) {
    std::vector<MatchRow> rows;
    if (Status s = store.list_matches(status, -1, &rows); !s.ok()) return s;
    for (MatchRow& row : rows) {
      std::optional<Snapshot> snapshot;
      if (Status s = store.latest_snapshot(row.id, &snapshot); !s.ok()) return s;
      std::vector<LogRow> log;
      if (Status s = store.log_from(row.id, 0, &log); !s.ok()) return s;
      if (replay(row, snapshot, log)) {
        recovery->loadable.push_back(std::move(row));
        continue;
      }
      spdlog::error(
          "event=match_closed match={} ruleset={} rules_version={} entries={} snapshot_at={} "
          "reason=\"replaying its log does not give the state stored for it; the match stays "
          "closed and its data untouched for an operator to examine\"",
          row.id, row.ruleset, row.rules_version, log.size(),
          snapshot ? std::to_string(snapshot->entry_count) : std::string("none"));
      MatchRow closed = row;
      closed.status = MatchStatus::kClosed;
      closed.updated_ms = now_ms;
      if (Status s = store.update_match(closed); !s.ok()) return s;
      recovery->closed.push_back(std::move(row));
    }
  }
  spdlog::info("event=matches_recovered loadable={} closed={}", recovery->loadable.size(),
               recovery->closed.size());
  return Status::success();
}

}  // namespace castra::store
