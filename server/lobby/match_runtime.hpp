// MatchRuntime: the lobby's one hook into the match runtime: the lobby decides who may do
// what, the runtime stores and plays (create, seat with entropy, end). Part 2's runtime
// (server/runtime: Runtime::create, MatchHost::seat, abort) implements it; until then
// LobbyOnlyRuntime writes rows and plays nothing. Called on the service thread; `done` may run
// on any thread (the store writer's included).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "server/store/match_store.hpp"

namespace castra::lobby {

class MatchRuntime {
 public:
  using Done = std::function<void(store::Status, store::MatchRow)>;
  virtual ~MatchRuntime() = default;
  // Stores `row` (status "open", no seat taken) and its secrets; the commitment is public once
  // this returns.
  virtual store::Status create(const store::MatchRow& row, const store::Secrets& secrets) = 0;
  // Seats `account` on `side` (0: A, 1: B) with his entropy, after the commit; `done` gets the
  // row as stored, "live" when both seats are now taken.
  virtual void seat(const store::MatchRow& row, int side, std::int64_t account,
                    const std::string& entropy, Done done) = 0;
  // Ends `row` without an outcome ("closed"), `reason` in words.
  virtual void end(const store::MatchRow& row, const std::string& reason, Done done) = 0;
};

// Part 1's stand-in: rows and secrets only, no play.
class LobbyOnlyRuntime final : public MatchRuntime {
 public:
  explicit LobbyOnlyRuntime(store::MatchStore& store) : store_(store) {}
  store::Status create(const store::MatchRow& row, const store::Secrets& secrets) override;
  void seat(const store::MatchRow& row, int side, std::int64_t account, const std::string& entropy,
            Done done) override;
  void end(const store::MatchRow& row, const std::string& reason, Done done) override;

 private:
  store::MatchStore& store_;
};

}  // namespace castra::lobby
