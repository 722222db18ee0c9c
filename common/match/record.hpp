// Record<G>: everything about a finished match that anyone may check: the scenario, the rules
// version, the dice commitment and the revealed seed and entropy, every entry with its
// events, rolls and seals (salts revealed), the outcome and the final state hash.
// verify() replays it from scratch and names the first step that does not match.
// Also how a stored log goes back into a match: replay_entry re-decides an entry,
// adopt_entry takes it as a fact, verify_from_start re-decides a whole match in play.
// Pure; any thread. Its JSON form is castra.v1.MatchRecord (docs/formats.md 5).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/match/match.hpp"

namespace castra::match {

template <typename G>
struct Record {
  std::string match_id;
  std::string rules_version;
  typename G::Scenario scenario;
  Bytes32 dice_commitment{};
  Bytes32 server_seed{};
  std::string entropy_a;
  std::string entropy_b;
  std::vector<Entry<G>> entries;
  std::optional<Outcome> outcome;
  Bytes32 final_state_hash{};
};

// What verify() needs of a match in play or over, its secrets included: the server's own
// audit of a log (never published: before the end the secrets are the server's alone).
template <rules::RuleSet G>
Record<G> audit_record_of(const Match<G>& m) {
  Record<G> r;
  r.match_id = m.id();
  r.rules_version = m.rules_version();
  r.scenario = m.scenario();
  r.dice_commitment = m.dice_commitment_value();
  r.server_seed = m.dice_inputs().server_seed;
  r.entropy_a = m.dice_inputs().entropy_a;
  r.entropy_b = m.dice_inputs().entropy_b;
  r.entries = m.log();
  r.outcome = m.outcome();
  r.final_state_hash = m.full_state_hash();
  return r;
}

// The record of a match that has ended; nullopt before the end (its secrets are not yet
// revealed).
template <rules::RuleSet G>
std::optional<Record<G>> record_of(const Match<G>& m) {
  if (!m.reveal()) return std::nullopt;
  return audit_record_of(m);
}

namespace detail {
inline std::string step_name(std::size_t i, EntryKind kind, Side side) {
  std::string s = "entry " + std::to_string(i) + " (";
  switch (kind) {
    case EntryKind::kStart:
      s += "opening";
      break;
    case EntryKind::kCommand:
      s += std::string("side ") + rules::side_letter(side) + " command";
      break;
    case EntryKind::kEnd:
      s += "end";
      break;
  }
  return s + ")";
}
}  // namespace detail

// Re-decides one recorded entry on `m` (whose log holds exactly the entries before it) and
// checks that it gives the recorded rolls, events and seals. Nothing when it matches;
// otherwise what differs, in words. Used by verify() and by the server's start-up recovery.
template <rules::RuleSet G>
std::optional<std::string> replay_entry(Match<G>& m, const Entry<G>& rec, std::size_t i) {
  const std::string step = detail::step_name(i, rec.kind, rec.side);
  for (const Seal& seal : rec.seals) {
    if (seal.event_index >= rec.events.size()) return step + ": a seal names no event";
    if (sealed_commitment(seal.salt, G::sealed_bytes(rec.events[seal.event_index])) !=
        seal.commitment) {
      return step + ": sealed event " + std::to_string(seal.event_index) +
             " does not match its published commitment";
    }
  }
  if (rec.kind == EntryKind::kEnd) {
    if (!rec.outcome) return step + ": an end without an outcome";
    if (auto err = m.end(rec.end_reason, rec.side, *rec.outcome)) return step + ": " + err->message;
    return std::nullopt;
  }
  if (rec.kind == EntryKind::kCommand) {
    if (!rec.command) return step + ": a command entry without its command";
    auto done = m.submit(rec.side, *rec.command, Bytes32{});
    if (!done) return step + ": the command is refused: " + done.error().message;
  } else if (i != 0) {
    return step + ": an opening entry after the first";
  }
  if (m.log().size() != i + 1) return step + ": the replay has no such entry";
  const Entry<G>& got = m.log()[i];
  if (got.kind != rec.kind) return step + ": the replay opens differently";
  for (std::size_t k = 0; k < std::max(got.rolls.size(), rec.rolls.size()); ++k) {
    if (k >= got.rolls.size() || k >= rec.rolls.size()) {
      return step + ": the record has " + std::to_string(rec.rolls.size()) + " rolls, the replay " +
             std::to_string(got.rolls.size());
    }
    if (got.rolls[k] != rec.rolls[k]) {
      return step + ": roll " + std::to_string(rec.rolls[k].number) + " is recorded as " +
             std::to_string(rec.rolls[k].face) + ", the seed gives " +
             std::to_string(got.rolls[k].face);
    }
  }
  for (std::size_t k = 0; k < std::max(got.events.size(), rec.events.size()); ++k) {
    if (k >= got.events.size() || k >= rec.events.size()) {
      return step + ": the record has " + std::to_string(rec.events.size()) +
             " events, the replay " + std::to_string(got.events.size());
    }
    if (!(got.events[k] == rec.events[k])) {
      // Both are told on the state the replay had just before them.
      typename G::State before = m.position_after(i)->state;
      for (std::size_t j = 0; j < k; ++j)
        G::apply(before, got.events[j]);
      return step + ": event " + std::to_string(k) + " is recorded as \"" +
             G::describe(before, rec.events[k]) + "\", the replay gives \"" +
             G::describe(before, got.events[k]) + "\"";
    }
  }
  if (got.seals.size() != rec.seals.size()) {
    return step + ": the record seals " + std::to_string(rec.seals.size()) +
           " events, the rules seal " + std::to_string(got.seals.size());
  }
  for (std::size_t k = 0; k < got.seals.size(); ++k) {
    if (got.seals[k].event_index != rec.seals[k].event_index) {
      return step + ": a sealed event is recorded in the wrong place";
    }
  }
  m.adopt_seals(i, rec.seals);
  return std::nullopt;
}

// Takes a stored entry as entry number i of `m` (whose log holds exactly the entries before
// it) without re-deciding it: its events are applied and its rolls and seals kept as stored
// (Match::adopt). Only its form and place are checked here: the caller checks the full state
// hash where a stored snapshot has one, and verify_from_start re-decides it all. The opening
// entry, which seating re-made, is checked in place as replay_entry does. Nothing when it
// fits; otherwise why not, in words.
template <rules::RuleSet G>
std::optional<std::string> adopt_entry(Match<G>& m, Entry<G> rec, std::size_t i) {
  if (rec.kind == EntryKind::kStart) return replay_entry(m, rec, i);
  const std::string step = detail::step_name(i, rec.kind, rec.side);
  if (m.log().size() != i) {
    return step + ": the match has " + std::to_string(m.log().size()) + " entries before it";
  }
  if (auto o = m.outcome()) return step + ": the match is already over: " + o->reason;
  if (rec.kind == EntryKind::kCommand && !rec.command) {
    return step + ": a command entry without its command";
  }
  if (rec.kind == EntryKind::kCommand && !m.started()) return step + ": the match has not started";
  if (rec.kind == EntryKind::kEnd && (!rec.outcome || !rec.events.empty() || !rec.rolls.empty())) {
    return step + ": an end must have an outcome and no events or rolls";
  }
  if (rec.first_event != m.event_count()) {
    return step + ": its first event is numbered " + std::to_string(rec.first_event) +
           ", the log is at " + std::to_string(m.event_count());
  }
  for (std::size_t k = 0; k < rec.rolls.size(); ++k) {
    if (rec.rolls[k].number != m.roll_count() + k) {
      return step + ": roll " + std::to_string(k) + " is numbered " +
             std::to_string(rec.rolls[k].number) + ", the dice are at " +
             std::to_string(m.roll_count() + k);
    }
  }
  for (const Seal& seal : rec.seals) {
    if (seal.event_index >= rec.events.size()) return step + ": a seal names no event";
  }
  m.adopt(std::move(rec));
  return std::nullopt;
}

// Re-validates every command, recomputes every roll from the revealed seed, checks every
// commitment, every event, the outcome and the final hash. Nothing when the record is honest;
// otherwise the first step that does not match, in words.
template <rules::RuleSet G>
std::optional<std::string> verify(const Record<G>& r) {
  if (dice_commitment(r.server_seed) != r.dice_commitment) {
    return "dice: the revealed seed does not match the published dice commitment";
  }
  auto created = Match<G>::create({r.match_id, r.scenario, r.rules_version, r.server_seed});
  if (!created) return "setup: " + created.error().message;
  Match<G> m = std::move(*created);
  // The opening entry is made when the second seat is taken; a match that ended before
  // both were seated has none.
  if (!r.entries.empty() && r.entries.front().kind == EntryKind::kStart) {
    m.seat(Side::kA, r.entropy_a);
    m.seat(Side::kB, r.entropy_b);
  }
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    if (auto err = replay_entry(m, r.entries[i], i)) return err;
  }
  if (m.log().size() != r.entries.size()) return "the replay has more entries than the record";
  if (m.outcome() != r.outcome) return "outcome: the record's outcome is not the replay's";
  if (m.full_state_hash() != r.final_state_hash) {
    return "final state: the recorded hash " + to_hex(r.final_state_hash) +
           " is not the replay's " + to_hex(m.full_state_hash());
  }
  return std::nullopt;
}

// A full re-decide of the whole log of `m` from its scenario and secrets: what detects a log
// that does not replay (entries adopted as facts included). Nothing when every entry, roll,
// seal, the outcome and the state agree; otherwise the first step that does not. A match
// whose rolls were forced (Match::force_rolls) fails, by design.
template <rules::RuleSet G>
std::optional<std::string> verify_from_start(const Match<G>& m) {
  return verify(audit_record_of(m));
}

}  // namespace castra::match
