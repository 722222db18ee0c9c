// Brain: counts the picks of each phase and hands the choice to the rule set's half.
#include "common/bot/brain.hpp"

#include <string>

#include "common/bot/rng.hpp"
#include "common/bot/think.hpp"

namespace castra::bot {
namespace {

// Picks in one phase after which the brain ends it at the first chance. Far above what a
// phase needs (an Optio unit acts once a phase, a STAND! figure moves once a turn), so it
// only ever cuts short the random player's turning and re-posturing.
constexpr int kPhasePickCap = 120;

std::string phase_key(const v1::Snapshot& view, rules::Side side) {
  return view.match_id() + '/' + std::to_string(view.turn()) + '/' + view.phase() + '/' +
         std::to_string(rules::index(side));
}

}  // namespace

struct Brain::Impl {
  Strength strength;
  Rng rng;
  std::string key;
  int picks_in_phase = 0;
};

std::optional<Strength> strength_from_name(std::string_view name) {
  if (name == "random") return Strength::kRandom;
  if (name == "greedy") return Strength::kGreedy;
  return std::nullopt;
}

std::string_view strength_name(Strength s) {
  return s == Strength::kGreedy ? "greedy" : "random";
}

Brain::Brain(Strength strength, std::uint64_t seed)
    : impl_(std::make_unique<Impl>(Impl{strength, Rng(seed), {}, 0})) {}
Brain::~Brain() = default;
Brain::Brain(Brain&&) noexcept = default;
Brain& Brain::operator=(Brain&&) noexcept = default;

Strength Brain::strength() const {
  return impl_->strength;
}

std::optional<v1::GameCommand> Brain::pick(const v1::Snapshot& view, const v1::GameLegal& legal,
                                           rules::Side side) {
  std::string key = phase_key(view, side);
  if (key == impl_->key) {
    ++impl_->picks_in_phase;
  } else {
    impl_->key = std::move(key);
    impl_->picks_in_phase = 0;
  }
  detail::Turn turn{impl_->strength, impl_->rng, impl_->picks_in_phase >= kPhasePickCap};
  if (legal.has_optio() && view.state().has_optio()) {
    return detail::think_optio(view.state().optio(), legal.optio(), side, turn);
  }
  if (legal.has_stand() && view.state().has_stand()) {
    return detail::think_stand(view.state().stand(), legal.stand(), side, turn);
  }
  return std::nullopt;
}

}  // namespace castra::bot
