// MatchHost: one match being played on this server, as an actor. Its strand owns the match
// (AnyMatch), its row, its room (who watches it, as what), its deadlines and the answers given
// to each client sequence number; every request is a task on that strand, taken one at a time,
// so nothing else touches the match's state and no lock guards it. A command is decided at
// once and written to the store; the store's writer posts the commit's outcome back to the
// strand, and only then are the room's updates and the command's answer sent, in order. The
// match in memory is the one source of truth while it is hosted: the store is where it is made
// durable, never where it is read back from to answer a request.
// Threading: every public call may be made from any thread and returns at once; callbacks,
// observers and listeners run on the strand and must not block (they queue and return).
// seen() reads a published picture and never waits.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "proto/castra/v1/match.pb.h"
#include "server/base/clock.hpp"
#include "server/base/encoding.hpp"
#include "server/base/strand.hpp"
#include "server/runtime/answer.hpp"
#include "server/store/match_store.hpp"

namespace castra::runtime {

using rules::Side;
using rules::Viewer;
using server::Clock;

// One update as it goes out: the message, and the ServerEnvelope push that carries it,
// encoded once per encoding for every viewer who sees the same (all undelayed spectators,
// say): a view's JSON frame is made when its first JSON viewer needs it, then shared.
struct Update {
  std::shared_ptr<const v1::MatchUpdate> message;
  std::shared_ptr<const server::Frames> frames;
};

// A seated side came or went: told to the match's room, in order with its updates.
struct Presence {
  Side side = Side::kA;
  bool connected = false;
  std::int64_t grace_ends_ms = 0;  // when the opponent may claim the win; 0 if no grace runs
};

// Receives the updates of the matches it watches, on the match's strand. Must not block.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_update(const Update& update) = 0;
  virtual void on_presence(const Presence& /*presence*/) {}
  // Cluster mode: this node no longer hosts the match (MatchHost::lose); nothing more comes.
  virtual void on_moved() {}
};

// What a match tells the server beyond its room: that a side has to act now, for the
// player's connections that are not in the match's room (those get MatchUpdate.your_move);
// that it has ended with an outcome (its record is published: seen()->record), for a campaign
// whose battle it is.
struct HostNotice {
  enum class Kind { kYourMove, kEnded };
  Kind kind = Kind::kYourMove;
  std::string match_id;
  Side side = Side::kA;
  std::optional<std::int64_t> account;  // the side's player
  std::int64_t deadline_ms = 0;         // the side's deadline; 0 when untimed
};

struct HostOptions {
  std::uint32_t snapshot_every = 32;  // entries between stored snapshots
  // An ended match nobody watches leaves memory this long after its last use (its record,
  // answers and pictures are loaded again from the store when asked for).
  std::int64_t keep_ended_ms = 10 * 60 * 1000;
  // Receives the notices; called on the strand, must not block. Empty: none are made.
  std::function<void(const HostNotice&)> notify;
};

// What anyone may read of a hosted match without waiting: published by its strand after every
// change, immutable once published.
struct Seen {
  store::MatchRow row;
  rules::Acting acting;
  bool seated[2] = {false, false};
  bool ended = false;         // an outcome, or closed
  bool closed = false;        // may not go on (ended without an outcome, or its store failed)
  std::uint32_t entries = 0;  // committed log entries
  std::uint64_t events = 0;   // committed events
  std::uint32_t spectators = 0;
  std::uint32_t watchers = 0;  // everyone in the room, players' connections included
  bool quiet = true;           // nothing in flight or queued
  std::shared_ptr<const v1::MatchRecord> record;  // once ended with an outcome
};

// The answer to an accepted or refused game command, and (when accepted and the command's
// sender watches the match) the update its own connection would have been pushed, left for
// the answer's frame to carry.
struct Submitted {
  v1::CommandResult result;
  std::optional<Update> mover_update;
};

class MatchHost : public std::enable_shared_from_this<MatchHost> {
 public:
  MatchHost(std::unique_ptr<wire::AnyMatch> match, store::MatchRow row, v1::MatchSettings settings,
            store::MatchStore& store, const Clock& clock, server::Executor& executor,
            HostOptions options);
  ~MatchHost();

  const std::string& id() const { return id_; }
  const v1::MatchSettings& settings() const { return settings_; }
  std::shared_ptr<const Seen> seen() const { return seen_.load(); }

  template <class T>
  using Reply = std::function<void(Answer<T>)>;

  // A player (or, with no account, the server's computer) takes side `side`, adding entropy
  // to the dice. Answered after the commit.
  void seat(Side side, std::optional<std::int64_t> account, std::string entropy, Reply<Done> done);

  // A side's game command. A repeated client_seq gets the first answer and is never applied
  // twice, across restarts too. `mover`, if it watches the match, gets its update in the
  // answer instead of as a push of its own. Answered after the commit (a refusal at once).
  void submit(Side side, std::optional<std::int64_t> client_seq, const v1::GameCommand& command,
              const match::Bytes32& command_salt, std::shared_ptr<const Observer> mover,
              Reply<Submitted> done);

  // Match-level acts, each answered after its commit (a refusal at once).
  void resign(Side side, Reply<Done> done);
  void offer_draw(Side side, Reply<Done> done);
  void accept_draw(Side side, Reply<Done> done);
  void decline_draw(Side side, Reply<Done> done);
  // After the disconnect grace of a live match has run out for the opponent while it had to act.
  void claim_win(Side side, Reply<Done> done);
  void abort(const std::string& why, Reply<Done> done);

  // What `side` may do now (only ever for that side).
  void legal(Side side, Reply<v1::GameLegal> done);
  // Why `side`'s piece cannot act, with Optio's command view, on its own projection (only
  // ever for that side).
  void reasons(Side side, v1::Piece piece, Reply<v1::PieceReasons> done);
  // What `viewer` saw after the first `entries` committed log entries.
  void snapshot_at(Viewer viewer, std::uint32_t entries, Reply<v1::Snapshot> done);
  // ... after the first `events` committed events (a replay's step inside an entry too).
  void snapshot_at_event(Viewer viewer, std::uint64_t events, Reply<v1::Snapshot> done);

  // Starts sending `observer` what `viewer` may see: first the board with the events after
  // `seen_events` (the number of events it has; all of them when it has none), then an update
  // after every change. The rest of the room is told only of the spectator count, coalesced
  // to at most one update a tick.
  void subscribe(Viewer viewer, std::optional<std::uint64_t> seen_events,
                 std::shared_ptr<Observer> observer);
  // Held until the strand has let it go, so that its address names no newcomer meanwhile.
  void unsubscribe(std::shared_ptr<const Observer> observer);

  // One of a seated player's connections came or went: the side is connected while any of
  // its connections watches (disconnect grace in live matches; presence notices).
  void set_connected(Side side, bool connected);
  // Deadlines: a side that misses its deadline while it must act forfeits; the room's
  // coalesced spectator count goes out.
  void tick();
  // A paused campaign holds its battle's clocks from `since_ms` (moves may still be made, no
  // deadline runs out, no disconnect grace runs); released, every running deadline moves on
  // by the time held, and the row is written. Answered after the commit, at once if nothing
  // changes.
  void hold_clocks(bool held, std::int64_t since_ms, Reply<Done> done);

  // Cluster mode: another node owns the match now. Everything asked of this host from here
  // on is refused ("match.moved"), its deadlines stop, and its room is told (on_moved) and
  // emptied. Runs on the strand ahead of the write in flight's outcome.
  void lose();

  // Ended, watched by nobody, nothing in flight or queued, and unused for keep_ended_ms.
  bool may_leave_memory() const;

  // Start-up recovery and loading back: replays the stored log (on the calling thread, before
  // the host is shared); a mismatch closes the match and says why.
  std::optional<std::string> restore(const store::Secrets& secrets,
                                     const std::vector<store::LogRow>& log,
                                     const std::optional<store::Snapshot>& snapshot);

 private:
  // One connection (or computer) in the room.
  struct Member {
    Viewer viewer = Viewer::kSpectator;
    std::weak_ptr<Observer> observer;
    std::uint64_t next_event = 0;  // the first event it has not been sent
    bool sent_record = false;
  };
  struct InFlight;
  using Op = std::function<void()>;
  // What made the room's updates due: a committed move (everyone whose picture changed) or a
  // change of the match's own state (a draw offer: the live room, without a board). A
  // newcomer is sent its first update by subscribe() itself.
  enum class Change { kMove, kState };

  // Runs `op` on the strand now, or after the write in flight: the shape of every request.
  void act(Op op);
  void run_or_queue(Op op);
  void drain();
  void on_committed(const store::Status& status);

  void persist_entry(std::uint32_t entry, Side side, std::optional<std::int64_t> client_seq,
                     v1::CommandResult result, std::shared_ptr<const Observer> mover,
                     Reply<Submitted> done, std::optional<store::Secrets> secrets = std::nullopt);
  void write(store::AppendRequest request, std::unique_ptr<InFlight> in_flight);
  // The highest client_seq of `side` with an answer, if any.
  std::optional<std::int64_t> last_seq(Side side) const;
  // `command` is the one that got `first` (a repeat), not another under its number.
  bool same_command(const v1::CommandResult& first, const v1::GameCommand& command) const;
  void end_now(match::EndReason reason, Side side, rules::Outcome outcome, Reply<Done> done);
  void update_deadlines();
  void fill_row();
  void publish();

  // The room (match_room.cpp). fan_out sends every member what it is owed after `change`; the
  // mover's update (if `mover` is a member) is returned instead of sent.
  std::optional<Update> fan_out(Change change, const Observer* mover = nullptr);
  Update make_update(const Member& m, std::uint64_t visible, bool board, bool record);
  v1::Snapshot picture(Viewer viewer, std::uint64_t visible) const;
  void send_count();
  void collect_notices();
  Presence presence(Side side) const;
  void tell_presence(Side side);
  std::uint64_t visible_events(const Member& m) const;
  std::uint32_t spectator_count() const;
  const v1::GameLegal& legal_now(Side side);

  // Once a match has ended: its whole log re-decided from the start; a log that does not
  // replay is reported (the record is public, and castra-sim verify would find it too).
  void verify_whole_log();

  const std::string id_;
  store::MatchStore& store_;
  const Clock& clock_;
  const HostOptions options_;
  const v1::MatchSettings settings_;
  server::Strand strand_;
  std::atomic<std::shared_ptr<const Seen>> seen_;
  std::atomic<std::int64_t> last_used_ms_{0};

  // Everything below is the strand's alone.
  std::unique_ptr<wire::AnyMatch> match_;
  store::MatchRow row_;
  std::unique_ptr<InFlight> in_flight_;
  std::deque<Op> queue_;
  std::uint32_t committed_entries_ = 0;
  std::uint64_t committed_events_ = 0;
  std::vector<int> turn_after_entry_;              // the game turn once entry i was applied
  std::vector<std::uint64_t> events_after_entry_;  // the event count once entry i was applied
  std::map<std::pair<int, std::int64_t>, v1::CommandResult> replies_;
  std::vector<Member> room_;
  bool count_due_ = false;  // the spectator count changed since the room was last told
  std::shared_ptr<const v1::MatchRecord> record_;
  std::optional<v1::GameLegal> legal_[2];  // for the committed state; reset by every commit
  bool closed_ = false;
  bool moved_ = false;           // lose(): the match is another node's now
  bool aborted_ = false;         // ended by an operator: stored as closed, not finished
  int connections_[2] = {0, 0};  // watching connections of each seated side
  bool told_to_act_[2] = {false, false};
  std::int64_t absent_acting_ms_[2] = {0, 0};
  std::int64_t last_tick_ms_ = 0;
  std::optional<Side> draw_offer_;
  std::optional<std::int64_t> held_since_;  // hold_clocks
};

}  // namespace castra::runtime
