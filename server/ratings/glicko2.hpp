// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation
// (RD) and its volatility, updated from the games of one rating period. Pure arithmetic: no
// clock, no storage (server/ratings/rating_store.hpp keeps the numbers). Any thread.
#pragma once

#include <vector>

namespace castra::ratings {

// A new player's: Lichess starts everyone at 1500 with the largest RD it allows.
struct Rating {
  double rating = 1500.0;
  double deviation = 500.0;  // RD, on the Glicko scale
  double volatility = 0.09;
};

// One game of the period against an opponent as he stood before it.
struct Game {
  Rating opponent;
  double score = 0.0;  // 1 win, 0.5 draw, 0 loss
};

struct Params {
  double tau = 0.75;             // how fast volatility may change (Lichess's choice)
  double min_deviation = 45.0;   // Lichess bounds RD so that ratings never freeze ...
  double max_deviation = 500.0;  // ... nor run wild
  double max_volatility = 0.1;   // Lichess's bound too
  double epsilon = 1e-6;         // the volatility iteration's convergence tolerance
};

// The player's rating after a period with `games`; with none, only his RD grows (the paper's
// step for a player who did not compete). The deviation is kept within the bounds of
// `params`.
Rating update(const Rating& player, const std::vector<Game>& games, const Params& params = {});

// Lichess shows a rating with "?" while its RD is above this: too few games to trust it.
constexpr double kProvisionalDeviation = 110.0;
inline bool provisional(const Rating& r) {
  return r.deviation > kProvisionalDeviation;
}

}  // namespace castra::ratings
