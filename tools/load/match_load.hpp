// MatchLoad: the matches, tournament and saturation workloads. N slots, each with two bot
// players (castra::bot::Brain, random, fed the player's snapshot and legal list) and M
// spectators, play match after match; each slot's next match is created, seated and
// subscribed while the current one runs. Commands arrive open-loop at a total rate, slot
// after slot; each one's latency counts from its scheduled time, so a server that falls
// behind shows it. Measured: submit to CommandResult, to the opponent's MatchUpdate, to each
// spectator's MatchUpdate (delivery: the update's snapshot.entry_count reaches the command's
// entry). Against a cluster behind one URL, a joiner or spectator sent to the match's node
// moves there (call_following), so a slot's connections end on the node its matches are on. The
// brain's board is the update's snapshot; only a server whose updates carry none (protocol 1.0)
// makes it ask GetSnapshot, the board refresh, measured on its own. Single-threaded: one io_context
// thread runs it all.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tools/load/histogram.hpp"
#include "tools/load/setup.hpp"

namespace castra::load {

struct MatchLoadOptions {
  int matches = 4;
  int spectators = 1;
  bool json_spectators = false;  // the spectators speak castra.v1.json
  int idle = 0;                  // extra logged-in connections that only stay open
  std::string scenario = "optio/training";
  std::uint64_t seed = 1;
  std::string prefix;                  // account names: prefix + "a" + number
  std::size_t setup_concurrency = 32;  // set-up steps in flight at once
};

// One CommandResult that came late: when in the window its command was due, and how late.
// The p99 says how often; these say when, to set beside the server's own events (a WAL
// checkpoint, an fsync) that a percentile cannot show.
struct SlowAck {
  double at_s = 0;          // the command's scheduled time, from the window's start
  std::int64_t micros = 0;  // scheduled send -> CommandResult
};

// What one measuring window saw.
struct MatchStats {
  static constexpr std::int64_t kSlowMicros = 40'000;
  static constexpr std::size_t kSlowKept = 64;  // the first ones; later ones are only counted
  Histogram ack;                                // scheduled send -> CommandResult
  Histogram opponent;    // scheduled send -> the opponent's MatchUpdate with that entry
  Histogram spectator;   // scheduled send -> each spectator's MatchUpdate with that entry
  Histogram refresh;     // GetSnapshot -> Snapshot (the brain's board; 1.0 servers only)
  Histogram send_delay;  // scheduled -> actually sent (waiting for the board or the turn)
  std::uint64_t scheduled = 0;
  std::uint64_t sent = 0;
  std::uint64_t acked = 0;  // CommandResults, accepted or refused
  std::uint64_t accepted = 0;
  std::uint64_t opponent_expected = 0;
  std::uint64_t spectator_expected = 0;
  std::uint64_t matches_finished = 0;
  std::uint64_t submit_bytes = 0;
  std::uint64_t requests = 0;  // every request sent during the window (refreshes too)
  std::map<std::string, std::uint64_t> errors;
  std::vector<SlowAck> slow;  // acks over kSlowMicros, in arrival order
  std::uint64_t slow_count = 0;
  std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
  // The same instant by the wall clock, so that a late ack can be set beside a server's log
  // or an strace of it.
  std::chrono::system_clock::time_point wall_since = std::chrono::system_clock::now();
  void reset();
  void record_ack(std::chrono::steady_clock::time_point scheduled,
                  std::chrono::steady_clock::time_point arrived);
};

class MatchLoad {
 public:
  MatchLoad(Net& net, MatchLoadOptions options);
  ~MatchLoad();

  // Connects and signs in everyone, and prepares two matches per slot; `ready` gets "" or
  // the first failure.
  void prepare(std::function<void(const std::string& error)> ready);
  // Starts (or changes) the open-loop schedule: `rate` commands per second in total.
  void run_at(double rate);
  // Stops scheduling; `drained` runs once every scheduled command is answered and delivered,
  // or after `timeout`.
  void stop(std::chrono::milliseconds timeout, std::function<void()> drained);

  MatchStats& stats() { return stats_; }
  // Commands scheduled but not yet sent, and sent but not yet answered.
  std::uint64_t backlog() const;
  std::uint64_t in_flight() const;
  std::size_t connections() const;
  // Connections that a cluster sent to their match's node (ERROR_MATCH_ELSEWHERE) and that
  // moved there, since the start.
  std::uint64_t moves() const { return moves_; }

  struct Slot;
  struct Game;

 private:
  void prepare_game(Slot& slot);
  void seat_and_join(Slot& slot, const std::shared_ptr<Game>& game, std::function<void()> done);
  void subscribe_all(Slot& slot, const std::shared_ptr<Game>& game, std::function<void()> done);
  void setup_failed(Slot& slot, const std::string& step, const v1::ServerEnvelope& e,
                    const std::function<void()>& done);
  void on_game_ready(Slot& slot, const std::shared_ptr<Game>& game);
  void end_game(Slot& slot, const std::shared_ptr<Game>& game);
  void on_update(Slot& slot, int role, const v1::MatchUpdate& u, Clock::time_point at);
  void refresh_board(Slot& slot, const std::shared_ptr<Game>& game, int player);
  void act(Slot& slot);
  void on_result(Slot& slot, const std::shared_ptr<Game>& game, int player,
                 Clock::time_point scheduled, std::uint32_t entry, const v1::ServerEnvelope& e);
  void arm_arrivals();
  void on_arrivals();
  void check_drained();
  void error(const std::string& key);

  Net& net_;
  MatchLoadOptions options_;
  MatchStats stats_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::unique_ptr<Peer>> idle_;
  Gate gate_;
  std::function<void(const std::string&)> ready_;
  std::size_t slots_ready_ = 0;
  bool failed_ = false;
  std::uint64_t moves_ = 0;

  // The open-loop schedule: command k is due at start_ + k / rate_, for slot k % N.
  boost::asio::steady_timer timer_;
  double rate_ = 0;
  Clock::time_point start_;
  std::uint64_t k_ = 0;
  bool scheduling_ = false;
  std::uint64_t in_flight_ = 0;
  std::function<void()> drained_;
  Clock::time_point drain_deadline_;
};

}  // namespace castra::load
