#include "server/net/shared_state.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "server/net/forwarded.hpp"

namespace castra::net {

namespace {
using Clock = std::chrono::steady_clock;
constexpr int kStrikesBeforeCooldown = 3;
constexpr auto kStrikeWindow = std::chrono::seconds(10);
// An address that earns cool-down after cool-down waits twice as long each time, up to 2^6
// times --abuse-cooldown (about 11 minutes at the default 10 s), as fail2ban's
// bantime.increment does: a flooder that comes straight back each time it is let in returns
// ever more rarely, instead of every 10 s with a fresh burst. An address with no cool-down for
// kForgiveAfter starts again from one.
constexpr int kMostDoublings = 6;
constexpr auto kForgiveAfter = std::chrono::hours(1);
// Past this many addresses on record, the stale ones are swept out at the next strike.
constexpr std::size_t kSweepAbove = 1024;
}  // namespace

SharedState::SharedState(const NetOptions& options, Application& application)
    : options_(options), application_(application) {
  for (const auto& p : options.trusted_proxies) {
    trusted_proxies_.insert(canonical_address(p).value_or(p));
  }
}

void SharedState::join(const void* key, std::weak_ptr<Closable> session) {
  std::lock_guard lock(mutex_);
  sessions_[key] = std::move(session);
}

void SharedState::leave(const void* key) {
  std::lock_guard lock(mutex_);
  sessions_.erase(key);
}

std::size_t SharedState::connections() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

bool SharedState::shutting_down() const {
  std::lock_guard lock(mutex_);
  return shutting_down_;
}

std::uint64_t SharedState::next_connection_id() {
  std::lock_guard lock(mutex_);
  return next_id_++;
}

bool SharedState::add_address(const std::string& address) {
  std::lock_guard lock(mutex_);
  int& n = per_address_[address];
  if (n >= options_.max_connections_per_address) {
    if (n == 0) per_address_.erase(address);
    return false;
  }
  ++n;
  return true;
}

void SharedState::remove_address(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = per_address_.find(address);
  if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
}

bool SharedState::Strikes::forgiven(Clock::time_point now) const {
  return cooldowns == 0 || until + kForgiveAfter <= now;
}

void SharedState::struck(const std::string& address) {
  if (options_.abuse_cooldown_seconds <= 0 || trusted_proxies_.count(address) != 0) return;
  const auto now = Clock::now();
  std::lock_guard lock(mutex_);
  if (strikes_.size() > kSweepAbove) {
    std::erase_if(strikes_, [&](const auto& entry) {
      const Strikes& s = entry.second;
      return s.forgiven(now) && s.first + kStrikeWindow <= now;
    });
  }
  Strikes& s = strikes_[address];
  // The address's connections opened before its cool-down began are cut off as one burst:
  // they neither lengthen it nor count toward the next.
  if (s.until > now) return;
  if (s.count == 0 || s.first + kStrikeWindow <= now) {
    s.count = 0;
    s.first = now;
  }
  if (++s.count < kStrikesBeforeCooldown) return;
  s.count = 0;
  if (s.forgiven(now)) s.cooldowns = 0;
  const auto length = std::chrono::seconds(options_.abuse_cooldown_seconds) *
                      (std::int64_t{1} << std::min(s.cooldowns, kMostDoublings));
  ++s.cooldowns;
  s.until = now + length;
  spdlog::warn("event=abuse_cooldown address={} seconds={} cooldowns={}", address, length.count(),
               s.cooldowns);
}

Clock::duration SharedState::cooldown_left(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = strikes_.find(address);
  if (it == strikes_.end()) return Clock::duration::zero();
  return std::max(Clock::duration::zero(), it->second.until - Clock::now());
}

void SharedState::shut_down_all() {
  std::vector<std::shared_ptr<Closable>> open;
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    for (auto& [key, weak] : sessions_) {
      if (auto s = weak.lock()) open.push_back(std::move(s));
    }
  }
  // Outside the lock: a session may leave() while it closes.
  for (auto& s : open)
    s->shut_down();
}

}  // namespace castra::net
