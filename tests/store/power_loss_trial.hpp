// One power-loss trial over the store's real write path: toy matches played by a few player
// threads through SqliteMatchStore::append (the writer that commits before it acknowledges),
// in two runs of the store (the first closed cleanly, which checkpoints), the power cut at
// one drawn write, truncate or sync (power_loss_vfs.hpp), a reboot, and then the checks: the
// database opens through the server's own open path, passes integrity_check and its page
// checksums, every unfinished match replays in start-up recovery, and (under FULL) every
// acknowledged command is there with the answer its player got. For PowerLoss.* and the
// store_power_loss program. Test threads only; one trial at a time per process.
#pragma once

#include <cstdint>
#include <string>

#include "server/store/database.hpp"
#include "tests/store/power_loss_vfs.hpp"

namespace castra::store::test {

struct TrialOptions {
  std::string dir;  // an empty directory of its own
  Durability durability = Durability::kFull;
  std::uint64_t seed = 1;
  // The operation the power fails at (1-based); 0: never during play (the power is cut after
  // the last command, before the store closes).
  std::uint64_t fail_at = 0;
  int players = 3;
  int commands_per_run = 24;  // per player, in each of the two runs of the store
};

struct TrialResult {
  std::string failure;             // empty when every check held
  std::uint64_t operations = 0;    // writes, truncates and syncs before the power failed
  std::uint64_t acknowledged = 0;  // commands and matches whose commit was acknowledged
  std::uint64_t lost = 0;          // of them, missing after the reboot (FULL: always 0)
  RebootReport reboot;
};

// Runs one trial; installs the power-loss VFS first (so call it before anything else in the
// process opens a store).
TrialResult run_power_loss_trial(const TrialOptions& options);

// Many trials in `dir` (created; each trial's files removed unless it failed), each with its
// own seed and failure point drawn from `seed`, the failure points uniform over a run's
// operations (measured first by a run the power survives) and a tenth beyond. Stops at the
// first failed trial.
struct Summary {
  std::string failure;  // empty when every trial held; else which one, and why
  int trials = 0;
  std::uint64_t operations_per_run = 0;
  std::uint64_t acknowledged = 0;
  std::uint64_t lost = 0;
  std::uint64_t unsynced_writes = 0;
  std::uint64_t sectors_kept = 0;
  std::uint64_t sectors_lost = 0;
};
Summary run_power_loss_trials(const std::string& dir, Durability durability, int trials,
                              std::uint64_t seed);

}  // namespace castra::store::test
