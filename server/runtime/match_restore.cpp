// MatchHost's past: loading a stored match back (start-up recovery, a finished match asked for
// after it left memory) and the pictures of earlier moments (replay, delayed spectators).
#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/runtime/match_host.hpp"

namespace castra::runtime {

std::optional<std::string> MatchHost::restore(const store::Secrets& secrets,
                                              const std::vector<store::LogRow>& log,
                                              const std::optional<store::Snapshot>& snapshot) {
  // Seating re-makes the opening entry, which the loop below then checks in place.
  if (secrets.entropy_a) match_->seat(Side::kA, *secrets.entropy_a);
  if (secrets.entropy_b) match_->seat(Side::kB, *secrets.entropy_b);
  // Up to the latest stored snapshot the entries are taken as stored (their events applied,
  // nothing re-decided) and the state there must hash to the snapshot's; the entries after it
  // are re-decided. The whole log is re-decided once the match ends (verify_whole_log).
  const std::uint32_t adopt_until = snapshot ? snapshot->entry_count : 0;
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
    const bool adopting = row.entry_index < adopt_until;
    if (auto err = adopting ? match_->adopt(entry, salts) : match_->replay(entry, salts)) {
      closed_ = true;
      return *err;
    }
    turn_after_entry_.push_back(match_->acting().turn);
    events_after_entry_.push_back(match_->event_count());
    if (snapshot && snapshot->entry_count == match_->entry_count()) {
      match::Bytes32 stored{};
      if (snapshot->state_hash.size() != stored.size()) {
        closed_ = true;
        return "the stored snapshot's hash is malformed";
      }
      std::copy(snapshot->state_hash.begin(), snapshot->state_hash.end(), stored.begin());
      if (auto err = match_->check_hash(stored)) {
        closed_ = true;
        return *err;
      }
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
    auto past = match_->snapshot_after(entries, viewer);
    if (!past) return done(past.error());
    done(std::move(*past));
  });
}

void MatchHost::snapshot_at_event(Viewer viewer, std::uint64_t events, Reply<v1::Snapshot> done) {
  act([this, viewer, events, done = std::move(done)] {
    // Only what is committed: an event decided but still being written is nobody's past yet.
    if (events > committed_events_) {
      return done(rules::RuleError{"match.event", "the match has " +
                                                      std::to_string(committed_events_) +
                                                      " events, not " + std::to_string(events)});
    }
    auto past = match_->snapshot_after_events(events, viewer);
    if (!past) return done(past.error());
    done(std::move(*past));
  });
}

}  // namespace castra::runtime
