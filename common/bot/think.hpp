// The brain's two halves, one per rule set, behind Brain::pick (brain.cpp). Each decodes the
// projected state it was sent, rebuilds the side's legal list from it with the pure engine
// (and gives up if that differs from the list it was sent), and chooses among the concrete
// commands that list allows. Internal to castra_bot; same threading as Brain.
#pragma once

#include <optional>

#include "common/bot/brain.hpp"
#include "common/bot/rng.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::bot::detail {

struct Turn {
  Strength strength = Strength::kRandom;
  Rng& rng;
  // The phase has run long enough (brain.cpp counts its picks): end it when the list allows,
  // so that no game can go round in circles (a STAND! hex turning back and forth).
  bool wind_up = false;
};

std::optional<v1::GameCommand> think_optio(const v1::optio::State& view,
                                           const v1::optio::Legal& legal, rules::Side side,
                                           Turn& turn);
std::optional<v1::GameCommand> think_stand(const v1::stand::State& view,
                                           const v1::stand::Legal& legal, rules::Side side,
                                           Turn& turn);

}  // namespace castra::bot::detail
