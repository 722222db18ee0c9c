// The debug re-check of a match's state (as Stockfish's pos_is_ok): in Debug and sanitizer
// builds (CASTRA_CHECK_INVARIANTS, set by cmake/castra.cmake) Match<G> runs G::check on its
// state after every entry it appends, whoever appends it (the server's match actor, a
// replay, castra-sim, a bot, a fuzzer), and a broken invariant stops the process there, at
// the entry that broke it, with its description. The macro, not a constant, switches it, so
// that a test program may turn it on for its own instantiations alone
// (tests/match/invariants_test.cpp). Any thread.
#pragma once

#include <cstddef>
#include <string_view>

namespace castra::match {

// Writes which match, which entry and which invariant to stderr, then aborts: a bug in the
// rules is an assertion, never a value (docs/reliability.md).
[[noreturn]] void invariant_broken(std::string_view rule_set, std::string_view match_id,
                                   std::size_t entry, std::string_view what);

}  // namespace castra::match
