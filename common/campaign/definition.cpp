#include "common/campaign/definition.hpp"

#include <algorithm>

namespace castra::campaign {

std::string_view game_name(Game g) {
  return g == Game::kOptio ? "optio" : "stand";
}

const BattleNode* Definition::battle(std::string_view id) const {
  auto it =
      std::find_if(battles.begin(), battles.end(), [&](const BattleNode& b) { return b.id == id; });
  return it == battles.end() ? nullptr : &*it;
}

}  // namespace castra::campaign
