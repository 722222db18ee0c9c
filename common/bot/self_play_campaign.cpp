// Plays a campaign's battles one after another, as the server hosts them.
#include "common/bot/self_play_campaign.hpp"

#include <array>
#include <vector>

#include "common/bot/rng.hpp"
#include "common/bot/self_play.hpp"
#include "common/match/crypto.hpp"
#include "common/wire/campaign_play.hpp"

namespace castra::bot {

namespace {

using rules::Side;

match::Bytes32 bytes32(Rng& rng) {
  match::Bytes32 out{};
  for (auto& b : out)
    b = static_cast<std::uint8_t>(rng.next());
  return out;
}

std::size_t at(Side s) {
  return static_cast<std::size_t>(rules::index(s));
}

// The side's selection sealed: a battle of selection limit 0 takes the whole roster, and
// nothing is sealed.
rules::Checked<v1::SealedSelection> seal(const CampaignSetup& setup, const v1::BattleNode& node,
                                         Side side, const v1::Roster& roster, Rng& rng) {
  v1::SealedSelection out;
  if (node.selection_limit() == 0) {
    *out.mutable_selection() = wire::whole_roster(roster);
    return out;
  }
  if (setup.select) {
    *out.mutable_selection() = setup.select(side, node, roster);
    if (auto bad = wire::check_selection(setup.definition, node, roster, out.selection())) {
      return *bad;
    }
  } else {
    *out.mutable_selection() = wire::default_selection(node, roster);
    out.set_defaulted(true);
  }
  const match::Bytes32 salt = bytes32(rng);
  out.set_salt(match::to_hex(salt));
  out.set_commitment(match::to_hex(
      wire::selection_commitment(setup.campaign_id, node.id(), side, out.selection(), salt)));
  return out;
}

}  // namespace

rules::Checked<v1::CampaignRecord> play_campaign(const CampaignSetup& setup) {
  const v1::CampaignDefinition& def = setup.definition;
  Rng rng(setup.seed);
  v1::CampaignRecord record;
  record.set_format("castra-campaign-record/1");
  record.set_campaign_id(setup.campaign_id);
  *record.mutable_definition() = def;
  std::array<v1::Roster, 2> rosters = {def.side_a(), def.side_b()};
  std::vector<v1::Outcome> results;
  const v1::BattleNode* node = wire::find_battle(def, def.first_battle());
  while (node != nullptr) {
    v1::CampaignBattleRecord& b = *record.add_battles();
    b.set_node(node->id());
    std::array<v1::Roster, 2> before;
    std::array<v1::SealedSelection, 2> sealed;
    for (Side side : {Side::kA, Side::kB}) {
      before[at(side)] = wire::arrive(def, *node, side, rosters[at(side)]);
      auto s = seal(setup, *node, side, before[at(side)], rng);
      if (!s) return s.error();
      sealed[at(side)] = std::move(*s);
    }
    *b.mutable_roster_a_before() = before[0];
    *b.mutable_roster_b_before() = before[1];
    *b.mutable_selection_a() = sealed[0];
    *b.mutable_selection_b() = sealed[1];
    auto scenario = wire::battle_scenario(def, *node, before[0], before[1], sealed[0].selection(),
                                          sealed[1].selection());
    if (!scenario) return scenario.error();
    Brain brain_a(setup.strength, rng.next());
    Brain brain_b(setup.strength, rng.next());
    auto game = play_game({*scenario, rng.next(), setup.max_commands, true}, brain_a, brain_b);
    if (!game) return game.error();
    if (!game->record) {
      return rules::refuse("campaign.self_play", "battle " + node->id() + " did not end");
    }
    *b.mutable_match() = *game->record;
    for (Side side : {Side::kA, Side::kB}) {
      auto after = wire::carry_over(def, side, before[at(side)], sealed[at(side)].selection(),
                                    *game->record);
      if (!after) return after.error();
      rosters[at(side)] = std::move(*after);
    }
    *b.mutable_roster_a_after() = rosters[0];
    *b.mutable_roster_b_after() = rosters[1];
    const v1::Outcome& result = game->record->outcome();
    results.push_back(result);
    if (wire::campaign_ends(def, *node, result, rosters[0], rosters[1])) break;
    node = wire::find_battle(def, wire::next_battle(*node, result));
  }
  record.set_finished(true);
  *record.mutable_outcome() = wire::campaign_outcome(def, results);
  return record;
}

}  // namespace castra::bot
