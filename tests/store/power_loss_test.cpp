// PowerLoss.*: the power fails at a drawn write or sync while toy matches are played through
// the store (power_loss_trial.hpp), the machine "reboots", and the server opens its database
// again. The short run of issue 16; store_power_loss runs the long one (docs/reliability.md).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "tests/store/power_loss_trial.hpp"
#include "tests/store/power_loss_vfs.hpp"

namespace castra::store::test {
namespace {

std::string fresh_dir(const std::string& name) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("castra-power-loss-" + std::to_string(::getpid()) + "-" + name))
                              .string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

class PowerLoss : public ::testing::Test {
 protected:
  void SetUp() override {
    install_power_loss_vfs();
    spdlog::set_level(spdlog::level::off);  // every trial's store logs its failed writes
  }
};

// The VFS itself, on one raw file: what was synced stays, each unsynced sector is either its
// old or its new bytes, and with the power off nothing is read or written.
TEST_F(PowerLoss, AFileKeepsItsSyncedWritesAndEachUnsyncedSectorIsOldOrNew) {
  const std::string path = fresh_dir("raw") + "/file";
  sqlite3_vfs* vfs = sqlite3_vfs_find(kPowerLossVfs);
  ASSERT_NE(vfs, nullptr);
  const std::string synced(4 * kTornSector, 'S');
  const std::string unsynced(3 * kTornSector, 'U');
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    std::vector<char> memory(static_cast<std::size_t>(vfs->szOsFile));
    auto* f = reinterpret_cast<sqlite3_file*>(memory.data());
    int out = 0;
    ASSERT_EQ(vfs->xOpen(vfs, path.c_str(), f,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MAIN_DB, &out),
              SQLITE_OK);
    ASSERT_EQ(f->pMethods->xTruncate(f, 0), SQLITE_OK);
    ASSERT_EQ(f->pMethods->xWrite(f, synced.data(), static_cast<int>(synced.size()), 0), SQLITE_OK);
    ASSERT_EQ(f->pMethods->xSync(f, SQLITE_SYNC_FULL), SQLITE_OK);
    // Overwrites sectors 1-3 and appends sector 4 and 5 (the file grows from 4 to 6 sectors).
    ASSERT_EQ(
        f->pMethods->xWrite(f, unsynced.data(), static_cast<int>(unsynced.size()), kTornSector),
        SQLITE_OK);
    ASSERT_EQ(f->pMethods->xWrite(f, unsynced.data(), 2 * kTornSector, 4 * kTornSector), SQLITE_OK);
    cut_power();
    char byte = 0;
    EXPECT_EQ(f->pMethods->xRead(f, &byte, 1, 0), SQLITE_IOERR_READ);
    EXPECT_EQ(f->pMethods->xWrite(f, &byte, 1, 0), SQLITE_IOERR_WRITE);
    EXPECT_EQ(f->pMethods->xSync(f, SQLITE_SYNC_FULL), SQLITE_IOERR_FSYNC);
    ASSERT_EQ(f->pMethods->xClose(f), SQLITE_OK);
    std::mt19937_64 rng(seed);
    const RebootReport report = reboot(rng);
    EXPECT_EQ(report.files, 1u);
    EXPECT_EQ(report.unsynced_writes, 2u);
    EXPECT_EQ(report.sectors_kept + report.sectors_lost, 5u);
    std::string disk;
    {
      std::FILE* in = std::fopen(path.c_str(), "rb");
      ASSERT_NE(in, nullptr);
      char buf[8192];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, in)) > 0;)
        disk.append(buf, n);
      std::fclose(in);
    }
    ASSERT_EQ(disk.substr(0, kTornSector), std::string(kTornSector, 'S')) << "seed " << seed;
    for (int sector = 1; sector < 4; ++sector) {
      const std::string got = disk.substr(sector * kTornSector, kTornSector);
      EXPECT_TRUE(got == std::string(kTornSector, 'S') || got == std::string(kTornSector, 'U'))
          << "seed " << seed << " sector " << sector;
    }
    // Past the synced end: a sector that reached the disk, or a hole (zeros), or nothing.
    for (std::size_t at = 4 * kTornSector; at < disk.size(); at += kTornSector) {
      const std::string got = disk.substr(at, kTornSector);
      EXPECT_TRUE(got == std::string(kTornSector, 'U') || got == std::string(kTornSector, '\0'))
          << "seed " << seed << " at " << at;
    }
  }
}

TEST_F(PowerLoss, FullKeepsEveryAcknowledgedCommand) {
  const Summary s = run_power_loss_trials(fresh_dir("full"), Durability::kFull, 60, 16001);
  EXPECT_EQ(s.failure, "");
  EXPECT_EQ(s.trials, 60);
  EXPECT_EQ(s.lost, 0u);
  EXPECT_GT(s.acknowledged, 0u);
  EXPECT_GT(s.sectors_kept, 0u);
  EXPECT_GT(s.sectors_lost, 0u);
}

// NORMAL may lose the last commits (docs/storage.md) but never the database.
TEST_F(PowerLoss, NormalNeverLeavesADamagedDatabase) {
  const Summary s = run_power_loss_trials(fresh_dir("normal"), Durability::kNormal, 40, 16002);
  EXPECT_EQ(s.failure, "");
  EXPECT_EQ(s.trials, 40);
  EXPECT_GT(s.acknowledged, 0u);
}

}  // namespace
}  // namespace castra::store::test
