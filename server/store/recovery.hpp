// Start-up recovery (design section 6): every unfinished match ('open' or 'live') is read back
// and handed to a replay check the caller supplies (the store knows no rule set); a match whose
// replay disagrees with what was stored is marked 'closed', with a log line, never a crash.
// Called once at start-up, before the server accepts commands, from the thread that owns start-up.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "server/store/match_store.hpp"

namespace castra::store {

// Given a match row, its latest snapshot (nullopt if none) and its whole log from entry 0,
// loads the match the fast way (the snapshot, then the entries from snapshot->entry_count on),
// replays the whole log from the start, and says whether both agree: the state hash at the
// snapshot's entry count is the snapshot's, and the loaded state's hash is the replay's. It
// keeps the loaded match for the runtime when it returns true.
using ReplayCheck =
    std::function<bool(const MatchRow& match, const std::optional<Snapshot>& snapshot,
                       const std::vector<LogRow>& log)>;

struct Recovery {
  std::vector<MatchRow> loadable;  // replayed and checked: the runtime may resume them
  std::vector<MatchRow> closed;    // marked 'closed' now (their rows as they were read)
};

// A read or write error stops recovery at once with its Status (nothing is closed because of
// a read that failed); what was decided before that stays decided.
Status recover_matches(MatchStore& store, const ReplayCheck& replay, std::int64_t now_ms,
                       Recovery* recovery);

}  // namespace castra::store
