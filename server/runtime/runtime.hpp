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
  std::shared_ptr<MatchHost> find(const std::string& id);
  // Loads every open and live match from the store. Returns how many were loaded and logs
  // each that could not be (kept closed).
  std::size_t recover();
  // Runs every match's deadlines; the server calls it every few hundred milliseconds.
  void tick();
  std::vector<std::shared_ptr<MatchHost>> matches();

 private:
  store::MatchStore& store_;
  const Clock& clock_;
  const HostOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<MatchHost>> hosts_;
};

}  // namespace castra::runtime
