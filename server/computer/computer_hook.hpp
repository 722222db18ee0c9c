// ComputerHook: the lobby's MatchRuntime (server/lobby/match_runtime.hpp) with the computer
// opponents: it passes every call to the runtime's own hook, and when a new match's settings
// name a computer, seats the computer there at once (server/computer/computers.hpp), so the
// match goes live when its creator gives his entropy. Called on the service thread.
#pragma once

#include "server/computer/computers.hpp"
#include "server/lobby/match_runtime.hpp"
#include "server/runtime/runtime.hpp"

namespace castra::computer {

class ComputerHook final : public lobby::MatchRuntime {
 public:
  ComputerHook(lobby::MatchRuntime& inner, runtime::Runtime& runtime, Computers& computers)
      : inner_(inner), runtime_(runtime), computers_(computers) {}

  store::Status create(const store::MatchRow& row, const store::Secrets& secrets) override;
  void seat(const store::MatchRow& row, int side, std::int64_t account, const std::string& entropy,
            Done done) override {
    inner_.seat(row, side, account, entropy, std::move(done));
  }
  void end(const store::MatchRow& row, const std::string& reason, Done done) override {
    inner_.end(row, reason, std::move(done));
  }

 private:
  lobby::MatchRuntime& inner_;
  runtime::Runtime& runtime_;
  Computers& computers_;
};

}  // namespace castra::computer
