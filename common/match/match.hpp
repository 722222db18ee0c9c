// Match<G>: one match of rule set G as an event-sourced log (design section 2). A match is a
// scenario, a rules version, a dice commitment and an append-only log of entries: the
// opening events, each accepted command with the events and rolls it produced, and the end.
// The state is the fold of the events. Projections (what each viewer may see), sealed
// commitments and the final reveal all come from here and nowhere else. Past pictures (a
// delayed spectator's, a replay step's) fold from the nearest checkpoint (position.hpp).
// Not thread-safe: one owner (the server's match actor, castra-sim, a test) at a time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/match/entry.hpp"
#include "common/match/fair_dice.hpp"
#include "common/match/invariants.hpp"
#include "common/match/position.hpp"
#include "common/match/state_hash.hpp"
#include "common/rules/rule_set.hpp"
#include "common/rules/types.hpp"

namespace castra::match {

using rules::Checked;
using rules::Outcome;
using rules::RuleError;
using rules::Side;
using rules::Viewer;
using rules::Visibility;

// HMAC-SHA256(salt, "castra/sealed/v1" || u32 len || content): what the others see of a
// sealed event until the end (docs/formats.md 3).
Bytes32 sealed_commitment(const Bytes32& salt, std::string_view content);
// The salt of the k-th sealed event of an entry, from the 32 random bytes the caller handed
// in with its command: HMAC-SHA256(command_salt, "castra/salt/v1" || u32 k).
Bytes32 event_salt(const Bytes32& command_salt, std::uint32_t k);

// A match keeps its whole position every this many log entries (and at 0), so a past
// picture folds at most kCheckpointEvery - 1 entries' events onto a copy of a checkpoint:
// its cost is bounded by this, not by the log. 16 keeps the copies to one state per 16
// entries while a fold stays well under one re-decided command's cost per entry.
inline constexpr std::size_t kCheckpointEvery = 16;

// One event as a viewer receives it: its content when the viewer may see it, otherwise a
// placeholder that keeps numbering continuous, with the commitment for a sealed one.
template <typename G>
struct ViewedEvent {
  std::uint64_t number = 0;
  std::uint32_t entry = 0;
  Visibility visibility;
  std::optional<typename G::Event> event;
  std::optional<Bytes32> commitment;
};

template <rules::RuleSet G>
class Match {
 public:
  using State = typename G::State;
  using Command = typename G::Command;
  using Event = typename G::Event;

  struct Setup {
    std::string match_id;
    typename G::Scenario scenario;
    std::string rules_version;  // empty: G::current_version()
    Bytes32 server_seed{};      // drawn by the caller from the OS CSPRNG (common does no I/O)
  };

  static Checked<Match> create(Setup setup) {
    if (setup.rules_version.empty()) setup.rules_version = std::string(G::current_version());
    const auto* rules = G::ruleset(setup.rules_version);
    if (rules == nullptr) {
      return rules::refuse("match.version",
                           "rules version " + setup.rules_version + " is not known to this Castra");
    }
    auto initial = G::initial_state(setup.scenario, *rules);
    if (!initial) return initial.error();
    Match m;
    m.dice_.match_id = setup.match_id;
    m.dice_.server_seed = setup.server_seed;
    m.commitment_ = dice_commitment(setup.server_seed);
    m.scenario_ = std::move(setup.scenario);
    m.version_ = std::move(setup.rules_version);
    m.now_.state = std::move(*initial);
    m.checkpoints_.push_back(m.now_);
    return m;
  }

  const std::string& id() const { return dice_.match_id; }
  const std::string& rules_version() const { return version_; }
  const typename G::Scenario& scenario() const { return scenario_; }
  const Bytes32& dice_commitment_value() const { return commitment_; }
  const State& state() const { return now_.state; }
  // The match as it stands: the fold of every entry of the log.
  const Position<G>& position() const { return now_; }
  const std::vector<Entry<G>>& log() const { return log_; }
  std::uint64_t event_count() const { return now_.events; }
  std::uint64_t roll_count() const { return now_.rolls; }
  bool seated(Side s) const { return seated_[rules::index(s)]; }
  bool started() const { return seated_[0] && seated_[1]; }

  // A player takes a seat and adds entropy to the dice. When the second seat is taken the
  // game begins: G::begin's events (STAND!'s roll-off) become the kStart entry.
  std::optional<RuleError> seat(Side side, std::string entropy) {
    if (seated(side)) {
      return rules::refuse("match.seat",
                           std::string("side ") + rules::side_letter(side) + " is already seated");
    }
    (side == Side::kA ? dice_.entropy_a : dice_.entropy_b) = std::move(entropy);
    seated_[rules::index(side)] = true;
    if (started()) {
      RecordingDice dice(dice_, now_.rolls, &forced_);
      Entry<G> entry;
      entry.kind = EntryKind::kStart;
      entry.events = G::begin(now_.state, dice);
      entry.rolls = dice.rolls();
      append(std::move(entry), Bytes32{});
    }
    return std::nullopt;
  }

  // Who must act now: nobody before both seats are taken or after the end.
  rules::Acting acting() const { return now_.acting(); }
  std::optional<Outcome> outcome() const { return now_.outcome(); }

  // A side's command: checked against the state, and on success appended with its events.
  // `command_salt` is 32 fresh random bytes from the caller, used only if the command
  // produces a sealed event. Returns the index of the new entry.
  Checked<std::size_t> submit(Side side, const Command& command, const Bytes32& command_salt) {
    if (!started()) return rules::refuse("match.not_started", "the match has not started yet");
    if (auto o = outcome()) return rules::refuse("match.over", "the match is over: " + o->reason);
    const rules::Acting now = G::acting(now_.state);
    if (!now.must_act(side)) {
      return rules::refuse("match.turn", std::string("it is not side ") + rules::side_letter(side) +
                                             "'s turn to act (phase: " + now.phase + ")");
    }
    RecordingDice dice(dice_, now_.rolls, &forced_);
    auto events = G::decide(now_.state, side, command, dice);
    if (!events) return events.error();
    Entry<G> entry;
    entry.kind = EntryKind::kCommand;
    entry.side = side;
    entry.command = command;
    entry.events = std::move(*events);
    entry.rolls = dice.rolls();
    append(std::move(entry), command_salt);
    return log_.size() - 1;
  }

  // Ends the match outside the rules: a resignation, an agreed draw, a forfeit on time, or an
  // operator's abort. Refused once the match is over.
  std::optional<RuleError> end(EndReason reason, Side side, Outcome outcome) {
    if (auto o = this->outcome()) {
      return rules::refuse("match.over", "the match is over: " + o->reason);
    }
    Entry<G> entry;
    entry.kind = EntryKind::kEnd;
    entry.side = side;
    entry.outcome = outcome;
    entry.end_reason = reason;
    push(std::move(entry));
    return std::nullopt;
  }

  // For replays of a stored or exported log: after an entry has been re-decided and matched,
  // it takes the recorded seals (whose salts were drawn when the command was first given).
  void adopt_seals(std::size_t entry, std::vector<Seal> seals) {
    log_[entry].seals = std::move(seals);
  }

  // For recovery up to a stored snapshot: appends a stored entry as the fact it is, its
  // events applied, its rolls counted (the dice stream moves past them) and its seals kept
  // with their salts; nothing is re-decided or re-rolled. The caller has checked its form
  // (adopt_entry in record.hpp) and checks the full state hash afterwards.
  void adopt(Entry<G> entry) { push(std::move(entry)); }

  // The match as it stood after its first `entries` log entries, folded from the nearest
  // checkpoint at or before them; a count past the log is refused.
  Checked<Position<G>> position_after(std::size_t entries) const {
    if (entries > log_.size()) {
      return rules::refuse("match.entry", "the match has " + std::to_string(log_.size()) +
                                              " log entries, not " + std::to_string(entries));
    }
    if (entries == log_.size()) return now_;
    Position<G> p = checkpoints_[entries / kCheckpointEvery];
    while (p.entries < entries)
      p.fold(log_[p.entries]);
    return p;
  }

  // The match as it stood after its first `events` events: every entry they end in folded
  // whole, the entry that holds event `events - 1` folded up to it. The earliest moment they
  // are all reflected, so an entry without events that follows (a resignation) is not in it.
  // A count past the log's events is refused.
  Checked<Position<G>> position_after_events(std::uint64_t events) const {
    if (events > now_.events) {
      return rules::refuse("match.event", "the match has " + std::to_string(now_.events) +
                                              " events, not " + std::to_string(events));
    }
    if (events == 0) return checkpoints_.front();
    // The first entry whose events reach `events`: the one holding event `events - 1`.
    const auto holder = std::partition_point(log_.begin(), log_.end(), [&](const Entry<G>& e) {
      return e.first_event + e.events.size() < events;
    });
    const auto at = static_cast<std::size_t>(holder - log_.begin());
    Position<G> p = checkpoints_[at / kCheckpointEvery];
    while (p.entries < at)
      p.fold(log_[p.entries]);
    const std::size_t part = static_cast<std::size_t>(events - p.events);
    if (part == holder->events.size()) {
      p.fold(*holder);
    } else {
      p.fold_part(*holder, part);
    }
    return p;
  }

  // Forces the faces of the next rolls (castra-sim --dice, tests). Such a match no longer
  // verifies against its seed, by design.
  void force_rolls(std::vector<int> faces) { forced_ = std::move(faces); }

  // After the end every viewer sees everything.
  Viewer effective(Viewer v) const { return now_.effective(v); }

  State snapshot(Viewer v) const { return now_.snapshot(v); }
  Bytes32 state_hash(Viewer v) const { return now_.state_hash(v); }
  // The hash of the whole state; published only at the end.
  Bytes32 full_state_hash() const { return match::state_hash<G>(now_.state); }

  // Every event numbered `from` or later, as viewer v may see it.
  std::vector<ViewedEvent<G>> events_for(Viewer v, std::uint64_t from = 0) const {
    const Viewer eff = effective(v);
    std::vector<ViewedEvent<G>> out;
    for (std::uint32_t ei = 0; ei < log_.size(); ++ei) {
      const Entry<G>& entry = log_[ei];
      if (entry.first_event + entry.events.size() <= from) continue;
      for (std::size_t i = 0; i < entry.events.size(); ++i) {
        const std::uint64_t number = entry.first_event + i;
        if (number < from) continue;
        ViewedEvent<G> ve;
        ve.number = number;
        ve.entry = ei;
        ve.visibility = G::visibility(entry.events[i]);
        if (ve.visibility.visible_to(eff)) ve.event = entry.events[i];
        for (const Seal& seal : entry.seals) {
          if (seal.event_index == i) ve.commitment = seal.commitment;
        }
        out.push_back(std::move(ve));
      }
    }
    return out;
  }

  // What is revealed at the end; nullopt before.
  struct Secrets {
    Bytes32 server_seed{};
    std::string entropy_a;
    std::string entropy_b;
  };
  std::optional<Secrets> reveal() const {
    if (!outcome()) return std::nullopt;
    return Secrets{dice_.server_seed, dice_.entropy_a, dice_.entropy_b};
  }
  // The secrets, for storage only (never sent before the end).
  const DiceInputs& dice_inputs() const { return dice_; }

 private:
  Match() = default;

  void append(Entry<G> entry, const Bytes32& command_salt) {
    std::uint32_t k = 0;
    for (std::uint32_t i = 0; i < entry.events.size(); ++i) {
      const Event& e = entry.events[i];
      if (G::visibility(e).kind == Visibility::Kind::kSealed) {
        Seal seal;
        seal.event_index = i;
        seal.salt = event_salt(command_salt, k++);
        seal.commitment = sealed_commitment(seal.salt, G::sealed_bytes(e));
        entry.seals.push_back(seal);
      }
    }
    push(std::move(entry));
  }

  // Every entry enters the log here: numbered, folded into now_, and checkpointed.
  void push(Entry<G> entry) {
    entry.first_event = now_.events;
    now_.fold(entry);
    log_.push_back(std::move(entry));
#ifdef CASTRA_CHECK_INVARIANTS
    if (auto broken = G::check(now_.state)) {
      invariant_broken(G::kName, dice_.match_id, log_.size() - 1, *broken);
    }
#endif
    if (log_.size() % kCheckpointEvery == 0) checkpoints_.push_back(now_);
  }

  DiceInputs dice_;
  Bytes32 commitment_{};
  typename G::Scenario scenario_{};
  std::string version_;
  Position<G> now_;
  std::vector<Position<G>> checkpoints_;  // [k]: after k * kCheckpointEvery entries
  std::vector<Entry<G>> log_;
  bool seated_[2] = {false, false};
  std::vector<int> forced_;
};

}  // namespace castra::match
