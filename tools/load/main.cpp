// castra-load: drives a running castra-server over real WebSockets from one thread and
// prints what it measured (docs/load.md): `matches`, `saturation`, `tournament`, `idle`,
// `echo` against castra-bench-echo, the raw WebSocket baseline, and `flood`, honest players
// beside abusive connections (docs/reliability.md).
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "tools/load/echo_load.hpp"
#include "tools/load/flood_load.hpp"
#include "tools/load/idle_load.hpp"
#include "tools/load/match_load.hpp"
#include "tools/load/report.hpp"

namespace castra::load {
namespace {

struct Flags {
  std::string url = "ws://127.0.0.1:8080/ws";
  std::string echo_url;
  pid_t server_pid = 0;
  bool json = false;
  std::size_t per_source = 16000;
  MatchLoadOptions matches;
  double rate = 50;
  double seconds = 5;
  double drain_seconds = 10;
  // saturation
  double ramp_factor = 1.25;
  double step_seconds = 5;
  double p99_bound_ms = 20;
  double max_rate = 100000;
  // idle
  IdleOptions idle;
  // echo
  EchoOptions echo;
  // flood
  FloodOptions flood;
  double warmup_seconds = 2;
};

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

// As many descriptors as the hard limit allows: thousands of sockets.
void raise_file_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

std::string default_prefix() {
  // Unique per run, so that one server can take several runs: base 36 of time and pid.
  auto n = static_cast<unsigned long long>(
      std::chrono::system_clock::now().time_since_epoch().count() / 1000000 ^ (getpid() << 20));
  std::string s = "ld";
  for (int i = 0; i < 7; ++i, n /= 36)
    s += "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36];
  return s;
}

// Everything a run shares: the io_context, where connections go, the lag probe.
struct Run {
  boost::asio::io_context ioc;
  std::unique_ptr<Net> net;
  LagProbe probe{ioc, std::chrono::milliseconds(1)};
  int exit_code = 0;

  bool connect(const std::string& url, std::size_t connections, std::size_t per_source) {
    std::string error;
    auto target = resolve_target(url, &error);
    if (!target) {
      std::cerr << "castra-load: " << error << "\n";
      return false;
    }
    net = std::make_unique<Net>(Net{ioc, *target, source_addresses(connections, per_source)});
    return true;
  }
  void fail(const std::string& what) {
    std::cerr << "castra-load: " << what << "\n";
    exit_code = 1;
    ioc.stop();
  }
};

// The late acks as "at:late" pairs ("12.31s:95ms ..."), and how many there were.
void add_slow_acks(Report& r, const std::string& key, const MatchStats& s) {
  std::string series;
  char item[48];
  for (const SlowAck& a : s.slow) {
    std::snprintf(item, sizeof item, "%s%.2fs:%.0fms", series.empty() ? "" : " ", a.at_s,
                  static_cast<double>(a.micros) / 1000.0);
    series += item;
  }
  r.number(key + "_slow", static_cast<double>(s.slow_count),
           "acks later than " + std::to_string(MatchStats::kSlowMicros / 1000) + " ms");
  r.text(key + "_slow_at", series.empty() ? "-" : series,
         "  when they were due (from the span's start) and how late");
  const auto start = std::chrono::duration<double>(s.wall_since.time_since_epoch()).count();
  r.number(key + "_span_start_unix", start, "  the span's start (Unix time, s)");
}

void add_match_figures(Report& r, const MatchStats& s, double seconds, std::uint64_t backlog,
                       std::uint64_t in_flight, std::size_t spectators) {
  r.number("commands_scheduled", static_cast<double>(s.scheduled), "commands scheduled");
  r.number("commands_sent", static_cast<double>(s.sent), "commands sent");
  r.number("commands_acked", static_cast<double>(s.acked), "commands acknowledged");
  r.number("commands_accepted", static_cast<double>(s.accepted), "commands accepted");
  r.number("commands_unsent", static_cast<double>(backlog), "scheduled, never sent (backlog)");
  r.number("commands_unanswered", static_cast<double>(in_flight), "sent, never answered");
  r.number("commands_per_s", seconds > 0 ? static_cast<double>(s.acked) / seconds : 0,
           "acknowledged commands/s");
  r.number("requests_per_s", seconds > 0 ? static_cast<double>(s.requests) / seconds : 0,
           "requests/s (set-up and any board refreshes too)");
  r.number("matches_finished", static_cast<double>(s.matches_finished), "matches finished");
  r.number("submit_frame_bytes",
           s.sent > 0 ? static_cast<double>(s.submit_bytes) / static_cast<double>(s.sent) : 0,
           "mean SubmitCommand frame (bytes)");
  r.latency("ack", s.ack, "submit -> CommandResult");
  add_slow_acks(r, "ack", s);
  r.latency("opponent", s.opponent, "submit -> opponent's update");
  r.latency("spectator", s.spectator, "submit -> spectator's update");
  r.number("board_refreshes", static_cast<double>(s.refresh.count()),
           "board refreshes (GetSnapshot; 0: every update carried the board)");
  r.latency("refresh", s.refresh, "board refresh (GetSnapshot, protocol 1.0 servers)");
  r.latency("send_delay", s.send_delay, "scheduled -> sent");
  r.number(
      "opponent_missing",
      static_cast<double>(s.opponent_expected - std::min(s.opponent_expected, s.opponent.count())),
      "opponent updates missing");
  r.number("spectator_missing",
           static_cast<double>(s.spectator_expected -
                               std::min(s.spectator_expected, s.spectator.count())),
           "spectator updates missing (of " + std::to_string(spectators) + " per command)");
  r.errors(s.errors);
}

void add_echo_figures(Report& r, const EchoResult& e, const std::string& key) {
  r.number(key + "_messages_per_s", e.per_second(), "raw echo messages/s");
  r.latency(key + "_rtt", e.round_trip, "raw echo round trip");
  r.number(key + "_errors", static_cast<double>(e.errors), "raw echo errors");
}

// Runs the echo baseline after a Castra run, then prints `report` with the ratio.
void finish_with_echo(Run& run, const Flags& flags, std::shared_ptr<Report> report,
                      double castra_per_s, double frame_bytes) {
  if (flags.echo_url.empty()) {
    report->print(flags.json);
    run.ioc.stop();
    return;
  }
  std::string error;
  auto target = resolve_target(flags.echo_url, &error);
  if (!target) return run.fail(error);
  run.net->target = *target;
  EchoOptions echo = flags.echo;
  if (frame_bytes > 0) echo.frame_bytes = static_cast<std::size_t>(frame_bytes);
  auto load = std::make_shared<EchoLoad>(*run.net, echo);
  load->run([&run, &flags, report, castra_per_s, load](const EchoResult& e) {
    add_echo_figures(*report, e, "echo");
    report->number("ratio_to_echo", e.per_second() > 0 ? castra_per_s / e.per_second() : 0,
                   "Castra commands/s over raw echo messages/s");
    report->print(flags.json);
    boost::asio::post(run.ioc, [&run, load] { run.ioc.stop(); });
  });
}

int run_matches(Flags& flags, const std::string& mode) {
  Run run;
  const std::size_t conns = static_cast<std::size_t>(flags.matches.matches) *
                                (2 + static_cast<std::size_t>(flags.matches.spectators)) +
                            static_cast<std::size_t>(flags.matches.idle);
  if (!run.connect(flags.url, conns, flags.per_source)) return 2;
  MatchLoad load(*run.net, flags.matches);
  const auto setup_began = Clock::now();
  auto from = std::make_shared<Usage>();
  load.prepare([&](const std::string& error) {
    if (!error.empty()) return run.fail(error);
    const double setup = std::chrono::duration<double>(Clock::now() - setup_began).count();
    std::cout << "castra-load: " << load.connections() << " connections, " << flags.matches.matches
              << " matches ready in " << setup << " s; running " << flags.rate << " commands/s for "
              << flags.seconds << " s\n";
    std::cout.flush();
    load.stats().reset();
    run.probe.lag().reset();
    *from = Usage::now(flags.server_pid);
    load.run_at(flags.rate);
    after(run.ioc, millis(flags.seconds), [&, from, setup] {
      const Usage to = Usage::now(flags.server_pid);
      load.stop(millis(flags.drain_seconds), [&, from, to, setup] {
        auto report = std::make_shared<Report>(mode);
        report->number("matches", flags.matches.matches, "matches at once");
        report->number("spectators_per_match", flags.matches.spectators, "spectators per match");
        report->number("json_spectators", flags.matches.json_spectators ? 1 : 0,
                       "1: the spectators spoke castra.v1.json");
        report->number("idle_connections", flags.matches.idle, "idle connections");
        report->number("connections", static_cast<double>(load.connections()), "connections");
        report->number("sources",
                       static_cast<double>(std::max<std::size_t>(1, run.net->sources.size())),
                       "source addresses");
        report->number("setup_s", setup, "set-up (s)");
        report->number("moved", static_cast<double>(load.moves()),
                       "connections a cluster sent to their match's node");
        report->number("rate", flags.rate, "offered commands/s");
        add_match_figures(*report, load.stats(), flags.seconds, load.backlog(), load.in_flight(),
                          static_cast<std::size_t>(flags.matches.spectators));
        report->usage(*from, to, run.probe.lag(), flags.server_pid);
        const auto& s = load.stats();
        finish_with_echo(run, flags, report, static_cast<double>(s.acked) / flags.seconds,
                         s.sent > 0 ? static_cast<double>(s.submit_bytes) / s.sent : 0);
      });
    });
  });
  run.probe.start();
  run.ioc.run();
  return run.exit_code;
}

// One step of the ramp: `rate` for step_seconds; held when p99 stays within the bound, the
// server keeps up (>= 95% of the offered rate acknowledged) and nothing errs.
struct Ramp {
  double rate = 0;
  double best = 0;
  double best_p99 = 0;
  double frame_bytes = 0;
  double cpu_at_step = 0;  // castra-load's CPU seconds when the step began
};

void ramp_step(Run& run, Flags& flags, MatchLoad& load, std::shared_ptr<Ramp> ramp,
               std::shared_ptr<Report> report, std::shared_ptr<Usage> from) {
  load.stats().reset();
  run.probe.lag().reset();
  load.run_at(ramp->rate);
  after(run.ioc, millis(flags.step_seconds), [&run, &flags, &load, ramp, report, from] {
    const auto& s = load.stats();
    const double achieved = static_cast<double>(s.acked) / flags.step_seconds;
    const double p99 = ms(s.ack.percentile(0.99));
    std::uint64_t errors = 0;
    for (const auto& [k, n] : s.errors)
      errors += n;
    const bool held = p99 <= flags.p99_bound_ms && achieved >= 0.95 * ramp->rate && errors == 0;
    // A generator whose timers ran late cannot tell a slow server from its own delay.
    const double lag_p99 = ms(run.probe.lag().percentile(0.99));
    const bool lagging = lag_p99 > flags.p99_bound_ms / 4;
    std::printf(
        "  step %8.0f/s: acked %8.0f/s  p50=%7.3f p99=%8.3f p99.9=%8.3f max=%8.3f ms  "
        "backlog=%llu errors=%llu  load cpu=%.0f%% lag p99=%.1f ms  %s\n",
        ramp->rate, achieved, ms(s.ack.percentile(0.5)), p99, ms(s.ack.percentile(0.999)),
        ms(s.ack.max()), static_cast<unsigned long long>(load.backlog()),
        static_cast<unsigned long long>(errors),
        100.0 * (Usage::now(0).self_cpu - ramp->cpu_at_step) / flags.step_seconds, lag_p99,
        held ? "held" : (lagging ? "FAILED (the generator lagged)" : "FAILED"));
    std::fflush(stdout);
    ramp->cpu_at_step = Usage::now(0).self_cpu;
    if (s.sent > 0) ramp->frame_bytes = static_cast<double>(s.submit_bytes) / s.sent;
    if (held) {
      ramp->best = achieved;
      ramp->best_p99 = p99;
    }
    if (held && ramp->rate * flags.ramp_factor <= flags.max_rate) {
      ramp->rate *= flags.ramp_factor;
      return ramp_step(run, flags, load, ramp, report, from);
    }
    const Usage to = Usage::now(flags.server_pid);
    report->number("last_step_generator_lagged", lagging ? 1 : 0,
                   "the last step's generator lag p99 was over a quarter of the bound");
    load.stop(millis(flags.drain_seconds), [&run, &flags, &load, ramp, report, from, to] {
      report->number("last_rate", ramp->rate, "last offered commands/s");
      report->number("best_commands_per_s", ramp->best,
                     "highest rate held (commands/s, p99 within the bound)");
      report->number("best_p99_ms", ramp->best_p99, "its p99 (ms)");
      add_match_figures(*report, load.stats(), flags.step_seconds, load.backlog(), load.in_flight(),
                        static_cast<std::size_t>(flags.matches.spectators));
      report->usage(*from, to, run.probe.lag(), flags.server_pid);
      finish_with_echo(run, flags, report, ramp->best, ramp->frame_bytes);
    });
  });
}

int run_saturation(Flags& flags) {
  Run run;
  const std::size_t conns = static_cast<std::size_t>(flags.matches.matches) *
                                (2 + static_cast<std::size_t>(flags.matches.spectators)) +
                            static_cast<std::size_t>(flags.matches.idle);
  if (!run.connect(flags.url, conns, flags.per_source)) return 2;
  MatchLoad load(*run.net, flags.matches);
  load.prepare([&](const std::string& error) {
    if (!error.empty()) return run.fail(error);
    std::printf(
        "castra-load saturation: %zu connections, %d matches; p99 bound %.1f ms, "
        "steps of %.1f s from %.0f commands/s, x%.2f\n",
        load.connections(), flags.matches.matches, flags.p99_bound_ms, flags.step_seconds,
        flags.rate, flags.ramp_factor);
    auto ramp = std::make_shared<Ramp>();
    ramp->rate = flags.rate;
    ramp->cpu_at_step = Usage::now(0).self_cpu;
    auto report = std::make_shared<Report>("saturation");
    report->number("matches", flags.matches.matches, "matches at once");
    report->number("p99_bound_ms", flags.p99_bound_ms, "p99 bound (ms)");
    run.probe.lag().reset();
    auto from = std::make_shared<Usage>(Usage::now(flags.server_pid));
    ramp_step(run, flags, load, ramp, report, from);
  });
  run.probe.start();
  run.ioc.run();
  return run.exit_code;
}

// The generator's own scheduling lag over a span: a stall of the whole machine (a paused
// virtual machine) shows here as in the server, since the generator cannot run either.
struct LagFigures {
  double p99_ms = 0;
  double max_ms = 0;
};
LagFigures lag_figures(const Histogram& lag) {
  return {ms(lag.percentile(0.99)), ms(lag.max())};
}

// `flood`: the honest players' latencies for --seconds alone, then for --seconds more beside
// FloodLoad's abusive connections, and the ratio of the two p99s (docs/reliability.md).
int run_flood(Flags& flags) {
  Run run;
  const std::size_t conns = static_cast<std::size_t>(flags.matches.matches) *
                            (2 + static_cast<std::size_t>(flags.matches.spectators));
  if (!run.connect(flags.url, conns, flags.per_source)) return 2;
  MatchLoad load(*run.net, flags.matches);
  FloodLoad flood(run.net->target, flags.flood);
  auto baseline = std::make_shared<MatchStats>();
  auto lag_baseline = std::make_shared<LagFigures>();
  load.prepare([&](const std::string& error) {
    if (!error.empty()) return run.fail(error);
    std::cout << "castra-load: " << load.connections() << " honest connections, "
              << flags.matches.matches << " matches ready; " << flags.rate << " commands/s, "
              << flags.seconds << " s alone, then " << flags.seconds << " s beside "
              << flags.flood.connections << " abusive connections\n";
    std::cout.flush();
    load.run_at(flags.rate);
    after(run.ioc, millis(flags.warmup_seconds), [&, baseline, lag_baseline] {
      load.stats().reset();
      run.probe.lag().reset();
      after(run.ioc, millis(flags.seconds), [&, baseline, lag_baseline] {
        *baseline = load.stats();
        *lag_baseline = lag_figures(run.probe.lag());
        flood.start();
        after(run.ioc, millis(flags.warmup_seconds), [&, baseline, lag_baseline] {
          load.stats().reset();
          run.probe.lag().reset();
          after(run.ioc, millis(flags.seconds), [&, baseline, lag_baseline] {
            auto under = std::make_shared<MatchStats>(load.stats());
            const LagFigures lag_flood = lag_figures(run.probe.lag());
            flood.stop();
            load.stop(millis(flags.drain_seconds), [&, baseline, lag_baseline, under, lag_flood] {
              Report r("flood");
              r.number("matches", flags.matches.matches, "honest matches at once");
              r.number("rate", flags.rate, "offered commands/s");
              r.number("abusers", flags.flood.connections,
                       "abusive connections (floods, oversize frames, slow readers)");
              const double base = ms(baseline->ack.percentile(0.99));
              const double bad = ms(under->ack.percentile(0.99));
              r.latency("baseline_ack", baseline->ack, "alone: submit -> CommandResult");
              r.latency("flood_ack", under->ack, "beside the flood: submit -> CommandResult");
              r.number("ack_p99_ratio", base > 0 ? bad / base : 0,
                       "p99 beside the flood over p99 alone (the bound: 2)");
              add_slow_acks(r, "baseline_ack", *baseline);
              add_slow_acks(r, "flood_ack", *under);
              r.latency("baseline_opponent", baseline->opponent, "alone: submit -> opponent");
              r.latency("flood_opponent", under->opponent, "beside the flood: submit -> opponent");
              r.number("baseline_commands_per_s", baseline->acked / flags.seconds,
                       "alone: acknowledged commands/s");
              r.number("flood_commands_per_s", under->acked / flags.seconds,
                       "beside the flood: acknowledged commands/s");
              std::uint64_t errors = 0;
              for (const auto* s : {baseline.get(), under.get()})
                for (const auto& [k, n] : s->errors)
                  errors += n;
              r.number("honest_errors", static_cast<double>(errors),
                       "errors the honest players got, both spans");
              const FloodStats& f = flood.stats();
              r.number("abuser_connections", static_cast<double>(f.connected),
                       "abusive connections upgraded");
              r.number("abuser_refused", static_cast<double>(f.refused),
                       "abusive connects or upgrades refused");
              r.number("abuser_cut_off", static_cast<double>(f.cut_off),
                       "abusive connections the server ended");
              r.number("abuser_frames", static_cast<double>(f.frames), "abusive frames sent");
              r.number("abuser_mib", static_cast<double>(f.bytes) / (1 << 20),
                       "abusive bytes sent (MiB)");
              r.number("baseline_lag_p99_ms", lag_baseline->p99_ms, "generator lag p99 alone (ms)");
              r.number("flood_lag_p99_ms", lag_flood.p99_ms,
                       "generator lag p99 beside the flood (ms)");
              r.number("baseline_lag_max_ms", lag_baseline->max_ms, "generator lag max alone (ms)");
              r.number("flood_lag_max_ms", lag_flood.max_ms,
                       "generator lag max beside the flood (ms)");
              r.print(flags.json);
              run.ioc.stop();
            });
          });
        });
      });
    });
  });
  run.probe.start();
  run.ioc.run();
  return run.exit_code;
}

int run_idle(Flags& flags) {
  Run run;
  if (!run.connect(flags.url, static_cast<std::size_t>(flags.idle.connections), flags.per_source))
    return 2;
  flags.idle.prefix = flags.matches.prefix;
  flags.idle.register_concurrency = flags.matches.setup_concurrency;
  IdleLoad load(*run.net, flags.idle, flags.server_pid);
  const Usage from = Usage::now(flags.server_pid);
  load.run([&](const IdleResult& r) {
    Report report("idle");
    report.number("connections", flags.idle.connections, "connections");
    report.number("sources", static_cast<double>(std::max<std::size_t>(1, run.net->sources.size())),
                  "source addresses");
    report.number("register_s", r.register_seconds, "open and register all (s)");
    report.number("rss_before_mib", static_cast<double>(r.rss_before_kib) / 1024.0,
                  "server memory before (MiB)");
    report.number("rss_idle_mib", static_cast<double>(r.rss_idle_kib) / 1024.0,
                  "server memory, all idle and signed in (MiB)");
    report.number("resume_s", r.resume_seconds, "connect-and-resume all (s)");
    report.latency("resume", r.resume, "one connect-and-resume");
    report.number("errors", static_cast<double>(r.errors), "errors");
    if (!r.first_error.empty()) {
      report.text("first_error", r.first_error);
      std::cout << "  first error: " << r.first_error << "\n";
    }
    report.usage(from, Usage::now(flags.server_pid), run.probe.lag(), flags.server_pid);
    report.print(flags.json);
    run.ioc.stop();
  });
  run.probe.start();
  run.ioc.run();
  return run.exit_code;
}

int run_echo(Flags& flags) {
  Run run;
  if (!run.connect(flags.url, static_cast<std::size_t>(flags.echo.connections), flags.per_source))
    return 2;
  EchoLoad load(*run.net, flags.echo);
  const Usage from = Usage::now(0);
  load.run([&](const EchoResult& e) {
    Report report("echo");
    report.number("connections", flags.echo.connections, "connections");
    report.number("window", flags.echo.window, "frames in flight per connection");
    report.number("frame_bytes", static_cast<double>(flags.echo.frame_bytes), "frame (bytes)");
    add_echo_figures(report, e, "echo");
    report.usage(from, Usage::now(0), run.probe.lag(), 0);
    report.print(flags.json);
    boost::asio::post(run.ioc, [&run] { run.ioc.stop(); });
  });
  run.probe.start();
  run.ioc.run();
  return run.exit_code;
}

void add_common(CLI::App& app, Flags& f) {
  app.add_option("--url", f.url, "The server's WebSocket")->capture_default_str();
  app.add_option("--server-pid", f.server_pid, "The server's pid: its memory and CPU");
  app.add_flag("--json", f.json, "End with one JSON line of every figure");
  app.add_option("--per-source", f.per_source,
                 "Connections per loopback source address; more use 127.0.0.2, .3, ...")
      ->capture_default_str();
  app.add_option("--prefix", f.matches.prefix, "Account names start with this (default: unique)");
  app.add_option("--concurrency", f.matches.setup_concurrency,
                 "Set-up steps (connect, sign in, create, join) in flight at once; keep it "
                 "under the server's --hash-queue")
      ->capture_default_str();
}

void add_match_flags(CLI::App& app, Flags& f, int matches, int spectators, double rate) {
  f.matches.matches = matches;
  f.matches.spectators = spectators;
  f.rate = rate;
  app.add_option("--matches", f.matches.matches, "Matches at once")->capture_default_str();
  app.add_option("--spectators", f.matches.spectators, "Spectators per match (guests)")
      ->capture_default_str();
  app.add_flag("--json-spectators", f.matches.json_spectators,
               "The spectators speak castra.v1.json (JSON text frames) instead of binary");
  app.add_option("--idle", f.matches.idle, "Extra logged-in connections that stay idle")
      ->capture_default_str();
  app.add_option("--scenario", f.matches.scenario, "The scenario every match plays")
      ->capture_default_str();
  app.add_option("--rate", f.rate, "Commands per second, in total (saturation: the first step)")
      ->capture_default_str();
  app.add_option("--seed", f.matches.seed, "Seed of the bots' brains")->capture_default_str();
  app.add_option("--drain", f.drain_seconds,
                 "Seconds to wait, at the end, for answers and updates still owed")
      ->capture_default_str();
  app.add_option("--echo-url", f.echo_url,
                 "After the run, drive castra-bench-echo here with frames of the mean "
                 "SubmitCommand size and print the ratio");
  app.add_option("--echo-connections", f.echo.connections, "Echo connections")
      ->capture_default_str();
  app.add_option("--echo-window", f.echo.window, "Echo frames in flight per connection")
      ->capture_default_str();
  app.add_option("--echo-seconds", f.echo.seconds, "Echo run (s)")->capture_default_str();
}

}  // namespace
}  // namespace castra::load

int main(int argc, char** argv) {
  using namespace castra::load;
  // `flags` holds the common options (and idle's and echo's); each match workload has its
  // own defaults, and takes the common options after parsing.
  Flags flags;
  Flags matches_flags;
  Flags tournament_flags;
  Flags saturation_flags;
  Flags flood_flags;
  CLI::App app{"castra-load: drives castra-server over real WebSockets (docs/load.md)"};
  app.require_subcommand(1);
  add_common(app, flags);

  auto* matches = app.add_subcommand("matches", "N matches, M spectators each, open-loop rate");
  matches->fallthrough();
  add_match_flags(*matches, matches_flags, 4, 1, 50);
  matches->add_option("--seconds", matches_flags.seconds, "Measured run (s)")
      ->capture_default_str();

  auto* tournament = app.add_subcommand("tournament", "One match, many spectators");
  tournament->fallthrough();
  add_match_flags(*tournament, tournament_flags, 1, 1000, 10);
  tournament->add_option("--seconds", tournament_flags.seconds, "Measured run (s)")
      ->capture_default_str();

  auto* saturation =
      app.add_subcommand("saturation", "Ramp the rate until p99 passes --p99-bound-ms");
  saturation->fallthrough();
  add_match_flags(*saturation, saturation_flags, 200, 0, 500);
  saturation->add_option("--p99-bound-ms", saturation_flags.p99_bound_ms, "The bound p99 must keep")
      ->capture_default_str();
  saturation
      ->add_option("--ramp-factor", saturation_flags.ramp_factor, "Each step's rate over the last")
      ->capture_default_str();
  saturation->add_option("--step-seconds", saturation_flags.step_seconds, "Each step (s)")
      ->capture_default_str();
  saturation->add_option("--max-rate", saturation_flags.max_rate, "Stop ramping here")
      ->capture_default_str();

  auto* flood = app.add_subcommand(
      "flood", "Honest matches alone, then beside abusive connections: the p99s and their ratio");
  flood->fallthrough();
  add_match_flags(*flood, flood_flags, 20, 1, 100);
  flood->add_option("--seconds", flood_flags.seconds, "Each measured span (s)")
      ->capture_default_str();
  flood->add_option("--warmup", flood_flags.warmup_seconds, "Before each span (s)")
      ->capture_default_str();
  flood->add_option("--abusers", flood_flags.flood.connections, "Abusive connections")
      ->capture_default_str();
  flood
      ->add_option("--flood-frames-per-s", flood_flags.flood.flood_frames_per_s,
                   "Pings per second of each flooding connection")
      ->capture_default_str();
  flood
      ->add_option("--oversize-bytes", flood_flags.flood.oversize_bytes,
                   "The oversize connections' frame")
      ->capture_default_str();
  flood
      ->add_option("--slow-requests-per-s", flood_flags.flood.slow_requests_per_s,
                   "Scenario lists per second of each slow reader")
      ->capture_default_str();
  flood->add_option("--abuse", flood_flags.flood.kinds, "The kinds of abuse, taken in turn")
      ->check(CLI::IsMember({"flood", "oversize", "slow"}))
      ->capture_default_str();
  flood
      ->add_option("--abusers-per-source", flood_flags.flood.per_source,
                   "Abusive connections per source address (from 127.0.0.100)")
      ->capture_default_str();

  auto* idle = app.add_subcommand("idle", "K idle logged-in connections, then K resumes, timed");
  idle->fallthrough();
  idle->add_option("--connections", flags.idle.connections, "K")->capture_default_str();
  idle->add_option("--resume-concurrency", flags.idle.concurrency,
                   "Connections being opened at once")
      ->capture_default_str();

  auto* echo = app.add_subcommand("echo", "The raw WebSocket baseline, against castra-bench-echo");
  echo->fallthrough();
  echo->add_option("--connections", flags.echo.connections, "Connections")->capture_default_str();
  echo->add_option("--window", flags.echo.window, "Frames in flight per connection")
      ->capture_default_str();
  echo->add_option("--frame-bytes", flags.echo.frame_bytes,
                   "Frame size (bytes): castra-load matches prints Castra's mean SubmitCommand")
      ->capture_default_str();
  echo->add_option("--seconds", flags.echo.seconds, "Measured run (s)")->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  raise_file_limit();
  if (flags.matches.prefix.empty()) flags.matches.prefix = default_prefix();
  auto with_common = [&flags](Flags f) {
    f.url = flags.url;
    f.server_pid = flags.server_pid;
    f.json = flags.json;
    f.per_source = flags.per_source;
    f.matches.prefix = flags.matches.prefix;
    f.matches.setup_concurrency = flags.matches.setup_concurrency;
    return f;
  };

  if (matches->parsed()) {
    Flags f = with_common(matches_flags);
    return run_matches(f, "matches");
  }
  if (tournament->parsed()) {
    Flags f = with_common(tournament_flags);
    return run_matches(f, "tournament");
  }
  if (saturation->parsed()) {
    Flags f = with_common(saturation_flags);
    return run_saturation(f);
  }
  if (flood->parsed()) {
    Flags f = with_common(flood_flags);
    return run_flood(f);
  }
  if (idle->parsed()) return run_idle(flags);
  return run_echo(flags);
}
