// Runtime: every match this server hosts, by id. The lobby asks it directly to host a new
// match (prepare, then host: the rule check is pure, the store write is answered after its
// commit), it loads matches back at start-up (replaying each log and closing any that does not
// replay to its stored hashes) and on demand (a finished match asked for after it left
// memory), and it drives the deadlines. Thread-safe; nothing here waits on a commit.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/runtime/match_host.hpp"

namespace castra::runtime {

struct RuntimeOptions {
  HostOptions host;
  // Told of every match from the moment it is hosted (created, recovered or loaded back), on
  // the caller's thread: the computer opponents take their seats from here.
  std::function<void(const std::shared_ptr<MatchHost>&)> on_hosted;
  // Cluster mode: whether this node may host the unfinished match with this id (it holds the
  // match's lease); an ended match may be loaded anywhere, for its record. Empty: always.
  std::function<bool(const std::string&)> may_host;
};

// A match checked against its rules and ready to be stored (Runtime::prepare).
struct Prepared {
  store::MatchRow row;  // with its rule set, rules version, dice commitment and times
  store::Secrets secrets;
  v1::MatchSettings settings;
  std::unique_ptr<wire::AnyMatch> match;
};

class Runtime {
 public:
  Runtime(store::MatchStore& store, const Clock& clock, server::Executor& executor,
          RuntimeOptions options = {});

  // A new match from its row (id, scenario, settings, creator) and secrets (the server's
  // seed): the rule it breaks (a scenario the engine refuses), or the match ready to host. Pure.
  rules::Checked<Prepared> prepare(store::MatchRow row, store::Secrets secrets) const;
  // Stores `prepared` and hosts it; `done` gets the host after the commit (its dice commitment
  // is public from then on), or the store's failure. Returns at once (the write is queued
  // from the matches' executor); `done` runs on the store's writer thread: it must only post.
  void host(Prepared prepared, std::function<void(Answer<std::shared_ptr<MatchHost>>)> done);

  std::shared_ptr<MatchHost> find(const std::string& id);
  // Loads a match that is not hosted here (a finished one, for its record) from the store,
  // replaying its log; null when it is unknown or does not replay.
  std::shared_ptr<MatchHost> load(const std::string& id);
  // The first answer given to (match, side, client_seq), for a repeat that comes after the
  // match ended and left this server's memory (say, after a restart); nothing when the
  // command was never answered, the store's failure when it could not tell.
  Answer<std::optional<v1::CommandResult>> first_answer(const std::string& id, rules::Side side,
                                                        std::int64_t client_seq);
  // A match's row as the store has it, hosted here or not: in cluster mode, whose move it is in
  // a match another node hosts (its owner writes to_act with every command).
  store::Status stored_row(const std::string& id, std::optional<store::MatchRow>* row);
  // Loads every open and live match from the store. Returns how many were loaded and logs
  // each that could not be (kept closed).
  std::size_t recover();
  // Cluster mode, after this node took the match's lease over: loads it from its log exactly
  // as recover() does one match (a log that does not replay closes the match). The host, or
  // null when it is unknown, ended, or could not be read.
  std::shared_ptr<MatchHost> adopt(const std::string& id);
  // Cluster mode, the lease is lost: the match leaves this node at once (MatchHost::lose),
  // its deadlines with it; another node hosts it now.
  void release(const std::string& id);
  // Every match's deadlines and coalesced counts, and lets ended matches nobody uses leave
  // memory (HostOptions::keep_ended_ms); the server calls it every few hundred milliseconds.
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
  std::shared_ptr<MatchHost> make_host(std::unique_ptr<wire::AnyMatch> match, store::MatchRow row,
                                       v1::MatchSettings settings);
  void hosted(const std::shared_ptr<MatchHost>& host);

  struct ListenerSlot {
    std::mutex mu;
    std::function<void(const HostNotice&)> listener;
  };
  static HostOptions with_listener(HostOptions options, std::shared_ptr<ListenerSlot> slot);

  store::MatchStore& store_;
  const Clock& clock_;
  server::Executor& executor_;
  const std::shared_ptr<ListenerSlot> listener_ = std::make_shared<ListenerSlot>();
  const HostOptions host_options_;
  const std::function<void(const std::shared_ptr<MatchHost>&)> on_hosted_;
  const std::function<bool(const std::string&)> may_host_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<MatchHost>> hosts_;
};

}  // namespace castra::runtime
