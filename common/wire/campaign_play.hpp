// Campaigns at the level of the wire types (proto/castra/v1/campaign.proto): what the server,
// castra-sim and the tests call. Each function decodes with common/wire/campaign_codec.hpp,
// calls the pure model of common/campaign/ and encodes the answer; the rules themselves are
// there and in docs/rules/campaigns.md. No I/O; pure functions, any thread.
// The functions that answer no RuleError expect what the others produce (a checked definition,
// rosters from arrive and carry_over); given a roster or node that does not decode, they answer
// as if nothing could be fielded (an empty selection, false, the roster unchanged).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/campaign.pb.h"

namespace castra::wire {

// A definition file (castra.v1.CampaignFile in protobuf's JSON mapping) read and checked.
rules::Checked<v1::CampaignDefinition> parse_campaign(std::string_view json);
// Nothing when the definition is sound, else the first rule it breaks ("campaign.definition").
std::optional<rules::RuleError> check_campaign(const v1::CampaignDefinition& definition);

// The battle with this id; nullptr when there is none.
const v1::BattleNode* find_battle(const v1::CampaignDefinition& definition, std::string_view id);

// `side`'s roster once the reinforcements that arrive before `node` have joined it.
v1::Roster arrive(const v1::CampaignDefinition& definition, const v1::BattleNode& node,
                  rules::Side side, v1::Roster roster);

// Nothing when `selection` may fight `node` from `roster`, else the rule it breaks
// ("campaign.selection.*"). A node with selection limit 0 takes whole_roster() only.
std::optional<rules::RuleError> check_selection(const v1::CampaignDefinition& definition,
                                                const v1::BattleNode& node,
                                                const v1::Roster& roster,
                                                const v1::Selection& selection);
// What a side fields when its player misses the selection deadline (limit 0: the whole roster).
v1::Selection default_selection(const v1::BattleNode& node, const v1::Roster& roster);
// Everything the roster can field: what fights a battle of selection limit 0.
v1::Selection whole_roster(const v1::Roster& roster);
// Whether the roster can still field an army (otherwise the campaign ends).
bool can_field(const v1::Roster& roster);

// The scenario of `node` fought by the two fielded parts, as the match is created with it;
// the engine's refusal when it does not accept it.
rules::Checked<v1::ScenarioFile> battle_scenario(const v1::CampaignDefinition& definition,
                                                 const v1::BattleNode& node, const v1::Roster& a,
                                                 const v1::Roster& b, const v1::Selection& sel_a,
                                                 const v1::Selection& sel_b);

// `side`'s roster after the battle of `record`, fought with `selection` from `before`.
rules::Checked<v1::Roster> carry_over(const v1::CampaignDefinition& definition, rules::Side side,
                                      const v1::Roster& before, const v1::Selection& selection,
                                      const v1::MatchRecord& record);

// The battle that follows `node` after `result`; "" when the campaign ends there.
std::string next_battle(const v1::BattleNode& node, const v1::Outcome& result);
// Whether the campaign ends after `node` ended with `result`, leaving these rosters: at a
// terminal edge, or when a side cannot field an army even with the next battle's reinforcements.
bool campaign_ends(const v1::CampaignDefinition& definition, const v1::BattleNode& node,
                   const v1::Outcome& result, const v1::Roster& a_after, const v1::Roster& b_after);
// The campaign's outcome from its battles' results in the order fought, as the definition's
// decided_by says.
v1::Outcome campaign_outcome(const v1::CampaignDefinition& definition,
                             const std::vector<v1::Outcome>& battle_results);

// The commitment published when a selection is sealed (docs/formats.md, "Selection
// commitments"); `salt` is 32 bytes from the CSPRNG, revealed when the battle starts.
match::Bytes32 selection_commitment(std::string_view campaign_id, std::string_view node,
                                    rules::Side side, const v1::Selection& selection,
                                    const match::Bytes32& salt);

// What of `side`'s roster `now` anyone may see, given the battles fought so far (their
// selections and rosters as the server holds them, whole): the units and leaders (Optio) that
// have fought, as they are now, or the figures (STAND!) seen fielded that cannot all have been
// lost since; with how many units or figures are not shown.
struct PublicRoster {
  v1::Roster roster;
  std::uint32_t hidden_units = 0;
  std::uint32_t hidden_figures = 0;
};
PublicRoster public_roster(const v1::Roster& now, rules::Side side,
                           const std::vector<v1::FoughtBattle>& history);

// Checks an exported campaign record end to end (docs/formats.md, "The campaign record"):
// nothing when honest, else the first step that fails, named ("battle 2 (trasimene): side A's
// roster before is not the carry-over of battle 1").
std::optional<std::string> verify_campaign(const v1::CampaignRecord& record);

}  // namespace castra::wire
