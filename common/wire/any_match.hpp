// AnyMatch: one match of either rule set, seen through the wire types of match.proto. The
// server, castra-sim and the tests hold matches only through this interface; make_match()
// and verify_record() are the one place that picks an engine by rule set. No I/O; one owner
// thread at a time (the same rule as Match<G>).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/match/match.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/match.pb.h"
#include "proto/castra/v1/reasons.pb.h"

namespace castra::wire {

using match::Bytes32;
using rules::Checked;
using rules::Outcome;
using rules::RuleError;
using rules::Side;
using rules::Viewer;

// Plain conversions every user of the wire types needs.
inline v1::Side side_to_proto(Side s) {
  return s == Side::kA ? v1::SIDE_A : v1::SIDE_B;
}
inline Side side_from_proto(v1::Side s) {
  return s == v1::SIDE_B ? Side::kB : Side::kA;
}

inline void outcome_to_proto(const Outcome& o, v1::Outcome* out) {
  out->set_kind(static_cast<v1::Outcome::Kind>(static_cast<int>(o.kind)));
  out->set_reason(o.reason);
}
inline Outcome outcome_from_proto(const v1::Outcome& o) {
  Outcome out;
  out.kind = static_cast<Outcome::Kind>(std::clamp(static_cast<int>(o.kind()), 0, 2));
  out.reason = o.reason();
  return out;
}

// The salt of one sealed event, kept apart from the entry (storage's match_seal_salts).
struct SealSalt {
  std::uint32_t event_index = 0;
  Bytes32 salt{};
};

class AnyMatch {
 public:
  virtual ~AnyMatch() = default;

  virtual std::string ruleset() const = 0;
  virtual const std::string& id() const = 0;
  virtual const std::string& rules_version() const = 0;
  virtual const v1::ScenarioFile& scenario() const = 0;
  virtual Bytes32 dice_commitment() const = 0;
  virtual const match::DiceInputs& secrets() const = 0;  // for storage only

  virtual std::optional<RuleError> seat(Side side, std::string entropy) = 0;
  virtual bool seated(Side side) const = 0;
  // The command, checked by the rules; on success the index of its log entry.
  virtual Checked<std::size_t> submit(Side side, const v1::GameCommand& command,
                                      const Bytes32& command_salt) = 0;
  virtual std::optional<RuleError> end(match::EndReason reason, Side side, Outcome outcome) = 0;
  virtual void force_rolls(std::vector<int> faces) = 0;

  virtual rules::Acting acting() const = 0;
  virtual std::optional<Outcome> outcome() const = 0;
  virtual std::size_t entry_count() const = 0;
  virtual std::uint64_t event_count() const = 0;

  // What viewer v may see: events numbered `from` or later, and the whole picture now.
  virtual std::vector<v1::ViewEvent> events_for(Viewer v, std::uint64_t from) const = 0;
  virtual v1::Snapshot snapshot(Viewer v) const = 0;
  // What v saw after the first `entries` log entries: the fields snapshot() fills, as they
  // were then (projected for v as then: a spectator's past before the end hides what was
  // hidden then). Folded from the nearest checkpoint by applying logged events, nothing
  // re-decided, so its cost is bounded by match::kCheckpointEvery entries, not by the log.
  // A count past the log is a RuleError ("match.entry").
  virtual Checked<v1::Snapshot> snapshot_after(std::size_t entries, Viewer v) const = 0;
  // The same after the first `events` events (a replay's single step, inside an entry too;
  // match::Match::position_after_events). A count past the log is a RuleError ("match.event").
  virtual Checked<v1::Snapshot> snapshot_after_events(std::uint64_t events, Viewer v) const = 0;
  // What `side` may do now (sent only to that side).
  virtual v1::GameLegal legal(Side side) const = 0;
  // Why `side`'s piece cannot act, and Optio's command view, on `side`'s own projection
  // (sent only to that side).
  virtual v1::PieceReasons reasons(Side side, const v1::Piece& piece) const = 0;
  // Log entry i as stored (no salts) and its salts (stored apart, secret until the end).
  virtual v1::LogEntry log_entry(std::size_t i) const = 0;
  virtual std::vector<SealSalt> salts(std::size_t i) const = 0;
  // Re-decides a stored entry as entry number entry_count() and checks it matches; then
  // adopts its salts. For start-up recovery and reconnect from storage.
  virtual std::optional<std::string> replay(const v1::LogEntry& entry,
                                            const std::vector<SealSalt>& salts) = 0;
  // Takes a stored entry as entry number entry_count(), as a fact, without re-deciding it:
  // its events applied, the dice stream moved past its rolls, its seals kept with these
  // salts, exactly as replay() leaves them for an honest entry. Only its form and place are
  // checked (nothing when it fits, else why not): recovery adopts up to its latest stored
  // snapshot, calls check_hash there and replays the entries after it. The opening entry,
  // which seating re-made, is checked in place as replay() does.
  virtual std::optional<std::string> adopt(const v1::LogEntry& entry,
                                           const std::vector<SealSalt>& salts) = 0;
  // The full state hash (published at the end) and a debug check of every invariant.
  virtual Bytes32 full_state_hash() const = 0;
  virtual std::optional<std::string> check() const = 0;
  // Nothing when the full state hash is `expected` (a stored snapshot's); else both, in words.
  std::optional<std::string> check_hash(const Bytes32& expected) const {
    const Bytes32 got = full_state_hash();
    if (got == expected) return std::nullopt;
    return "the state after " + std::to_string(entry_count()) + " log entries hashes to " +
           match::to_hex(got) + ", not to its stored " + match::to_hex(expected);
  }
  // A full re-decide of the whole log from the scenario and the secrets: nothing when every
  // entry replays as stored and gives this state and outcome, else the first bad step. What
  // detects a log that does not replay, adopted entries included. A match whose rolls were
  // forced (force_rolls) fails, by design. Costs the whole log.
  virtual std::optional<std::string> verify_from_start() const = 0;
  // The same check as a job that holds its own copy of the log and secrets, so it may run on
  // any thread while this match plays on (the audit in the background after start-up).
  virtual std::function<std::optional<std::string>()> verifier() const = 0;
  // The exported record; nullopt before the end.
  virtual std::optional<v1::MatchRecord> record() const = 0;
};

struct MatchSetup {
  std::string match_id;
  v1::ScenarioFile scenario;
  std::string rules_version;  // empty: the rule set's current version
  Bytes32 server_seed{};      // from the OS CSPRNG (the caller's job: common does no I/O)
};

// A new match for the scenario's rule set, or the rule the scenario breaks.
Checked<std::unique_ptr<AnyMatch>> make_match(const MatchSetup& setup);

// Replays an exported record from scratch; nothing when honest, else the first bad step.
std::optional<std::string> verify_record(const v1::MatchRecord& record);

// The rules version new matches of `ruleset` ("optio", "stand") get, as its engine says;
// nullopt for a rule set this build does not know.
std::optional<std::string> current_rules_version(std::string_view ruleset);

}  // namespace castra::wire
