// How many random games a property test plays: all of them in the plain build, a tenth in the
// sanitized pass (`tools/dev sanitize`). There a step costs ten to twenty times as much
// (instrumentation, -O0, check() after every entry), and what the pass looks for, a bad access
// or undefined behaviour, is met by the same moves in fewer games; the plain build's full count
// keeps the property's statistical reach (docs/reliability.md, "The sanitized pass").
#pragma once

namespace castra::testing {

constexpr int games_in_this_build(int plain) {
#ifdef CASTRA_SANITIZED
  return plain / 10 > 0 ? plain / 10 : 1;
#else
  return plain;
#endif
}

}  // namespace castra::testing
