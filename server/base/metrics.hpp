// Metrics: the counters, gauges and the request latency histogram that GET /metrics serves in
// Prometheus' text format (docs/operations.md lists them). Lock-free atomics: any thread
// updates, any thread renders.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace castra::server {

// Deadline reminders (server/notify/notifier.hpp): what remind() did with one, and how each
// delivery attempt on a channel ended (sent; failed, retried later; failed, given up).
enum class ReminderAdmission { kQueued, kDuplicate, kDropped };
enum class ReminderChannel { kWebhook, kEmail };
enum class DeliveryOutcome { kSent, kRetried, kFailed };

class Metrics {
 public:
  // `request_kinds`: the label of each request kind, by the index the dispatcher uses.
  // `error_names`: the label of each error code number (index = code).
  Metrics(std::vector<std::string> request_kinds, std::vector<std::string> error_names);

  void connection_opened();
  void connection_closed();
  void request(std::size_t kind, double seconds);
  void error(int code);
  void slow_reader();
  void password_hash();
  void reminder(ReminderAdmission admission);
  void reminder_delivery(ReminderChannel channel, DeliveryOutcome outcome);
  // The number of matches in each lobby status: open, live, finished, closed.
  void set_matches(std::int64_t open, std::int64_t live, std::int64_t finished,
                   std::int64_t closed);

  std::string render() const;

  // Upper bounds of the latency histogram's buckets, in seconds.
  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                      0.05,   0.1,   0.25,   0.5,   1.0,  2.5};

 private:
  std::vector<std::string> kinds_;
  std::vector<std::string> error_names_;
  std::atomic<std::int64_t> connections_{0};
  std::atomic<std::uint64_t> connections_total_{0};
  std::atomic<std::uint64_t> slow_readers_{0};
  std::atomic<std::uint64_t> password_hashes_{0};
  std::array<std::atomic<std::int64_t>, 4> matches_{};
  std::array<std::atomic<std::uint64_t>, 3> reminders_{};                  // by ReminderAdmission
  std::array<std::array<std::atomic<std::uint64_t>, 3>, 2> deliveries_{};  // channel, outcome
  std::vector<std::atomic<std::uint64_t>> requests_;
  std::vector<std::atomic<std::uint64_t>> errors_;
  std::array<std::atomic<std::uint64_t>, kBuckets.size() + 1> buckets_{};  // last: +Inf
  std::atomic<std::uint64_t> latency_sum_us_{0};
};

}  // namespace castra::server
