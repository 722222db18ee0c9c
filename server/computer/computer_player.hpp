// ComputerPlayer: the server's computer opponent in one match, seated as an ordinary player.
// It watches its match as its side's viewer; when an update says that side must act it takes,
// on the computers' pool, exactly what that side's player is sent (the board and the legal
// list of its updates), lets its Brain pick, and submits the pick through
// MatchHost::submit with increasing client sequence numbers, one pick at a time. It declines
// draw offers. It never reads more of the match than its side may see.
// Threads: on_update from any thread (it only queues); its work runs on a pool thread; start,
// stop and retry from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "common/bot/brain.hpp"
#include "server/runtime/match_host.hpp"

namespace castra::computer {

// Every input the computer is given, before it picks (a test records them).
using Tap = std::function<void(const std::string& match_id, rules::Side side,
                               const v1::Snapshot& view, const v1::GameLegal& legal)>;
// Fills `out` with random bytes: the OS CSPRNG, unless a test brings its own.
using RandomBytes = std::function<void(std::span<std::uint8_t> out)>;
// Queues a task on the pool; false when its bounded queue is full.
using Schedule = std::function<bool(std::function<void()>)>;

class ComputerPlayer final : public runtime::Observer,
                             public std::enable_shared_from_this<ComputerPlayer> {
 public:
  struct Context {
    Schedule schedule;
    RandomBytes random;
    Tap tap;  // may be empty
  };
  ComputerPlayer(std::shared_ptr<runtime::MatchHost> host, rules::Side side, bot::Brain brain,
                 Context context);

  // Subscribes to the match as its side's viewer, which counts as the side's connection.
  void start();
  // Unsubscribes; nothing more is queued or submitted afterwards.
  void stop();
  // Offers the pool again the pick its full queue refused; nothing when none was refused.
  void retry();
  // The match has ended: the player has left it.
  bool finished() const;
  const std::string& match_id() const { return host_->id(); }

  void on_update(const runtime::Update& update) override;

 private:
  void wake();  // caller holds mu_
  void work();  // on a pool thread
  void idle();
  void submitted(const runtime::Answer<runtime::Submitted>& answer);
  void leave();

  const std::shared_ptr<runtime::MatchHost> host_;
  const rules::Side side_;
  bot::Brain brain_;  // used by one pool thread at a time (busy_)
  const Context context_;
  std::int64_t next_seq_ = 1;  // set from the match's log length at start()

  mutable std::mutex mu_;
  bool busy_ = false;      // a pick is queued, running, or being committed
  bool deferred_ = false;  // the pool's queue was full: retry() offers it again
  bool move_owed_ = false;
  bool decline_owed_ = false;
  bool stopped_ = false;
  bool finished_ = false;
  int refusals_ = 0;     // commands refused in a row
  v1::Snapshot view_;    // the board of the latest update that carried one
  v1::GameLegal legal_;  // the legal list of the latest update that said it must act
};

}  // namespace castra::computer
