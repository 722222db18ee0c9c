// Runtime: every match this server is playing, by id. It creates matches (the lobby's one
// hook), loads them back at start-up (replaying each log and closing any that does not
// replay to its stored hashes), and drives deadlines. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/runtime/match_host.hpp"

namespace castra::runtime {

struct CreateRequest {
  std::string match_id;       // chosen by the caller (random, unguessable)
  std::string scenario_name;  // e.g. "optio/training"
  v1::ScenarioFile scenario;
  v1::MatchSettings settings;
  std::optional<std::int64_t> creator;
  match::Bytes32 server_seed{};  // from the OS CSPRNG
};

class Runtime {
 public:
  Runtime(store::MatchStore& store, const Clock& clock, HostOptions options = {});

  // A new match, stored before it is returned; its dice commitment is public from now on.
  rules::Checked<std::shared_ptr<MatchHost>> create(const CreateRequest& request);
  // The same from a row and secrets made by the lobby (server/lobby), stored here.
  rules::Checked<std::shared_ptr<MatchHost>> create(const store::MatchRow& row,
                                                    const store::Secrets& secrets);
  std::shared_ptr<MatchHost> find(const std::string& id);
  // Loads a match that is not running here (a finished one, for its record) from the store,
  // replaying its log; null when it is unknown or does not replay.
  std::shared_ptr<MatchHost> load(const std::string& id);
  // The first answer given to (match, side, client_seq), for a repeat that comes after the
  // match ended and left this server's memory (say, after a restart); nothing when the
  // command was never answered, an error when the store could not tell.
  rules::Checked<std::optional<v1::CommandResult>> first_answer(const std::string& id,
                                                                rules::Side side,
                                                                std::int64_t client_seq);
  // Loads every open and live match from the store. Returns how many were loaded and logs
  // each that could not be (kept closed).
  std::size_t recover();
  // Runs every match's deadlines and lets ended matches nobody uses leave memory
  // (HostOptions::keep_ended_ms); the server calls it every few hundred milliseconds.
  void tick();
  std::vector<std::shared_ptr<MatchHost>> matches();
  // Where every match's notices go (the server's pushes), besides HostOptions::notify; empty
  // to stop them (the server does before its service thread stops).
  void set_listener(std::function<void(const HostNotice&)> listener);

 private:
  // A host for a stored match, its log replayed and checked; null (and a log line) if not.
  std::shared_ptr<MatchHost> build(const store::MatchRow& row,
                                   const std::optional<store::Snapshot>& snapshot,
                                   const std::vector<store::LogRow>& log);

  struct ListenerSlot {
    std::mutex mu;
    std::function<void(const HostNotice&)> listener;
  };
  static HostOptions with_listener(HostOptions options, std::shared_ptr<ListenerSlot> slot);

  store::MatchStore& store_;
  const Clock& clock_;
  const std::shared_ptr<ListenerSlot> listener_ = std::make_shared<ListenerSlot>();
  const HostOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<MatchHost>> hosts_;
};

}  // namespace castra::runtime
