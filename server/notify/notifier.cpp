#include "server/notify/notifier.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/notify/message.hpp"
#include "server/notify/targets.hpp"
#include "server/notify/transport.hpp"

namespace castra::notify {

namespace {

using server::DeliveryOutcome;
using server::ReminderChannel;

const char* channel_name(ReminderChannel channel) {
  return channel == ReminderChannel::kWebhook ? "webhook" : "email";
}

}  // namespace

Notifier::Notifier(NotifyOptions options, TargetSource& targets, const server::Clock& clock,
                   server::Metrics* metrics)
    : options_(std::move(options)), targets_(targets), clock_(clock), metrics_(metrics) {
  init_curl();
  spdlog::info("event=reminders_ready email={} mta={} webhook_timeout_ms={} private_webhooks={}",
               mail_enabled() ? "on" : "off", mail_enabled() ? host_of(options_.smtp_url) : "-",
               options_.webhook_timeout_ms, options_.webhook_private_addresses);
  worker_ = std::thread([this] { run(); });
}

Notifier::~Notifier() {
  stop();
}

void Notifier::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
  std::lock_guard lock(mutex_);
  if (!jobs_.empty()) spdlog::warn("event=reminders_abandoned count={}", jobs_.size());
  jobs_.clear();
  idle_.notify_all();
}

Notifier::Admission Notifier::remind(Reminder reminder) {
  std::string key = reminder_key(reminder);
  const std::int64_t account = reminder.account_id;
  Admission admission = Admission::kQueued;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {
      admission = Admission::kDropped;
    } else if (seen_.count(key) != 0) {
      admission = Admission::kDuplicate;
    } else if (jobs_.size() >= options_.queue) {
      admission = Admission::kDropped;
    } else {
      remember(key);
      Job job;
      job.reminder = std::move(reminder);
      job.key = key;
      jobs_.emplace(SteadyClock::now(), std::move(job));
    }
  }
  if (metrics_ != nullptr) metrics_->reminder(admission);
  switch (admission) {
    case Admission::kQueued:
      wake_.notify_one();
      spdlog::debug("event=reminder_queued account={} key={}", account, key);
      break;
    case Admission::kDuplicate:
      spdlog::debug("event=reminder_duplicate account={} key={}", account, key);
      break;
    case Admission::kDropped:
      spdlog::warn("event=reminder_dropped account={} key={} reason=queue_full", account, key);
      break;
  }
  return admission;
}

void Notifier::remember(const std::string& key) {
  seen_.insert(key);
  seen_order_.push_back(key);
  while (seen_order_.size() > options_.remembered) {
    seen_.erase(seen_order_.front());
    seen_order_.pop_front();
  }
}

void Notifier::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (jobs_.empty()) {
      wake_.wait(lock);
      continue;
    }
    const auto due = jobs_.begin()->first;
    if (due > SteadyClock::now()) {
      wake_.wait_until(lock, due);
      continue;
    }
    Job job = std::move(jobs_.begin()->second);
    jobs_.erase(jobs_.begin());
    delivering_ = true;
    lock.unlock();
    const bool done = attempt(job);
    // Doubling from retry_backoff_ms: 2 s, 4 s, 8 s... with the defaults.
    const int doublings = std::min(job.attempt - 1, 16);
    const auto backoff = std::chrono::milliseconds(options_.retry_backoff_ms) * (1 << doublings);
    lock.lock();
    delivering_ = false;
    if (!done) jobs_.emplace(SteadyClock::now() + backoff, std::move(job));
    if (jobs_.empty()) idle_.notify_all();
  }
}

bool Notifier::wait_idle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, timeout, [this] { return jobs_.empty() && !delivering_; });
}

bool Notifier::resolve(Job& job) {
  std::string error;
  const auto targets = targets_.targets_of(job.reminder.account_id, &error);
  if (!targets) {
    spdlog::warn(
        "event=reminder_targets_unread account={} key={} attempt={} given_up={} error=\"{}\"",
        job.reminder.account_id, job.key, job.attempt, job.attempt >= options_.attempts, error);
    return false;
  }
  job.resolved = true;
  if (!targets->webhook_url.empty()) job.webhook = targets->webhook_url;
  if (!targets->email.empty() && mail_enabled()) job.email = targets->email;
  if (!job.webhook && !job.email) {
    spdlog::debug("event=reminder_no_target account={} key={}", job.reminder.account_id, job.key);
  }
  return true;
}

bool Notifier::attempt(Job& job) {
  ++job.attempt;
  const bool last = job.attempt >= options_.attempts;
  if (!job.resolved && !resolve(job)) return last;

  // Each pending channel once; a success or a permanent failure settles it for good.
  const auto settle = [&](ReminderChannel channel, std::optional<std::string>& target,
                          const Attempt& result, const std::string& where) {
    const std::int64_t account = job.reminder.account_id;
    DeliveryOutcome outcome = DeliveryOutcome::kRetried;
    if (result.ok) {
      outcome = DeliveryOutcome::kSent;
      spdlog::info("event=reminder_sent channel={} account={} kind={} key={} attempt={} {}",
                   channel_name(channel), account, job.reminder.kind, job.key, job.attempt, where);
    } else if (result.permanent || last) {
      outcome = DeliveryOutcome::kFailed;
      spdlog::warn(
          "event=reminder_failed channel={} account={} key={} attempt={} {} permanent={} "
          "error=\"{}\"",
          channel_name(channel), account, job.key, job.attempt, where, result.permanent,
          result.error);
    } else {
      spdlog::info("event=reminder_retry channel={} account={} key={} attempt={} {} error=\"{}\"",
                   channel_name(channel), account, job.key, job.attempt, where, result.error);
    }
    if (metrics_ != nullptr) metrics_->reminder_delivery(channel, outcome);
    if (outcome != DeliveryOutcome::kRetried) target.reset();
  };

  if (job.webhook) {
    WebhookCall call{options_.webhook_timeout_ms, options_.webhook_private_addresses,
                     options_.user_agent};
    const Attempt result =
        post_webhook(*job.webhook, webhook_body(job.reminder, clock_.now_ms()), call);
    settle(ReminderChannel::kWebhook, job.webhook, result, "host=" + host_of(*job.webhook));
  }
  if (job.email) {
    MailCall call{options_.smtp_url, options_.mail_from, options_.smtp_timeout_ms};
    const Attempt result = send_mail(
        *job.email, mail_message(job.reminder, options_.mail_from, *job.email, clock_.now_ms()),
        call);
    settle(ReminderChannel::kEmail, job.email, result, "mta=" + host_of(options_.smtp_url));
  }
  return !job.webhook && !job.email;
}

}  // namespace castra::notify
