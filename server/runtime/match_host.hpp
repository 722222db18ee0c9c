// MatchHost: one match being played on this server: the match itself (AnyMatch), its row,
// who watches it, the sides' deadlines, the answers given to each client sequence number,
// and the commands decided but not yet committed. A command is decided at once (so the next
// one sees its effects), acknowledged and broadcast only after the store has committed it,
// in order. Thread-safe: every public call takes the host's mutex; callbacks and observers
// are always called with no lock held.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "proto/castra/v1/match.pb.h"
#include "server/base/clock.hpp"
#include "server/store/match_store.hpp"

namespace castra::runtime {

using rules::Side;
using rules::Viewer;
using server::Clock;

// A seated side came or went: told to the match's subscribers, in order with its updates.
struct Presence {
  Side side = Side::kA;
  bool connected = false;
  std::int64_t grace_ends_ms = 0;  // when the opponent may claim the win; 0 if no grace runs
};

// Receives the updates of the matches it watches. Must not block: it queues and returns.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_update(const v1::MatchUpdate& update) = 0;
  virtual void on_presence(const Presence& /*presence*/) {}
};

// What a match tells the server beyond its subscribers: that a side has to act now, for the
// player's connections that are not in the match's room (those get MatchUpdate.your_move).
struct HostNotice {
  std::string match_id;
  Side side = Side::kA;
  std::optional<std::int64_t> account;  // the side's player
  std::int64_t deadline_ms = 0;         // the side's deadline; 0 when untimed
};

struct HostOptions {
  std::uint32_t snapshot_every = 32;  // entries between stored snapshots
  // Runs work off the store's writer thread (the server posts to its io threads). The default
  // runs it at once, which suits tests over a store whose queue never fills.
  std::function<void(std::function<void()>)> post = [](std::function<void()> f) { f(); };
  // An ended match nobody watches leaves memory this long after its last use (its record,
  // answers and pictures are loaded again from the store when asked for).
  std::int64_t keep_ended_ms = 10 * 60 * 1000;
  // Receives the notices; called with no lock held, must not block. Empty: none are made.
  std::function<void(const HostNotice&)> notify;
};

class MatchHost : public std::enable_shared_from_this<MatchHost> {
 public:
  MatchHost(std::unique_ptr<wire::AnyMatch> match, store::MatchRow row, v1::MatchSettings settings,
            store::MatchStore& store, const Clock& clock, HostOptions options);

  const std::string& id() const { return id_; }
  store::MatchRow row() const;
  v1::MatchSettings settings() const { return settings_; }

  // A player takes side `side`, adding entropy to the dice. Done after the commit. No
  // account: the server's computer opponent (server/computer), whose row column stays empty.
  void seat(Side side, std::optional<std::int64_t> account, std::string entropy,
            std::function<void(std::optional<rules::RuleError>)> done);

  // A side's game command. A repeated client_seq gets the first answer and is never applied
  // twice, across restarts too. `done` runs after the commit (or at once for a refusal).
  void submit(Side side, std::optional<std::int64_t> client_seq, const v1::GameCommand& command,
              const match::Bytes32& command_salt, std::function<void(v1::CommandResult)> done);

  // Match-level acts; each gives an error or nothing, after the commit.
  using Done = std::function<void(std::optional<rules::RuleError>)>;
  void resign(Side side, Done done);
  void offer_draw(Side side, Done done);
  void accept_draw(Side side, Done done);
  void decline_draw(Side side, Done done);
  // After the disconnect grace of a live match has run out for the opponent while it had to act.
  void claim_win(Side side, Done done);
  void abort(const std::string& why, Done done);

  // Starts sending `observer` what `viewer` may see: the missing events after `seen_events`
  // (the number of events it has), or a snapshot when it has none or too old a picture.
  void subscribe(Viewer viewer, std::optional<std::uint64_t> seen_events,
                 std::shared_ptr<Observer> observer);
  void unsubscribe(const Observer* observer);
  std::size_t spectators() const;

  // One of a seated player's connections came or went: the side is connected while any of
  // its connections watches (disconnect grace in live matches; presence notices).
  void set_connected(Side side, bool connected);
  // Deadlines: a side that misses its deadline while it must act forfeits.
  void tick();

  std::optional<v1::MatchRecord> record() const;
  bool ended() const;
  bool seated(Side side) const;
  // Ended, watched by nobody, nothing in flight or queued, and unused for keep_ended_ms.
  bool may_leave_memory() const;
  rules::Acting acting() const;
  v1::Snapshot snapshot(Viewer viewer) const;
  // What `viewer` sees after the first `entries` committed log entries (rebuilt from the log).
  rules::Checked<v1::Snapshot> snapshot_at(Viewer viewer, std::uint32_t entries) const;
  v1::GameLegal legal(Side side) const;
  std::uint64_t committed_events() const;

  // Start-up recovery: replays the stored log; a mismatch closes the match.
  std::optional<std::string> restore(const store::Secrets& secrets,
                                     const std::vector<store::LogRow>& log,
                                     const std::optional<store::Snapshot>& snapshot);

 private:
  struct Subscriber {
    Viewer viewer;
    std::weak_ptr<Observer> observer;
    std::uint64_t next_event = 0;  // the first event it has not been sent
    bool needs_snapshot = true;
    bool sent_record = false;
  };
  // The one write in flight. Commands of one match are decided one at a time, each after
  // the previous one is committed, so the in-memory match never runs ahead of the store
  // when anything is sent; different matches still share commits (group commit).
  struct InFlight {
    std::uint32_t entry = 0;
    Side side = Side::kA;
    std::optional<std::int64_t> client_seq;
    v1::CommandResult result;
    std::function<void(v1::CommandResult)> done;
  };
  using Deliveries = std::vector<std::function<void()>>;
  using Op = std::function<void(Deliveries&)>;

  // Runs `op` now, or after the write in flight, and delivers what it produced with no lock
  // held: the shape of every public request.
  void act(Op op);
  void run_or_queue(Op op, Deliveries& out);  // caller holds mu_
  void drain(Deliveries& out);                // caller holds mu_

  // Writes entry `entry` (just appended to match_) with the row's new columns; `done` runs
  // after the commit. Caller holds mu_.
  void persist_entry(std::uint32_t entry, Side side, std::optional<std::int64_t> client_seq,
                     v1::CommandResult result, std::function<void(v1::CommandResult)> done,
                     std::optional<store::Secrets> secrets = std::nullopt);
  void on_committed(std::uint32_t entry, const store::Status& status);
  // Ends the match outside the rules and persists the end entry; caller holds mu_.
  void end_now(match::EndReason reason, Side side, rules::Outcome outcome, Done done,
               Deliveries& out);
  void update_deadlines();  // caller holds mu_
  void fill_row();          // caller holds mu_
  // The updates every subscriber is owed now; caller holds mu_.
  void collect_updates(Deliveries* out);
  // The notices owed now (a side that has just come to act); caller holds mu_.
  void collect_notices(Deliveries* out);
  Presence presence(Side side) const;  // caller holds mu_
  // Tells every subscriber (or only `only`) of `side`'s presence; caller holds mu_.
  void tell_presence(Side side, Deliveries* out, const Observer* only = nullptr);
  std::uint64_t visible_events(const Subscriber& s) const;               // caller holds mu_
  v1::MatchUpdate status_update(Viewer viewer) const;                    // caller holds mu_
  std::unique_ptr<wire::AnyMatch> rebuild(std::uint32_t entries) const;  // caller holds mu_

  const std::string id_;
  store::MatchStore& store_;
  const Clock& clock_;
  const HostOptions options_;
  v1::MatchSettings settings_;

  mutable std::mutex mu_;
  std::unique_ptr<wire::AnyMatch> match_;
  store::MatchRow row_;
  std::optional<InFlight> in_flight_;
  std::deque<Op> queue_;
  std::uint32_t committed_entries_ = 0;
  std::uint64_t committed_events_ = 0;
  std::vector<int> turn_after_entry_;              // the game turn once entry i was applied
  std::vector<std::uint64_t> events_after_entry_;  // the event count once entry i was applied
  std::map<std::pair<int, std::int64_t>, v1::CommandResult> replies_;
  std::vector<Subscriber> subscribers_;
  bool closed_ = false;
  bool aborted_ = false;         // ended by an operator: stored as "closed", not "finished"
  int connections_[2] = {0, 0};  // watching connections of each seated side
  bool told_to_act_[2] = {false, false};
  std::int64_t absent_acting_ms_[2] = {0, 0};
  std::int64_t last_tick_ms_ = 0;
  std::optional<Side> draw_offer_;
  mutable std::int64_t last_used_ms_ = 0;
};

}  // namespace castra::runtime
