// The contract every rule set meets, as a concept. A rule set is a struct of types and
// static functions (castra::rules::optio::Game, castra::rules::stand::Game); the match
// layer wraps it once (common/match/engine.hpp) and nothing else sees the difference.
// Everything here is pure: values in, values out, no clock, no I/O, dice only through Dice.
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/rules/canonical.hpp"
#include "common/rules/types.hpp"

namespace castra::rules {

// What G must provide:
//   kName                 "optio" or "stand".
//   current_version()     the rules-data version new matches get, e.g. "optio-1".
//   ruleset(version)      the rules data of a released version, or nullptr. Every released
//                         version stays loadable, so old matches resume and verify.
//   initial_state(sc, rs) the state before the first command; a malformed scenario is a
//                         RuleError. The state records the rules version it was made with.
//   begin(s, d)           the events that open the game once both players are seated and
//                         their dice entropy is in (STAND!'s roll-off); may be empty.
//   decide(s, side, c, d) checks a side's command against s: the events it produces, or the
//                         rule it breaks. Pure apart from rolls taken from d; never
//                         changes s. Automatic steps that follow (Optio's melee phase, the
//                         end of a turn) are part of the events of the command that leads
//                         to them.
//   apply(s, e)           folds one event into a state: mechanical, no rule logic. Must work
//                         on a projection too: for every e that viewer v may see,
//                         project(apply(s, e), v) == apply(project(s, v), e).
//   visibility(e)         public, private to a side, or sealed (section 3 of the design).
//   sealed_bytes(e)       the canonical bytes of a sealed event's secret content (an orders
//                         card, docs/formats.md); empty for any other event.
//   legal(s, side)        what side may do now, complete enough that a client needs no rules.
//   acting(s)             who has to act now, and the phase's name.
//   outcome(s)            the result once the game is over.
//   project(s, v)         the state with everything v may not see removed; kEveryone's is
//                         s itself.
//   kHidesInformation     whether project() can remove anything. A rule set that hides
//                         nothing (STAND!) has project(s, v) == s for every s and v, so its
//                         callers may read the state itself where they would copy a projection.
//   encode(s, w)          the canonical bytes of s (for state hashes).
//   check(s)              a debug re-check of every invariant; a description of the first
//                         broken one, or nothing.
//   describe(s, e)        the event in words for logs and the client, worked out on s, the
//                         state just before e as its viewer sees it (units by side, type and
//                         number; a fight with the modifiers that made its scores). Reads
//                         only what e's viewer may see; the words are never stored.
// Commands and events compare with ==, so a verifier can check a replay against a record.
template <typename G>
concept RuleSet = std::equality_comparable<typename G::Command> &&
    std::equality_comparable<typename G::Event> &&
    requires(const typename G::State& s, typename G::State& ms, Side side,
             const typename G::Command& c, const typename G::Event& e, Dice& dice, Viewer v,
             const typename G::Scenario& sc, const typename G::Ruleset& rs, ByteWriter& w,
             std::string_view ver) {
  { G::kName } -> std::convertible_to<std::string_view>;
  { G::kHidesInformation } -> std::convertible_to<bool>;
  { G::current_version() } -> std::convertible_to<std::string_view>;
  { G::ruleset(ver) } -> std::same_as<const typename G::Ruleset*>;
  { G::initial_state(sc, rs) } -> std::same_as<Checked<typename G::State>>;
  { G::begin(s, dice) } -> std::same_as<std::vector<typename G::Event>>;
  { G::decide(s, side, c, dice) } -> std::same_as<Checked<std::vector<typename G::Event>>>;
  { G::apply(ms, e) } -> std::same_as<void>;
  { G::visibility(e) } -> std::same_as<Visibility>;
  { G::sealed_bytes(e) } -> std::same_as<std::string>;
  { G::legal(s, side) } -> std::same_as<typename G::Legal>;
  { G::acting(s) } -> std::same_as<Acting>;
  { G::outcome(s) } -> std::same_as<std::optional<Outcome>>;
  { G::project(s, v) } -> std::same_as<typename G::State>;
  { G::encode(s, w) } -> std::same_as<void>;
  { G::check(s) } -> std::same_as<std::optional<std::string>>;
  { G::describe(s, e) } -> std::same_as<std::string>;
};

}  // namespace castra::rules
