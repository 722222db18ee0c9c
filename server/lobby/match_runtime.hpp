// MatchRuntime: where the lobby hands a match over to play. The lobby seats players and
// collects their entropy; when a match is ready (both seats taken, both players' entropy in)
// it calls start(), and an operator's end-match calls end(). Part 2's runtime implements this
// (plays the opening log entry, runs clocks); until then LobbyOnlyRuntime only marks the row.
// Called on the service thread; `done` may run on any thread.
#pragma once

#include <functional>
#include <string>

#include "server/store/match_store.hpp"

namespace castra::lobby {

class MatchRuntime {
 public:
  virtual ~MatchRuntime() = default;
  // `row` is ready: make it live. `done` gets the row as stored afterwards, or a failure.
  virtual void start(const store::MatchRow& row,
                     std::function<void(store::Status, store::MatchRow)> done) = 0;
  // Ends `row` without an outcome (an operator's decision, `reason` in words).
  virtual void end(const store::MatchRow& row, const std::string& reason,
                   std::function<void(store::Status, store::MatchRow)> done) = 0;
};

// Part 1's stand-in: start() sets the status to "live", end() to "closed"; no play.
class LobbyOnlyRuntime final : public MatchRuntime {
 public:
  explicit LobbyOnlyRuntime(store::MatchStore& store) : store_(store) {}
  void start(const store::MatchRow& row,
             std::function<void(store::Status, store::MatchRow)> done) override;
  void end(const store::MatchRow& row, const std::string& reason,
           std::function<void(store::Status, store::MatchRow)> done) override;

 private:
  store::MatchStore& store_;
};

}  // namespace castra::lobby
