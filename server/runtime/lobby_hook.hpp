// LobbyHook: the lobby's MatchRuntime (server/lobby/match_runtime.hpp) played by the match
// runtime: creating a match makes its MatchHost, a seat goes through MatchHost::seat (the
// opening events are rolled when the second seat is taken), and an operator's end aborts
// the match. Called on the service thread; `done` runs on the store's writer thread.
#pragma once

#include "server/lobby/match_runtime.hpp"
#include "server/runtime/runtime.hpp"

namespace castra::runtime {

class LobbyHook final : public lobby::MatchRuntime {
 public:
  explicit LobbyHook(Runtime& runtime) : runtime_(runtime) {}

  store::Status create(const store::MatchRow& row, const store::Secrets& secrets) override;
  void seat(const store::MatchRow& row, int side, std::int64_t account, const std::string& entropy,
            Done done) override;
  void end(const store::MatchRow& row, const std::string& reason, Done done) override;

 private:
  Runtime& runtime_;
};

}  // namespace castra::runtime
