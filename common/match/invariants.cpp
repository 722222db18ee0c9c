#include "common/match/invariants.hpp"

#include <cstdio>
#include <cstdlib>

namespace castra::match {

void invariant_broken(std::string_view rule_set, std::string_view match_id, std::size_t entry,
                      std::string_view what) {
  std::fprintf(stderr, "castra: %.*s match %.*s: after log entry %zu, check() fails: %.*s\n",
               static_cast<int>(rule_set.size()), rule_set.data(),
               static_cast<int>(match_id.size()), match_id.data(), entry,
               static_cast<int>(what.size()), what.data());
  std::abort();
}

}  // namespace castra::match
