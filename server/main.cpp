// castra-server: flags and config, logging, the database, then the network until SIGTERM.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "server/net/network.hpp"
#include "server/store/backup.hpp"
#include "server/store/database.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace {

struct Flags {
  castra::net::NetOptions net;
  std::string data_dir = "./data";
  std::string durability = "full";
  std::string log_level = "info";
  std::string port_file;
  std::string backup_file;
};

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  CLI::App app{"castra-server: the authoritative server for Optio and Ancient STAND!"};
  app.set_config("--config", "", "Read flags from a TOML/INI config file");
  app.add_option("--address", flags.net.address, "Address to listen on")->capture_default_str();
  app.add_option("--port", flags.net.port, "Port to listen on (0: any free port)")
      ->capture_default_str();
  app.add_option("--data-dir", flags.data_dir, "Directory of the SQLite database")
      ->capture_default_str();
  app.add_option("--durability", flags.durability,
                 "full: acknowledged commands survive power loss; normal: a process crash only")
      ->check(CLI::IsMember({"full", "normal"}))
      ->capture_default_str();
  app.add_option("--threads", flags.net.threads, "Network threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--max-frame-bytes", flags.net.max_frame_bytes, "Largest WebSocket message")
      ->capture_default_str();
  app.add_option("--idle-timeout", flags.net.idle_timeout_seconds,
                 "Seconds of silence before a WebSocket is pinged, then dropped")
      ->capture_default_str();
  app.add_option("--shutdown-grace", flags.net.shutdown_grace_seconds,
                 "Seconds to let sessions close on SIGTERM")
      ->capture_default_str();
  app.add_option("--log-level", flags.log_level, "trace, debug, info, warn or error")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
      ->capture_default_str();
  app.add_option("--port-file", flags.port_file,
                 "Write the bound port to this file once listening (for tests and scripts)");
  app.add_option("--backup", flags.backup_file,
                 "Copy the database to FILE (consistent, even while a server runs on it), then "
                 "exit; restoring is copying the file back (docs/operations.md)");
  CLI11_PARSE(app, argc, argv);

  auto logger = spdlog::stdout_logger_mt("castra");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%fZ level=%l %v", spdlog::pattern_time_type::utc);
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(flags.log_level));
  spdlog::flush_on(spdlog::level::info);

  const std::string db_path = (std::filesystem::path(flags.data_dir) / "castra.db").string();
  if (!flags.backup_file.empty()) {
    // A separate process with its own read-only connection: the server keeps running.
    castra::store::BackupResult result;
    const castra::store::Status s =
        castra::store::backup_database(db_path, flags.backup_file, &result);
    if (!s.ok()) {
      spdlog::error("event=backup_failed source={} destination={} error=\"{}\"", db_path,
                    flags.backup_file, s.message);
      return 2;
    }
    spdlog::info("event=backup_done source={} destination={} pages={} bytes={}", db_path,
                 flags.backup_file, result.pages, result.bytes);
    return 0;
  }

  std::error_code fs_error;
  std::filesystem::create_directories(flags.data_dir, fs_error);
  if (fs_error) {
    spdlog::error("event=data_dir_failed dir={} error=\"{}\"", flags.data_dir, fs_error.message());
    return 2;
  }
  castra::store::StoreOptions store_options;
  store_options.database.path = db_path;
  store_options.database.durability = flags.durability == "normal"
                                          ? castra::store::Durability::kNormal
                                          : castra::store::Durability::kFull;
  std::unique_ptr<castra::store::SqliteMatchStore> store;
  if (const castra::store::Status s = castra::store::SqliteMatchStore::open(store_options, &store);
      !s.ok()) {
    spdlog::error("event=database_failed error=\"{}\"", s.message);
    return 2;
  }
  spdlog::info("event=database_ready path={} schema_version={} durability={}", db_path,
               store->schema_version(), flags.durability);

  const int code = castra::net::run_network(flags.net, [&](std::uint16_t port) {
    spdlog::info("event=listening address={} port={}", flags.net.address, port);
    if (!flags.port_file.empty()) {
      const std::string tmp = flags.port_file + ".tmp";
      std::ofstream(tmp) << port << "\n";
      std::filesystem::rename(tmp, flags.port_file, fs_error);
    }
  });
  // Every write already queued is committed before the process ends (SIGTERM included).
  if (const castra::store::Status s = store->flush(); !s.ok()) {
    spdlog::error("event=store_flush_failed error=\"{}\"", s.message);
  }
  store.reset();
  return code;
}
