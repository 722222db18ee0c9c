// best_of: the option a score rates highest, the first of equals (so a stable order of options
// gives a stable choice). The greedy strength's one way of choosing, for both rule sets.
// Pure; any thread.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace castra::bot::detail {

template <class Option, class Score>
Option best_of(const std::vector<Option>& options, Score score) {
  std::size_t best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < options.size(); ++i) {
    const double v = score(options[i]);
    if (v > best_score) {
      best_score = v;
      best = i;
    }
  }
  return options[best];
}

}  // namespace castra::bot::detail
