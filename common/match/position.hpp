// Position<G>: a match as it stood after its first `entries` log entries (and, for a replay's
// step inside an entry, some of the next entry's events), exactly what a from-scratch replay
// of those entries holds: the state (the fold of their events), the
// counts, whether the game had begun and how it had ended. Match<G> keeps one for now and a
// copy every kCheckpointEvery entries, so a past picture folds at most that many entries.
// What each viewer may see is decided here, for now and for the past alike. Plain values;
// any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/match/entry.hpp"
#include "common/match/state_hash.hpp"
#include "common/rules/rule_set.hpp"
#include "common/rules/types.hpp"

namespace castra::match {

template <rules::RuleSet G>
struct Position {
  typename G::State state{};
  std::size_t entries = 0;
  std::uint64_t events = 0;
  std::uint64_t rolls = 0;
  bool started = false;                 // the opening entry is in: both seats were taken
  std::optional<rules::Outcome> ended;  // by a kEnd entry (resigned, drawn, forfeit, aborted)

  std::optional<rules::Outcome> outcome() const {
    if (ended) return ended;
    return G::outcome(state);
  }

  // Who had to act: nobody before both seats were taken or after the end.
  rules::Acting acting() const {
    if (!started) return rules::Acting{false, false, "seating"};
    if (outcome()) return rules::Acting{false, false, "ended", G::acting(state).turn};
    return G::acting(state);
  }

  // After the end every viewer sees everything; before it, only what was theirs to see.
  rules::Viewer effective(rules::Viewer v) const {
    return outcome() ? rules::Viewer::kEveryone : v;
  }
  // Whether v is shown less than the state: not after the end, not kEveryone (whose projection
  // is the state itself, rules/rule_set.hpp), never in a rule set that hides nothing.
  bool hides_from(rules::Viewer v) const {
    return G::kHidesInformation && effective(v) != rules::Viewer::kEveryone;
  }
  // f(what v may see of the state): the state itself, not a copy, when nothing is hidden from v.
  template <class F>
  auto seen_by(rules::Viewer v, F&& f) const {
    if (hides_from(v)) return f(G::project(state, v));
    return f(state);
  }
  typename G::State snapshot(rules::Viewer v) const {
    if (hides_from(v)) return G::project(state, v);
    return state;
  }
  Bytes32 state_hash(rules::Viewer v) const {
    return seen_by(v, [](const typename G::State& seen) { return match::state_hash<G>(seen); });
  }

  // Folds the next entry in: its events applied (G::apply, nothing re-decided), its rolls
  // counted. The entry's first_event must be `events`.
  void fold(const Entry<G>& entry) {
    if (entry.kind == EntryKind::kStart) started = true;
    if (entry.kind == EntryKind::kEnd) ended = entry.outcome;
    for (const auto& e : entry.events)
      G::apply(state, e);
    events += entry.events.size();
    rolls += entry.rolls.size();
    ++entries;
  }

  // Folds in only the first `count` events of the next entry (fewer than all of them): a
  // replay's step inside an entry. The entry is not counted, nor its rolls (which events drew
  // them is not recorded), so such a position is a picture only, never one to decide from.
  void fold_part(const Entry<G>& entry, std::size_t count) {
    if (entry.kind == EntryKind::kStart && count > 0) started = true;
    for (std::size_t i = 0; i < count; ++i)
      G::apply(state, entry.events[i]);
    events += count;
  }
};

}  // namespace castra::match
