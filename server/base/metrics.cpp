#include "server/base/metrics.hpp"

#include <sstream>

namespace castra::server {

Metrics::Metrics(std::vector<std::string> request_kinds, std::vector<std::string> error_names)
    : kinds_(std::move(request_kinds)),
      error_names_(std::move(error_names)),
      requests_(kinds_.size()),
      errors_(error_names_.size()) {}

void Metrics::connection_opened() {
  connections_.fetch_add(1, std::memory_order_relaxed);
  connections_total_.fetch_add(1, std::memory_order_relaxed);
}

void Metrics::connection_closed() {
  connections_.fetch_sub(1, std::memory_order_relaxed);
}

void Metrics::request(std::size_t kind, double seconds) {
  if (kind < requests_.size()) requests_[kind].fetch_add(1, std::memory_order_relaxed);
  std::size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b])
    ++b;
  buckets_[b].fetch_add(1, std::memory_order_relaxed);
  latency_sum_us_.fetch_add(static_cast<std::uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

void Metrics::error(int code) {
  if (code >= 0 && static_cast<std::size_t>(code) < errors_.size()) {
    errors_[static_cast<std::size_t>(code)].fetch_add(1, std::memory_order_relaxed);
  }
}

void Metrics::slow_reader() {
  slow_readers_.fetch_add(1, std::memory_order_relaxed);
}

void Metrics::password_hash() {
  password_hashes_.fetch_add(1, std::memory_order_relaxed);
}

void Metrics::reminder(ReminderAdmission admission) {
  reminders_[static_cast<std::size_t>(admission)].fetch_add(1, std::memory_order_relaxed);
}

void Metrics::reminder_delivery(ReminderChannel channel, DeliveryOutcome outcome) {
  deliveries_[static_cast<std::size_t>(channel)][static_cast<std::size_t>(outcome)].fetch_add(
      1, std::memory_order_relaxed);
}

void Metrics::set_matches(std::int64_t open, std::int64_t live, std::int64_t finished,
                          std::int64_t closed) {
  matches_[0] = open;
  matches_[1] = live;
  matches_[2] = finished;
  matches_[3] = closed;
}

std::string Metrics::render() const {
  std::ostringstream out;
  out << "# HELP castra_connections Open WebSocket connections.\n"
      << "# TYPE castra_connections gauge\n"
      << "castra_connections " << connections_.load() << "\n"
      << "# HELP castra_connections_total WebSocket connections accepted since start.\n"
      << "# TYPE castra_connections_total counter\n"
      << "castra_connections_total " << connections_total_.load() << "\n"
      << "# HELP castra_slow_reader_disconnects_total Clients dropped for answers left unread.\n"
      << "# TYPE castra_slow_reader_disconnects_total counter\n"
      << "castra_slow_reader_disconnects_total " << slow_readers_.load() << "\n"
      << "# HELP castra_password_hashes_total Argon2id hashes and verifications run.\n"
      << "# TYPE castra_password_hashes_total counter\n"
      << "castra_password_hashes_total " << password_hashes_.load() << "\n";

  out << "# HELP castra_matches Matches by lobby status.\n# TYPE castra_matches gauge\n";
  static constexpr const char* kStatus[] = {"open", "live", "finished", "closed"};
  for (std::size_t i = 0; i < matches_.size(); ++i) {
    out << "castra_matches{status=\"" << kStatus[i] << "\"} " << matches_[i].load() << "\n";
  }

  out << "# HELP castra_reminders_total Deadline reminders asked for: queued, a duplicate of "
         "one queued before, or dropped (a full queue).\n"
      << "# TYPE castra_reminders_total counter\n";
  static constexpr const char* kAdmission[] = {"queued", "duplicate", "dropped"};
  for (std::size_t i = 0; i < reminders_.size(); ++i) {
    out << "castra_reminders_total{outcome=\"" << kAdmission[i] << "\"} " << reminders_[i].load()
        << "\n";
  }
  out << "# HELP castra_reminder_deliveries_total Reminder delivery attempts by channel: sent, "
         "failed and retried later, or failed and given up.\n"
      << "# TYPE castra_reminder_deliveries_total counter\n";
  static constexpr const char* kChannel[] = {"webhook", "email"};
  static constexpr const char* kOutcome[] = {"sent", "retried", "failed"};
  for (std::size_t c = 0; c < deliveries_.size(); ++c) {
    for (std::size_t o = 0; o < deliveries_[c].size(); ++o) {
      out << "castra_reminder_deliveries_total{channel=\"" << kChannel[c] << "\",outcome=\""
          << kOutcome[o] << "\"} " << deliveries_[c][o].load() << "\n";
    }
  }

  out << "# HELP castra_requests_total Requests answered, by kind.\n"
      << "# TYPE castra_requests_total counter\n";
  for (std::size_t i = 0; i < kinds_.size(); ++i) {
    out << "castra_requests_total{kind=\"" << kinds_[i] << "\"} " << requests_[i].load() << "\n";
  }

  out << "# HELP castra_errors_total Error replies and limit breaches, by code.\n"
      << "# TYPE castra_errors_total counter\n";
  for (std::size_t i = 0; i < errors_.size(); ++i) {
    if (error_names_[i].empty()) continue;
    out << "castra_errors_total{code=\"" << error_names_[i] << "\"} " << errors_[i].load() << "\n";
  }

  out << "# HELP castra_request_duration_seconds From a request's last byte read to its reply "
         "queued.\n"
      << "# TYPE castra_request_duration_seconds histogram\n";
  std::uint64_t cumulative = 0;
  for (std::size_t b = 0; b < kBuckets.size(); ++b) {
    cumulative += buckets_[b].load();
    out << "castra_request_duration_seconds_bucket{le=\"" << kBuckets[b] << "\"} " << cumulative
        << "\n";
  }
  cumulative += buckets_[kBuckets.size()].load();
  out << "castra_request_duration_seconds_bucket{le=\"+Inf\"} " << cumulative << "\n"
      << "castra_request_duration_seconds_sum " << static_cast<double>(latency_sum_us_.load()) / 1e6
      << "\n"
      << "castra_request_duration_seconds_count " << cumulative << "\n";
  return out.str();
}

}  // namespace castra::server
