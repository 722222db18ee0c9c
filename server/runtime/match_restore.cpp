// MatchHost's past: loading a stored match back (start-up recovery, a finished match asked for
// after it left memory) and the pictures of earlier moments (replay, delayed spectators).
#include <spdlog/spdlog.h>

#include <sqlite3.h>

#include <algorithm>

#include "server/runtime/match_host.hpp"

namespace castra::runtime {

std::optional<std::string> MatchHost::restore(const store::Secrets& secrets,
                                              const std::vector<store::LogRow>& log,
                                              const std::optional<store::Snapshot>& snapshot) {
  // Seating re-makes the opening entry, which the loop below then checks in place.
  if (secrets.entropy_a) match_->seat(Side::kA, *secrets.entropy_a);
  if (secrets.entropy_b) match_->seat(Side::kB, *secrets.entropy_b);
  for (const auto& row : log) {
    v1::LogEntry entry;
    if (!entry.ParseFromString(row.entry)) {
      closed_ = true;
      return "entry " + std::to_string(row.entry_index) + " is not a log entry";
    }
    std::vector<wire::SealSalt> salts;
    for (const auto& s : row.salts) {
      wire::SealSalt salt;
      salt.event_index = s.event_index;
      if (s.salt.size() == salt.salt.size())
        std::copy(s.salt.begin(), s.salt.end(), salt.salt.begin());
      salts.push_back(salt);
    }
    if (auto err = match_->replay(entry, salts)) {
      closed_ = true;
      return *err;
    }
    turn_after_entry_.push_back(match_->acting().turn);
    events_after_entry_.push_back(match_->event_count());
    if (snapshot && snapshot->entry_count == match_->entry_count() &&
        snapshot->state_hash != std::string(match::as_view(match_->full_state_hash()))) {
      closed_ = true;
      return "the state after entry " + std::to_string(row.entry_index) +
             " does not hash to its stored snapshot";
    }
  }
  std::vector<store::StoredReply> replies;
  if (store::Status st = store_.replies_of(id_, &replies); !st.ok()) {
    closed_ = true;
    return "its answers could not be read: " + st.message;
  }
  for (const auto& r : replies) {
    v1::CommandResult result;
    if (!result.ParseFromString(r.reply)) {
      closed_ = true;
      return "the answer to client_seq " + std::to_string(r.client_seq) + " is unreadable";
    }
    replies_[{r.side, r.client_seq}] = std::move(result);
  }
  committed_entries_ = static_cast<std::uint32_t>(match_->entry_count());
  committed_events_ = match_->event_count();
  if (match_->outcome()) {
    if (auto r = match_->record()) record_ = std::make_shared<const v1::MatchRecord>(*r);
  }
  publish();
  return std::nullopt;
}

void MatchHost::snapshot_at(Viewer viewer, std::uint32_t entries, Reply<v1::Snapshot> done) {
  act([this, viewer, entries, done = std::move(done)] {
    if (entries > committed_entries_) {
      return done(
          rules::RuleError{"match.entry", "the match has " + std::to_string(committed_entries_) +
                                              " log entries, not " + std::to_string(entries)});
    }
    auto past = rebuild(entries);
    if (!past) {
      spdlog::error("event=rebuild_failed match={} entries={}", id_, entries);
      return done(store::Status{SQLITE_CORRUPT, "the match's log does not replay"});
    }
    done(past->snapshot(viewer));
  });
}

std::unique_ptr<wire::AnyMatch> MatchHost::rebuild(std::uint32_t entries) const {
  auto fresh = wire::make_match(
      {id_, match_->scenario(), match_->rules_version(), match_->secrets().server_seed});
  if (!fresh) return nullptr;
  auto& m = **fresh;
  if (entries > 0 && match_->log_entry(0).kind() == v1::ENTRY_START) {
    m.seat(Side::kA, match_->secrets().entropy_a);
    m.seat(Side::kB, match_->secrets().entropy_b);
  }
  for (std::uint32_t i = 0; i < entries; ++i) {
    if (auto err = m.replay(match_->log_entry(i), match_->salts(i))) return nullptr;
  }
  return std::move(*fresh);
}

}  // namespace castra::runtime
