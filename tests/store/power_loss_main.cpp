// store_power_loss: the long power-loss run (docs/reliability.md), the same trials as
// PowerLoss.* but as many as asked. Prints the figures; exits 1 at the first failed trial.
//   store_power_loss [--trials N] [--durability full|normal] [--seed S] [--dir DIR]
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/store/power_loss_trial.hpp"

int main(int argc, char** argv) {
  using namespace castra::store;
  int trials = 1000;
  Durability durability = Durability::kFull;
  std::uint64_t seed = 16;
  std::string dir =
      (std::filesystem::temp_directory_path() / ("castra-power-loss-" + std::to_string(::getpid())))
          .string();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--trials") {
      trials = std::atoi(value.c_str());
    } else if (flag == "--durability") {
      durability = value == "normal" ? Durability::kNormal : Durability::kFull;
    } else if (flag == "--seed") {
      seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--dir") {
      dir = value;
    } else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  castra::store::test::install_power_loss_vfs();
  spdlog::set_level(spdlog::level::off);
  const auto start = std::chrono::steady_clock::now();
  const auto s = castra::store::test::run_power_loss_trials(dir, durability, trials, seed);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "durability=%s seed=%llu trials=%d operations_per_run=%llu acknowledged=%llu lost=%llu "
      "unsynced_writes_at_power_loss=%llu sectors_kept=%llu sectors_lost=%llu seconds=%.1f\n",
      durability == Durability::kFull ? "full" : "normal", static_cast<unsigned long long>(seed),
      s.trials, static_cast<unsigned long long>(s.operations_per_run),
      static_cast<unsigned long long>(s.acknowledged), static_cast<unsigned long long>(s.lost),
      static_cast<unsigned long long>(s.unsynced_writes),
      static_cast<unsigned long long>(s.sectors_kept),
      static_cast<unsigned long long>(s.sectors_lost), seconds);
  if (!s.failure.empty()) {
    std::printf("FAILED %s\n", s.failure.c_str());
    return 1;
  }
  std::filesystem::remove_all(dir);
  std::printf(
      "ok: every database opened, passed integrity_check and its page checksums, and "
      "replayed in recovery%s\n",
      durability == Durability::kFull ? "; no acknowledged commit was lost" : "");
  return 0;
}
