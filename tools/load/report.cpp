#include "tools/load/report.hpp"

#include <google/protobuf/util/json_util.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace castra::load {

long rss_kib(pid_t pid) {
  if (pid <= 0) return 0;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

namespace {

double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

// utime + stime of /proc/PID/stat (fields 14 and 15, after the parenthesised name).
double process_cpu(pid_t pid) {
  if (pid <= 0) return 0;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = all.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(all.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i >= 14) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

double ms(std::int64_t micros) {
  return static_cast<double>(micros) / 1000.0;
}

Usage Usage::now(pid_t server_pid) {
  Usage u;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  u.self_cpu = seconds(ru.ru_utime) + seconds(ru.ru_stime);
  u.server_cpu = process_cpu(server_pid);
  u.wall = std::chrono::steady_clock::now();
  return u;
}

LagProbe::LagProbe(boost::asio::io_context& ioc, std::chrono::microseconds period)
    : timer_(ioc), period_(period) {}

void LagProbe::start() {
  running_ = true;
  due_ = std::chrono::steady_clock::now();
  arm();
}

void LagProbe::stop() {
  running_ = false;
  timer_.cancel();
}

void LagProbe::arm() {
  due_ += period_;
  timer_.expires_at(due_);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || !running_) return;
    const auto now = std::chrono::steady_clock::now();
    lag_.record(std::chrono::duration_cast<std::chrono::microseconds>(now - due_).count());
    // A stall does not queue a burst of catch-up ticks.
    if (now > due_ + period_) due_ = now;
    arm();
  });
}

Report::Report(std::string mode) {
  text("mode", mode);
  lines_ = "castra-load " + mode + "\n";
}

void Report::number(const std::string& key, double value, const std::string& words) {
  (*fields_.mutable_fields())[key].set_number_value(value);
  if (!words.empty()) {
    lines_ += "  " + words + ": " +
              (value == static_cast<double>(static_cast<long long>(value))
                   ? std::to_string(static_cast<long long>(value))
                   : fixed(value, 2)) +
              "\n";
  }
}

void Report::text(const std::string& key, const std::string& value, const std::string& words) {
  (*fields_.mutable_fields())[key].set_string_value(value);
  if (!words.empty()) lines_ += "  " + words + ": " + value + "\n";
}

void Report::latency(const std::string& key, const Histogram& h, const std::string& words) {
  number(key + "_n", static_cast<double>(h.count()));
  number(key + "_p50_ms", ms(h.percentile(0.5)));
  number(key + "_p99_ms", ms(h.percentile(0.99)));
  number(key + "_p999_ms", ms(h.percentile(0.999)));
  number(key + "_max_ms", ms(h.max()));
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "  %-28s n=%-9llu p50=%8.3f  p99=%8.3f  p99.9=%8.3f  max=%8.3f ms\n", words.c_str(),
                static_cast<unsigned long long>(h.count()), ms(h.percentile(0.5)),
                ms(h.percentile(0.99)), ms(h.percentile(0.999)), ms(h.max()));
  lines_ += buf;
}

void Report::errors(const std::map<std::string, std::uint64_t>& errors) {
  std::uint64_t total = 0;
  auto* table = (*fields_.mutable_fields())["error_kinds"].mutable_struct_value();
  std::string words;
  for (const auto& [kind, n] : errors) {
    total += n;
    (*table->mutable_fields())[kind].set_number_value(static_cast<double>(n));
    words += " " + kind + "=" + std::to_string(n);
  }
  number("errors", static_cast<double>(total));
  lines_ += "  errors: " + std::to_string(total) +
            (words.empty() ? "" : " (" + words.substr(1) + ")") + "\n";
}

void Report::usage(const Usage& from, const Usage& to, const Histogram& lag, pid_t server_pid) {
  const double wall = std::chrono::duration<double>(to.wall - from.wall).count();
  const double self = wall > 0 ? 100.0 * (to.self_cpu - from.self_cpu) / wall : 0;
  number("wall_s", wall, "measured span (s)");
  number("load_cpu_pct", self, "castra-load CPU (% of one core)");
  latency("load_lag", lag, "castra-load timer lag");
  if (server_pid > 0) {
    const double server = wall > 0 ? 100.0 * (to.server_cpu - from.server_cpu) / wall : 0;
    number("server_cpu_pct", server, "server CPU (% of one core)");
    number("server_rss_mib", static_cast<double>(rss_kib(server_pid)) / 1024.0,
           "server resident memory (MiB)");
  }
}

void Report::print(bool json) const {
  std::cout << lines_;
  if (json) {
    std::string out;
    google::protobuf::util::JsonPrintOptions options;
    options.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(fields_, &out, options);
    std::cout << out << "\n";
  }
  std::cout.flush();
}

}  // namespace castra::load
