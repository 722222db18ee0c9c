// The "castra-powerloss" SQLite VFS, for tests only (never linked into the server): a shim
// over the default unix VFS that remembers every write and truncate not yet followed by a
// sync of its file, and can "lose power": from a chosen operation on, every read, write, sync
// and delete fails; then reboot() puts each file back as a disk might have left it (the
// unsynced writes dropped, kept, or kept in part, sector by sector, in any order) before the
// test opens the database again. Installed as the default VFS before the checksum VFS is
// registered, so the store's own files go checksum VFS -> this -> unix. One process-wide
// instance; every function from any thread, but reboot() only while no file is open.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace castra::store::test {

inline constexpr const char* kPowerLossVfs = "castra-powerloss";
// The granularity at which an unsynced write may be torn: smaller than SQLite's sector size
// (4096 on unix), so the tests assume less than SQLite does.
inline constexpr int kTornSector = 512;

// Registers the VFS as the default. Must run before anything registers the checksum VFS (which
// wraps whatever is the default then); aborts if it ran later. Idempotent.
void install_power_loss_vfs();

// Power fails at the `op`-th write, truncate or sync from now (1-based), which fails and is not
// applied; 0 disarms. Counting restarts at each call.
void fail_power_at(std::uint64_t op);
// Power fails now (the next operation fails), if it has not already.
void cut_power();
bool power_is_off();
// Writes, truncates and syncs counted since the last fail_power_at or reboot.
std::uint64_t operations();

// What a reboot did to the unsynced writes.
struct RebootReport {
  std::uint64_t files = 0;            // files that had unsynced writes
  std::uint64_t unsynced_writes = 0;  // writes and truncates not synced when power failed
  std::uint64_t sectors_kept = 0;     // sectors of them that reached the disk anyway
  std::uint64_t sectors_lost = 0;
};

// Applies the power loss (if power was cut) to every file, deletes the shared-memory files
// (the wal-index lives in memory on a real machine), and turns the power back on. Each file's
// fate is drawn from `rng`: all unsynced writes lost, all kept, or each sector kept or lost on
// its own (which also reorders them: a later write may survive an earlier one). With power
// on, it only forgets the unsynced writes (a clean shutdown keeps them).
RebootReport reboot(std::mt19937_64& rng);

}  // namespace castra::store::test
