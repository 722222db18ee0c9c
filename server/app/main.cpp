// castra-server: flags and config, logging, the database, the application, then the network
// until SIGTERM. `castra-server admin ...` instead sends one command to a running server's
// local admin socket.
#include <sodium.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "server/accounts/passwords.hpp"
#include "server/admin/admin_client.hpp"
#include "server/app/pg_stores.hpp"
#include "server/app/protobuf_log.hpp"
#include "server/app/server_app.hpp"
#include "server/app/sqlite_stores.hpp"
#include "server/computer/computers.hpp"
#include "server/lobby/scenarios.hpp"
#include "server/net/network.hpp"
#include "server/notify/targets.hpp"
#include "server/postgres/migrate_store.hpp"
#include "server/postgres/pg_cluster.hpp"
#include "server/postgres/pg_notices.hpp"
#include "server/ratings/rating_store.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/backup.hpp"
#include "server/store/database.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace {

struct Flags {
  castra::server::AppOptions app;
  std::string data_dir = "./data";
  std::string store_url;                   // --store: PostgreSQL instead of SQLite under data_dir
  std::vector<std::string> migrate_store;  // --migrate-store FROM TO
  std::string durability = "full";
  std::string log_level = "info";
  std::string port_file;
  std::string backup_file;
  std::string scenarios_dir;
  std::string admin_socket;  // default: <data-dir>/admin.sock
  bool no_admin_socket = false;
  int session_ttl_days = 30;
  std::vector<std::string> admin_words;
  int tick_ms = 250;
  int match_threads = 1;
  double clock_speed = 1.0;
  castra::computer::ComputerOptions computers;
  // Cluster mode (docs/operations.md, "A cluster of nodes").
  std::string node_id;
  std::string public_url;
  std::int64_t lease_ms = 10000;
};

// A node id names its leases in the database: short, and nothing to quote.
bool valid_node_id(const std::string& id) {
  if (id.empty() || id.size() > 63) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::string default_scenarios_dir() {
  std::error_code ec;
  if (std::filesystem::is_directory(CASTRA_SOURCE_SCENARIOS, ec)) return CASTRA_SOURCE_SCENARIOS;
  return "/usr/share/castra/scenarios";
}

void add_server_flags(CLI::App& app, Flags& flags) {
  auto& net = flags.app.net;
  auto& acc = flags.app.accounts;
  app.add_option("--address", net.address, "Address to listen on")->capture_default_str();
  app.add_option("--port", net.port, "Port to listen on (0: any free port)")->capture_default_str();
  app.add_option("--store", flags.store_url,
                 "Keep everything in PostgreSQL at this URL (postgresql://...) instead of "
                 "SQLite under --data-dir");
  app.add_option("--migrate-store", flags.migrate_store,
                 "Move the SQLite installation FROM (a data directory or its castra.db) into the "
                 "empty PostgreSQL database TO (postgresql://...), then exit")
      ->expected(2);
  app.add_option("--node-id", flags.node_id,
                 "Run as one node of a cluster on the --store database, under this id (unique "
                 "among the nodes: letters, digits, '-', '_', '.'; a pod's name will do)");
  app.add_option("--public-url", flags.public_url,
                 "Where clients reach this node (ws://host:port/ws or wss://...), told to a "
                 "client whose match this node hosts (default: ws://<address>:<port>/ws)");
  app.add_option("--lease-ms", flags.lease_ms,
                 "Cluster: how long a node's lease on its matches lasts unrenewed (renewed every "
                 "third of it); after it another node takes them over")
      ->check(CLI::Range(300, 600000))
      ->capture_default_str();
  app.add_option("--data-dir", flags.data_dir, "Directory of the SQLite database")
      ->capture_default_str();
  app.add_option("--durability", flags.durability,
                 "full: acknowledged commands survive power loss; normal: a process crash only")
      ->check(CLI::IsMember({"full", "normal"}))
      ->capture_default_str();
  app.add_option("--threads", net.threads, "Network threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--scenarios", flags.scenarios_dir,
                 "Directory of scenario files (<dir>/optio/*.json, <dir>/stand/*.json)")
      ->default_str(default_scenarios_dir());
  app.add_option("--log-level", flags.log_level, "trace, debug, info, warn or error")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
      ->capture_default_str();
  app.add_option("--clock-speed", flags.clock_speed,
                 "Run match clocks this many times faster than real time (tests only)")
      ->check(CLI::Range(1.0, 1000000.0))
      ->capture_default_str();
  app.add_option("--match-threads", flags.match_threads,
                 "Threads on which the matches run (each match one at a time, on its strand)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--tick-ms", flags.tick_ms, "How often deadlines are looked at, in milliseconds")
      ->check(CLI::Range(10, 10000))
      ->capture_default_str();
  app.add_option("--port-file", flags.port_file,
                 "Write the bound port to this file once listening (for tests and scripts)");
  app.add_option("--backup", flags.backup_file,
                 "Copy the database to FILE (consistent, even while a server runs on it), then "
                 "exit; restoring is copying the file back (docs/operations.md)");

  // Limits (docs/protocol.md, "Limits").
  app.add_option("--max-frame-bytes", net.max_frame_bytes, "Largest WebSocket message")
      ->capture_default_str();
  app.add_option("--messages-per-second", net.messages_per_second,
                 "Messages a client may send per second, on average")
      ->capture_default_str();
  app.add_option("--message-burst", net.message_burst, "... and in a burst")->capture_default_str();
  app.add_option("--max-connections-per-address", net.max_connections_per_address,
                 "WebSockets open at once from one client address")
      ->capture_default_str();
  app.add_option("--max-queued-frames", net.max_queued_frames,
                 "Outbound frames queued for a client before it is dropped as a slow reader")
      ->capture_default_str();
  app.add_option("--max-queued-bytes", net.max_queued_bytes,
                 "Outbound bytes queued for a client before it is dropped as a slow reader")
      ->capture_default_str();
  app.add_option("--slow-reader-timeout", net.slow_reader_seconds,
                 "Seconds a client may leave its answers unread (its requests unread meanwhile) "
                 "before it is dropped as a slow reader")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  app.add_option("--abuse-cooldown", net.abuse_cooldown_seconds,
                 "Seconds an address is refused at the accept after 3 of its connections were "
                 "cut off for abuse within 10 s (0: never)")
      ->check(CLI::Range(0, 86400))
      ->capture_default_str();
  app.add_option("--handshake-timeout", net.handshake_timeout_seconds,
                 "Seconds for TLS, the WebSocket upgrade, and then the Hello")
      ->capture_default_str();
  app.add_option("--idle-timeout", net.idle_timeout_seconds,
                 "Seconds of silence before a WebSocket is pinged, then dropped")
      ->capture_default_str();
  app.add_option("--close-timeout", net.close_timeout_seconds,
                 "Seconds a closing client gets before it is cut off")
      ->capture_default_str();
  app.add_option("--shutdown-grace", net.shutdown_grace_seconds,
                 "Seconds to let sessions close on SIGTERM")
      ->capture_default_str();
  app.add_option("--service-queue", flags.app.service_queue,
                 "Requests waiting for the service thread before ERROR_SERVER_BUSY")
      ->capture_default_str();

  // TLS and proxies.
  app.add_option("--tls-cert", net.tls_cert_file, "PEM certificate chain: serve wss:// only");
  app.add_option("--tls-key", net.tls_key_file, "PEM private key of --tls-cert");
  app.add_option("--trusted-proxy", net.trusted_proxies,
                 "A proxy address whose X-Forwarded-For is believed (repeatable)");

  // Accounts.
  app.add_option("--argon2-opslimit", acc.cost.ops_limit, "Argon2id passes")->capture_default_str();
  app.add_option("--argon2-memlimit", acc.cost.mem_limit, "Argon2id memory in bytes")
      ->capture_default_str();
  app.add_option("--hash-threads", flags.app.hash_threads, "Password hashing threads")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  app.add_option("--hash-queue", flags.app.hash_queue,
                 "Password operations waiting before ERROR_SERVER_BUSY")
      ->capture_default_str();
  app.add_option("--max-login-failures", acc.max_failures,
                 "Consecutive failed logins that lock an account")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--lockout-seconds", acc.lockout_seconds, "How long a locked account waits")
      ->capture_default_str();
  app.add_option("--session-ttl-days", flags.session_ttl_days, "Lifetime of a session token")
      ->check(CLI::Range(1, 365))
      ->capture_default_str();
  app.add_option("--max-open-matches", flags.app.lobby.max_open_matches_per_account,
                 "Open matches one account may have")
      ->capture_default_str();

  // The computer opponents.
  app.add_option("--computer-threads", flags.computers.threads,
                 "Threads on which the computer opponents think")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--computer-queue", flags.computers.queue,
                 "Computer opponents' picks waiting for a thread (more wait for the next tick)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();

  // Deadline reminders outside the client (docs/operations.md, "Reminders").
  auto& notify = flags.app.notify;
  app.add_option("--smtp-url", notify.smtp_url,
                 "Mail transfer agent for e-mail reminders, smtp://127.0.0.1:25 (or smtps://); "
                 "empty: no e-mail");
  app.add_option("--mail-from", notify.mail_from, "Sender address of e-mail reminders")
      ->capture_default_str();
  app.add_option("--webhook-timeout-ms", notify.webhook_timeout_ms,
                 "Time a reminder's webhook call may take, connecting included")
      ->check(CLI::Range(100, 120000))
      ->capture_default_str();
  app.add_option("--smtp-timeout-ms", notify.smtp_timeout_ms,
                 "Time one e-mail's submission to the mail transfer agent may take")
      ->check(CLI::Range(100, 120000))
      ->capture_default_str();
  app.add_flag("--webhook-allow-private", notify.webhook_private_addresses,
               "Let webhooks reach loopback and private addresses (tests, closed networks)");

  // Operators.
  app.add_option("--admin-socket", flags.admin_socket,
                 "Unix socket of the admin commands (default: <data-dir>/admin.sock)");
  app.add_flag("--no-admin-socket", flags.no_admin_socket, "Serve no admin socket");
}

std::string admin_socket_path(const Flags& flags) {
  if (!flags.admin_socket.empty()) return flags.admin_socket;
  // On PostgreSQL there is no data directory: the socket is in the working directory.
  if (!flags.store_url.empty()) return "castra-admin.sock";
  return (std::filesystem::path(flags.data_dir) / "admin.sock").string();
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  CLI::App app{"castra-server: the authoritative server for Optio and Ancient STAND!"};
  app.set_config("--config", "", "Read flags from a TOML/INI config file");
  add_server_flags(app, flags);
  CLI::App* admin = app.add_subcommand(
      "admin", "Send one command to the running server's admin socket (try: admin help)");
  admin->fallthrough();
  admin
      ->add_option("command", flags.admin_words,
                   "connections | ban NAME [REASON] | unban "
                   "NAME | end-match ID [REASON] | help")
      ->required();
  CLI11_PARSE(app, argc, argv);

  if (admin->parsed()) {
    std::string line;
    for (const auto& w : flags.admin_words)
      line += (line.empty() ? "" : " ") + w;
    return castra::admin::run_admin_client(admin_socket_path(flags), line);
  }

  auto logger = spdlog::stdout_logger_mt("castra");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%fZ level=%l %v", spdlog::pattern_time_type::utc);
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(flags.log_level));
  spdlog::flush_on(spdlog::level::info);
  castra::server::log_protobuf_through_spdlog();

  if (sodium_init() < 0) {
    spdlog::error("event=sodium_failed");
    return 2;
  }
  if (!castra::accounts::valid_cost(flags.app.accounts.cost)) {
    spdlog::error("event=bad_flag flag=argon2 error=\"cost out of libsodium's range\"");
    return 2;
  }
  if (!flags.app.notify.smtp_url.empty() &&
      !castra::notify::valid_smtp_url(flags.app.notify.smtp_url)) {
    spdlog::error("event=bad_flag flag=smtp-url error=\"not smtp://host:port or smtps://\"");
    return 2;
  }
  if (const auto f = castra::notify::check_email(flags.app.notify.mail_from);
      f || flags.app.notify.mail_from.empty()) {
    spdlog::error("event=bad_flag flag=mail-from error=\"not an e-mail address\"");
    return 2;
  }
  flags.app.accounts.session_ttl_seconds = flags.session_ttl_days * 24 * 3600;
  if (flags.scenarios_dir.empty()) flags.scenarios_dir = default_scenarios_dir();
  flags.app.server_name = "castra-server/" CASTRA_VERSION;
  flags.app.notify.user_agent = flags.app.server_name;

  if (!flags.migrate_store.empty()) {
    const std::string& from = flags.migrate_store[0];
    const std::string& to = flags.migrate_store[1];
    castra::postgres::MigrationReport report;
    if (const castra::store::Status s = castra::postgres::migrate_store(from, to, &report);
        !s.ok()) {
      spdlog::error("event=migrate_store_failed from={} error=\"{}\"", from, s.message);
      return 2;
    }
    for (const auto& [table, rows] : report.rows)
      spdlog::info("event=migrate_store_table table={} rows={}", table, rows);
    spdlog::info("event=migrate_store_done from={}", from);
    return 0;
  }
  const bool on_postgres = !flags.store_url.empty();
  const bool clustered = !flags.node_id.empty();
  if (clustered && !on_postgres) {
    spdlog::error(
        "event=bad_flag flag=node-id error=\"a cluster's nodes share one PostgreSQL database: "
        "give --store postgresql://... with --node-id\"");
    return 2;
  }
  if (clustered && !valid_node_id(flags.node_id)) {
    spdlog::error("event=bad_flag flag=node-id error=\"1 to 63 letters, digits, '-', '_', '.'\"");
    return 2;
  }
  if (!clustered &&
      (app.get_option("--public-url")->count() > 0 || app.get_option("--lease-ms")->count() > 0)) {
    spdlog::error(
        "event=bad_flag flag=public-url error=\"--public-url and --lease-ms need --node-id\"");
    return 2;
  }
  if (on_postgres) {
    if (app.get_option("--data-dir")->count() > 0) {
      spdlog::error(
          "event=bad_flag flag=store error=\"--store and --data-dir both given: --data-dir "
          "selects SQLite, --store selects PostgreSQL; give one of them\"");
      return 2;
    }
    if (!flags.store_url.starts_with("postgresql://") &&
        !flags.store_url.starts_with("postgres://")) {
      spdlog::error("event=bad_flag flag=store error=\"not a postgresql:// URL\"");
      return 2;
    }
    if (!flags.backup_file.empty()) {
      spdlog::error(
          "event=bad_flag flag=backup error=\"--backup copies a SQLite database; on "
          "PostgreSQL use pg_dump (docs/operations.md)\"");
      return 2;
    }
  }
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
  // Exactly one of the two is opened; `store` and `make_stores` are the one opened.
  std::unique_ptr<castra::store::SqliteMatchStore> sqlite;
  std::unique_ptr<castra::postgres::PgMatchStore> postgresql;
  // Cluster mode: the leases this node holds, which every append is fenced by.
  std::shared_ptr<castra::postgres::LeaseBook> leases;
  castra::store::MatchStore* store = nullptr;
  castra::server::MakeStores make_stores;
  if (on_postgres) {
    castra::postgres::PgStoreOptions options;
    options.url = flags.store_url;
    // A match is rated in the transaction that records its end (docs/ratings.md).
    options.on_finished = castra::postgres::rate_finished_match;
    if (clustered) {
      leases = std::make_shared<castra::postgres::LeaseBook>(flags.node_id, flags.lease_ms);
      options.leases = leases;
      options.roles = std::make_shared<castra::postgres::LeaseBook>(flags.node_id, flags.lease_ms);
    }
    if (const castra::store::Status s = castra::postgres::PgMatchStore::open(options, &postgresql);
        !s.ok()) {
      spdlog::error("event=database_failed store=postgresql error=\"{}\"", s.message);
      return 2;
    }
    // The URL may hold a password: only the fact is logged.
    spdlog::info("event=database_ready store=postgresql schema_version={}",
                 postgresql->schema_version());
    store = postgresql.get();
    make_stores = [&postgresql](castra::server::Stores::Post post) {
      return std::make_unique<castra::server::PgStores>(*postgresql, std::move(post));
    };
  } else {
    std::filesystem::create_directories(flags.data_dir, fs_error);
    if (fs_error) {
      spdlog::error("event=data_dir_failed dir={} error=\"{}\"", flags.data_dir,
                    fs_error.message());
      return 2;
    }
    castra::store::StoreOptions store_options;
    store_options.database.path = db_path;
    // A match is rated in the transaction that records its end (docs/ratings.md).
    store_options.on_finished = castra::ratings::rate_finished_match;
    store_options.database.durability = flags.durability == "normal"
                                            ? castra::store::Durability::kNormal
                                            : castra::store::Durability::kFull;
    if (const castra::store::Status s =
            castra::store::SqliteMatchStore::open(store_options, &sqlite);
        !s.ok()) {
      spdlog::error("event=database_failed error=\"{}\"", s.message);
      return 2;
    }
    spdlog::info("event=database_ready path={} schema_version={} durability={}", db_path,
                 sqlite->schema_version(), flags.durability);
    store = sqlite.get();
    make_stores = [&sqlite](castra::server::Stores::Post post) {
      return std::make_unique<castra::server::SqliteStores>(*sqlite, std::move(post));
    };
  }

  if (!flags.no_admin_socket) flags.app.net.admin_socket = admin_socket_path(flags);
  int code = 0;
  {
    // The matches run on their strands over this pool; the computer opponents take their seats
    // in every match from the moment it is hosted (created, recovered or loaded back).
    castra::server::TaskQueue matches_pool("matches", flags.match_threads, 4096);
    castra::server::ScaledClock clock(flags.clock_speed);
    castra::computer::Computers computers(flags.computers);
    castra::runtime::RuntimeOptions runtime_options;
    runtime_options.on_hosted = [&computers](const std::shared_ptr<castra::runtime::MatchHost>& h) {
      computers.play(h);
    };
    // In a cluster a node hosts only the unfinished matches it holds the lease of.
    if (leases) {
      runtime_options.may_host = [leases](const std::string& id) {
        return leases->epoch_of(id).has_value();
      };
    }
    castra::runtime::Runtime play(*store, clock, matches_pool, runtime_options);
    std::unique_ptr<castra::postgres::PgCluster> cluster;
    if (leases) {
      // A node takes its matches by their leases (the keeper's first round, once it listens),
      // not all at once: the others' stay theirs.
      if (const castra::store::Status s = castra::postgres::PgCluster::open(
              flags.store_url, leases, *postgresql, play, &cluster);
          !s.ok()) {
        spdlog::error("event=database_failed store=postgresql error=\"{}\"", s.message);
        return 2;
      }
      leases->set_on_lost([&play](const std::string& id) { play.release(id); });
      flags.app.placement = [&cluster](const std::string& id) { return cluster->elsewhere(id); };
      flags.app.campaign_placement = [&cluster] { return cluster->campaigns_elsewhere(); };
    } else {
      // Every unfinished match is replayed from the store before the port opens; a match whose
      // log does not replay stays closed (logged), never a crash.
      play.recover();
    }
    castra::server::ServerApp application(
        flags.app, make_stores, castra::lobby::Scenarios::load(flags.scenarios_dir), play, clock,
        castra::campaign_server::Definitions::load(flags.scenarios_dir));
    // The campaigns are hosted here from the keeper's round that takes their role.
    if (cluster) {
      cluster->on_campaigns([&application](bool hosting) { application.host_campaigns(hosting); });
    }
    // Another node's lobby changes and "your move" notices, for this node's connections.
    std::unique_ptr<castra::postgres::PgListener> listener;
    if (leases) {
      auto hook = [&application](const castra::postgres::ClusterNotice& n) {
        if (n.kind == castra::postgres::ClusterNotice::Kind::kYourMove) {
          application.remote_your_move(n.id, n.account, n.deadline_ms);
        } else if (n.kind == castra::postgres::ClusterNotice::Kind::kCampaignChanged) {
          application.remote_campaign_changed(n.id);
        } else {
          application.remote_match_changed(n.id);
        }
      };
      if (const castra::store::Status s =
              castra::postgres::PgListener::open(flags.store_url, flags.node_id, hook, &listener);
          !s.ok()) {
        spdlog::error("event=database_failed store=postgresql error=\"{}\"", s.message);
        return 2;
      }
    }
    // Deadlines: every match and campaign is looked at a few times a second.
    std::atomic<bool> ticking{true};
    std::thread ticker([&] {
      while (ticking) {
        play.tick();
        computers.tick();
        application.tick();
        std::this_thread::sleep_for(std::chrono::milliseconds(flags.tick_ms));
      }
    });
    code = castra::net::run_network(flags.app.net, application, [&](std::uint16_t port) {
      spdlog::info("event=listening address={} port={}", flags.app.net.address, port);
      if (cluster) {
        cluster->start(!flags.public_url.empty()
                           ? flags.public_url
                           : "ws://" + flags.app.net.address + ":" + std::to_string(port) + "/ws");
      }
      if (!flags.port_file.empty()) {
        const std::string tmp = flags.port_file + ".tmp";
        std::ofstream(tmp) << port << "\n";
        std::filesystem::rename(tmp, flags.port_file, fs_error);
      }
    });
    ticking = false;
    ticker.join();
    computers.stop();
    // The commits still queued post their outcomes to the matches' strands: let them run.
    if (const castra::store::Status s = store->flush(); !s.ok()) {
      spdlog::error("event=store_flush_failed error=\"{}\"", s.message);
    }
    matches_pool.stop();
    cluster.reset();
    if (leases) leases->set_on_lost(nullptr);
  }
  // Every write already queued is committed before the process ends (SIGTERM included).
  if (const castra::store::Status s = store->flush(); !s.ok()) {
    spdlog::error("event=store_flush_failed error=\"{}\"", s.message);
  }
  sqlite.reset();
  postgresql.reset();
  return code;
}
