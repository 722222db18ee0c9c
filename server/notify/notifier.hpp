// Notifier: delivers deadline reminders outside the client, to each account's webhook and, when
// the server has a mail transfer agent, its e-mail address. remind() may be called from any
// thread and never waits: it queues the reminder (bounded; a full queue drops it, counted) and
// one worker thread of its own looks up the account's targets (TargetSource), makes the network
// calls (server/notify/transport.hpp, each with its timeout), and retries a failed one a few
// times with a doubling backoff. The same reminder (reminder_key: account, kind, about_id,
// deadline) asked for twice is queued once; what has been queued is remembered in memory only,
// so after a restart a reminder asked for again is sent once more (at most once more per
// restart).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>

#include "server/base/clock.hpp"
#include "server/base/metrics.hpp"
#include "server/notify/reminder.hpp"

namespace castra::notify {

struct NotifyOptions {
  std::string smtp_url;  // smtp://127.0.0.1:25; empty: no e-mail is sent
  std::string mail_from = "castra@localhost";
  int webhook_timeout_ms = 5000;
  int smtp_timeout_ms = 10000;
  bool webhook_private_addresses = false;  // transport.hpp's WebhookCall::private_addresses
  std::size_t queue = 1024;                // reminders waiting, retries included
  int attempts = 4;                        // per reminder and channel, the first included
  int retry_backoff_ms = 2000;             // before the first retry; doubles after each
  std::size_t remembered = 100000;         // keys kept for deduplication, the oldest forgotten
  std::string user_agent = "castra-server";
};

// Where an account's targets are read. Called on the Notifier's worker thread.
class TargetSource {
 public:
  virtual ~TargetSource() = default;
  // The account's targets (both empty when it set none); nullopt when they could not be read,
  // with `error` saying why (the delivery is retried).
  virtual std::optional<Targets> targets_of(std::int64_t account_id, std::string* error) = 0;
};

class Notifier {
 public:
  using Admission = server::ReminderAdmission;

  // `clock` gives the Date and sent_ms of each attempt. Starts the worker thread.
  Notifier(NotifyOptions options, TargetSource& targets, const server::Clock& clock,
           server::Metrics* metrics);
  ~Notifier();  // stop()
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  // Queues `reminder` for delivery. kDuplicate: the same reminder was queued before (nothing
  // new is sent); kDropped: the queue was full or the notifier has stopped (logged, counted; it
  // may be asked for again).
  Admission remind(Reminder reminder);
  // Ends the worker after the call in flight (bounded by its timeout); what still waits is
  // abandoned (logged). Idempotent; from the thread that owns the Notifier.
  void stop();
  // Waits until no reminder is queued or being delivered (true), or `timeout` passes (false).
  bool wait_idle(std::chrono::milliseconds timeout);
  bool mail_enabled() const { return !options_.smtp_url.empty(); }

 private:
  using SteadyClock = std::chrono::steady_clock;
  struct Job {
    Reminder reminder;
    std::string key;
    bool resolved = false;  // targets looked up
    std::optional<std::string> webhook;
    std::optional<std::string> email;
    int attempt = 0;  // attempts made so far
  };

  void run();
  // One attempt at each channel still pending; true when none is left.
  bool attempt(Job& job);
  bool resolve(Job& job);
  void remember(const std::string& key);

  NotifyOptions options_;
  TargetSource& targets_;
  const server::Clock& clock_;
  server::Metrics* metrics_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  bool stopping_ = false;
  bool delivering_ = false;                           // the worker holds a job outside jobs_
  std::multimap<SteadyClock::time_point, Job> jobs_;  // by when due; equal times in FIFO order
  std::unordered_set<std::string> seen_;
  std::deque<std::string> seen_order_;  // oldest first
  std::thread worker_;
};

}  // namespace castra::notify
