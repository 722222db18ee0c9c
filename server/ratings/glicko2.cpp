#include "server/ratings/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace castra::ratings {

namespace {

// Glicko-2 works on its own scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178.
constexpr double kScale = 173.7178;
constexpr double kBase = 1500.0;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5 of the paper: the new volatility, the root of f by the Illinois algorithm.
double new_volatility(double phi, double sigma, double v, double delta, const Params& p) {
  const double a = std::log(sigma * sigma);
  const double tau2 = p.tau * p.tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2;
  };
  double lo = a;
  double hi = 0.0;
  if (delta * delta > phi * phi + v) {
    hi = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * p.tau) < 0.0)
      ++k;
    hi = a - k * p.tau;
  }
  double f_lo = f(lo);
  double f_hi = f(hi);
  while (std::abs(hi - lo) > p.epsilon) {
    const double c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
    const double f_c = f(c);
    if (f_c * f_hi <= 0.0) {
      lo = hi;
      f_lo = f_hi;
    } else {
      f_lo /= 2.0;
    }
    hi = c;
    f_hi = f_c;
  }
  return std::min(std::exp(lo / 2.0), p.max_volatility);
}

}  // namespace

Rating update(const Rating& player, const std::vector<Game>& games, const Params& params) {
  const double mu = (player.rating - kBase) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  auto bounded = [&](double phi_new) {
    return std::clamp(phi_new * kScale, params.min_deviation, params.max_deviation);
  };
  if (games.empty()) {
    return Rating{player.rating, bounded(std::sqrt(phi * phi + sigma * sigma)), sigma};
  }
  double inv_v = 0.0;
  double sum = 0.0;  // sum of g(phi_j) (s_j - E_j)
  for (const Game& game : games) {
    const double mu_j = (game.opponent.rating - kBase) / kScale;
    const double phi_j = game.opponent.deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    inv_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
    sum += g(phi_j) * (game.score - e);
  }
  const double v = 1.0 / inv_v;
  const double sigma_new = new_volatility(phi, sigma, v, v * sum, params);
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * sum;
  return Rating{kBase + kScale * mu_new, bounded(phi_new), sigma_new};
}

}  // namespace castra::ratings
