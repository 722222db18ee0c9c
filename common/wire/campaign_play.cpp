#include "common/wire/campaign_play.hpp"

#include <google/protobuf/util/json_util.h>

#include <array>
#include <utility>

#include "common/campaign/army.hpp"
#include "common/campaign/battle.hpp"
#include "common/campaign/carry_over.hpp"
#include "common/campaign/check.hpp"
#include "common/campaign/commitment.hpp"
#include "common/campaign/progress.hpp"
#include "common/campaign/public_view.hpp"
#include "common/campaign/selection.hpp"
#include "common/rules/optio/ruleset.hpp"
#include "common/wire/any_match.hpp"
#include "common/wire/campaign_codec.hpp"
#include "common/wire/optio_codec.hpp"
#include "common/wire/stand_codec.hpp"

namespace castra::wire {

namespace {

namespace cd = castra::campaign;
namespace cc = castra::wire::campaign;
using rules::RuleError;

std::size_t at(Side s) {
  return static_cast<std::size_t>(rules::index(s));
}

std::string side_text(Side s) {
  return std::string("side ") + rules::side_letter(s);
}

// A roster of the definition's rule set, decoded; the form error otherwise.
Checked<cd::Roster> roster_of(const v1::CampaignDefinition& def, const v1::Roster& p) {
  const bool optio = def.ruleset() == "optio";
  if (optio ? !p.has_optio() : !p.has_stand()) {
    return rules::refuse("campaign.form",
                         "the roster is not of the campaign's rule set, " + def.ruleset());
  }
  return cc::to_domain(p);
}

// The events of a finished match, decoded for the carry-over.
template <typename Event, typename Decode>
Checked<std::vector<Event>> events_of(const v1::MatchRecord& record, Decode decode) {
  std::vector<Event> out;
  for (const v1::LogEntry& entry : record.entries()) {
    for (const v1::GameEvent& e : entry.events()) {
      auto d = decode(e);
      if (!d) return d.error();
      out.push_back(std::move(*d));
    }
  }
  return out;
}

Checked<cd::Roster> carried(const cd::Definition& d, Side side, const cd::Roster& before,
                            const cd::Selection& fielded, const v1::MatchRecord& record) {
  auto bad_event = [] { return rules::refuse("campaign.form", "an event of another rule set"); };
  if (d.game == cd::Game::kOptio) {
    const rules::optio::Ruleset* rs = rules::optio::find_ruleset(record.rules_version());
    if (rs == nullptr) {
      return rules::refuse("campaign.form", "unknown rules version " + record.rules_version());
    }
    auto events = events_of<rules::optio::Event>(
        record, [&](const v1::GameEvent& e) -> Checked<rules::optio::Event> {
          if (!e.has_optio()) return bad_event();
          return optio::to_domain(e.optio());
        });
    if (!events) return events.error();
    return cd::carry_over(d.optio, *rs, before, fielded, *events);
  }
  auto events = events_of<rules::stand::Event>(
      record, [&](const v1::GameEvent& e) -> Checked<rules::stand::Event> {
        if (!e.has_stand()) return bad_event();
        return stand::to_domain(e.stand());
      });
  if (!events) return events.error();
  return cd::carry_over(side, before, fielded, *events);
}

v1::ScenarioFile scenario_to_proto(const cd::Map& map, const v1::ScenarioFile& node_map) {
  v1::ScenarioFile out;
  if (const auto* o = std::get_if<rules::optio::Scenario>(&map)) {
    *out.mutable_optio() = optio::to_proto(*o);
    return out;
  }
  // The domain value has no description (the engine ignores it): the map's is kept.
  *out.mutable_stand() = stand::to_proto(std::get<rules::stand::Scenario>(map));
  out.mutable_stand()->set_description(node_map.stand().description());
  return out;
}

// Why a sealed selection is not what `side` could field at `node` from `roster`, or nothing.
std::optional<std::string> sealed_problem(std::string_view campaign_id, const cd::BattleNode& node,
                                          Side side, const cd::Roster& roster,
                                          const v1::SealedSelection& sealed) {
  const cd::Selection s = cc::to_domain(sealed.selection());
  const bool needs_seal = node.selection_limit > 0;
  if (needs_seal || !sealed.commitment().empty()) {
    auto commitment = match::bytes32_from_hex(sealed.commitment());
    auto salt = match::bytes32_from_hex(sealed.salt());
    if (!commitment || !salt) return "has no commitment and salt of 64 hex digits";
    if (cd::selection_commitment(campaign_id, node.id, side, s, *salt) != *commitment) {
      return "does not match its commitment";
    }
  }
  if (sealed.defaulted()) {
    if (cd::normalized(s) != cd::normalized(cd::default_selection(node, roster))) {
      return "is marked as the default but is not the default selection";
    }
    return std::nullopt;
  }
  if (auto bad = cd::check_selection(node, roster, s)) {
    return "breaks a rule: " + bad->message + " (" + bad->rule + ")";
  }
  return std::nullopt;
}

const v1::Roster& before_of(const v1::CampaignBattleRecord& b, Side s) {
  return s == Side::kA ? b.roster_a_before() : b.roster_b_before();
}
const v1::Roster& after_of(const v1::CampaignBattleRecord& b, Side s) {
  return s == Side::kA ? b.roster_a_after() : b.roster_b_after();
}
const v1::SealedSelection& sealed_of(const v1::CampaignBattleRecord& b, Side s) {
  return s == Side::kA ? b.selection_a() : b.selection_b();
}

}  // namespace

Checked<v1::CampaignDefinition> parse_campaign(std::string_view json) {
  v1::CampaignFile file;
  const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &file);
  if (!status.ok()) {
    return rules::refuse("campaign.form",
                         "not a castra.v1.CampaignFile in JSON: " + status.ToString());
  }
  if (auto bad = check_campaign(file.campaign())) return *bad;
  return std::move(*file.mutable_campaign());
}

std::optional<RuleError> check_campaign(const v1::CampaignDefinition& definition) {
  auto d = cc::to_domain(definition);
  if (!d) return d.error();
  return cd::check_definition(*d);
}

const v1::BattleNode* find_battle(const v1::CampaignDefinition& definition, std::string_view id) {
  for (const v1::BattleNode& b : definition.battles()) {
    if (b.id() == id) return &b;
  }
  return nullptr;
}

v1::Roster arrive(const v1::CampaignDefinition& definition, const v1::BattleNode& node, Side side,
                  v1::Roster roster) {
  auto n = cc::to_domain(node);
  auto r = roster_of(definition, roster);
  if (!n || !r) return roster;
  return cc::to_proto(cd::arrive(*n, side, std::move(*r)));
}

std::optional<RuleError> check_selection(const v1::CampaignDefinition& definition,
                                         const v1::BattleNode& node, const v1::Roster& roster,
                                         const v1::Selection& selection) {
  auto n = cc::to_domain(node);
  if (!n) return n.error();
  auto r = roster_of(definition, roster);
  if (!r) return r.error();
  return cd::check_selection(*n, *r, cc::to_domain(selection));
}

v1::Selection default_selection(const v1::BattleNode& node, const v1::Roster& roster) {
  auto n = cc::to_domain(node);
  auto r = cc::to_domain(roster);
  if (!n || !r) return {};
  return cc::to_proto(cd::default_selection(*n, *r));
}

v1::Selection whole_roster(const v1::Roster& roster) {
  auto r = cc::to_domain(roster);
  if (!r) return {};
  return cc::to_proto(cd::whole_roster(*r));
}

bool can_field(const v1::Roster& roster) {
  auto r = cc::to_domain(roster);
  return r && cd::can_field(*r);
}

Checked<v1::ScenarioFile> battle_scenario(const v1::CampaignDefinition& definition,
                                          const v1::BattleNode& node, const v1::Roster& a,
                                          const v1::Roster& b, const v1::Selection& sel_a,
                                          const v1::Selection& sel_b) {
  auto n = cc::to_domain(node);
  if (!n) return n.error();
  auto ra = roster_of(definition, a);
  if (!ra) return ra.error();
  auto rb = roster_of(definition, b);
  if (!rb) return rb.error();
  auto map = cd::battle_scenario(*n, {std::move(*ra), std::move(*rb)},
                                 {cc::to_domain(sel_a), cc::to_domain(sel_b)});
  if (!map) return map.error();
  return scenario_to_proto(*map, node.map());
}

Checked<v1::Roster> carry_over(const v1::CampaignDefinition& definition, Side side,
                               const v1::Roster& before, const v1::Selection& selection,
                               const v1::MatchRecord& record) {
  auto d = cc::to_domain(definition);
  if (!d) return d.error();
  auto r = roster_of(definition, before);
  if (!r) return r.error();
  auto after = carried(*d, side, *r, cc::to_domain(selection), record);
  if (!after) return after.error();
  return cc::to_proto(*after);
}

std::string next_battle(const v1::BattleNode& node, const v1::Outcome& result) {
  switch (outcome_from_proto(result).kind) {
    case Outcome::Kind::kWinA:
      return node.on_a_wins();
    case Outcome::Kind::kWinB:
      return node.on_b_wins();
    case Outcome::Kind::kDraw:
      return node.on_draw();
  }
  return {};
}

bool campaign_ends(const v1::CampaignDefinition& definition, const v1::BattleNode& node,
                   const v1::Outcome& result, const v1::Roster& a_after,
                   const v1::Roster& b_after) {
  auto d = cc::to_domain(definition);
  auto n = cc::to_domain(node);
  auto ra = roster_of(definition, a_after);
  auto rb = roster_of(definition, b_after);
  if (!d || !n || !ra || !rb) return true;
  return cd::ends_after(*d, *n, outcome_from_proto(result).kind, {std::move(*ra), std::move(*rb)});
}

v1::Outcome campaign_outcome(const v1::CampaignDefinition& definition,
                             const std::vector<v1::Outcome>& battle_results) {
  std::vector<Outcome> results;
  for (const v1::Outcome& o : battle_results)
    results.push_back(outcome_from_proto(o));
  const cd::Decision decided_by = definition.decided_by() == v1::DECIDED_BY_LAST_BATTLE
                                      ? cd::Decision::kLastBattle
                                      : cd::Decision::kBattlesWon;
  v1::Outcome out;
  outcome_to_proto(cd::campaign_outcome(decided_by, results), &out);
  return out;
}

Bytes32 selection_commitment(std::string_view campaign_id, std::string_view node, Side side,
                             const v1::Selection& selection, const Bytes32& salt) {
  return cd::selection_commitment(campaign_id, node, side, cc::to_domain(selection), salt);
}

PublicRoster public_roster(const v1::Roster& now, Side side,
                           const std::vector<v1::FoughtBattle>& history) {
  auto r = cc::to_domain(now);
  if (!r) return {};
  // A battle whose rosters do not read as this roster's kind shows nothing of it.
  std::vector<cd::Fought> fought;
  for (const v1::FoughtBattle& b : history) {
    auto before = cc::to_domain(side == Side::kA ? b.roster_a_before() : b.roster_b_before());
    auto after = cc::to_domain(side == Side::kA ? b.roster_a_after() : b.roster_b_after());
    if (!before || !after || before->game.index() != r->game.index() ||
        after->game.index() != r->game.index()) {
      continue;
    }
    fought.push_back({cc::to_domain(side == Side::kA ? b.selection_a() : b.selection_b()),
                      std::move(*before), std::move(*after)});
  }
  const cd::PublicRoster view = cd::public_roster(*r, fought);
  PublicRoster out;
  out.roster = cc::to_proto(view.roster);
  out.hidden_units = static_cast<std::uint32_t>(view.hidden_units);
  out.hidden_figures = static_cast<std::uint32_t>(view.hidden_figures);
  return out;
}

std::optional<std::string> verify_campaign(const v1::CampaignRecord& record) {
  if (record.format() != "castra-campaign-record/1") {
    return "the record's format is \"" + record.format() + "\", not castra-campaign-record/1";
  }
  auto d = cc::to_domain(record.definition());
  if (!d) return "the definition: " + d.error().message + " (" + d.error().rule + ")";
  if (auto bad = cd::check_definition(*d)) {
    return "the definition: " + bad->message + " (" + bad->rule + ")";
  }
  std::array<cd::Roster, 2> after = d->rosters;
  std::string expected = d->first_battle;
  std::vector<Outcome> results;
  bool ended = false;
  for (int i = 0; i < record.battles_size(); ++i) {
    const v1::CampaignBattleRecord& b = record.battles(i);
    const std::string step = "battle " + std::to_string(i + 1) + " (" + b.node() + ")";
    if (ended) return step + ": the campaign ended after battle " + std::to_string(i);
    if (b.node() != expected) return step + ": the path through the battles leads to " + expected;
    const cd::BattleNode& node = *d->battle(expected);
    std::array<cd::Roster, 2> before;
    std::array<cd::Selection, 2> fielded;
    for (Side side : {Side::kA, Side::kB}) {
      const cd::Roster want = cd::arrive(node, side, after[at(side)]);
      auto got = cc::to_domain(before_of(b, side));
      if (!got || *got != want) {
        return step + ": " + side_text(side) + "'s roster before is not " +
               (i == 0 ? std::string("the definition's")
                       : "the carry-over of battle " + std::to_string(i)) +
               " with this battle's reinforcements";
      }
      if (auto bad = sealed_problem(record.campaign_id(), node, side, want, sealed_of(b, side))) {
        return step + ": " + side_text(side) + "'s selection " + *bad;
      }
      before[at(side)] = want;
      fielded[at(side)] = cc::to_domain(sealed_of(b, side).selection());
    }
    if (!b.has_match()) return step + ": there is no match record";
    if (auto bad = verify_record(b.match())) return step + ": the match record: " + *bad;
    if (!b.match().has_outcome()) return step + ": the match has no outcome";
    auto scenario = cd::battle_scenario(node, before, fielded);
    if (!scenario) return step + ": the battle cannot be fought: " + scenario.error().message;
    auto fought_with = cc::to_domain(b.match().scenario());
    if (!fought_with || *fought_with != *scenario) {
      return step + ": the match was not fought with this battle's map and the fielded armies";
    }
    for (Side side : {Side::kA, Side::kB}) {
      auto want = carried(*d, side, before[at(side)], fielded[at(side)], b.match());
      if (!want) return step + ": " + side_text(side) + "'s carry-over: " + want.error().message;
      auto got = cc::to_domain(after_of(b, side));
      if (!got || *got != *want) {
        return step + ": " + side_text(side) +
               "'s roster after is not the carry-over of the battle";
      }
      after[at(side)] = std::move(*want);
    }
    const Outcome result = outcome_from_proto(b.match().outcome());
    results.push_back(result);
    ended = cd::ends_after(*d, node, result.kind, after);
    expected = node.after(result.kind);
  }
  const std::string fought = std::to_string(record.battles_size());
  if (!record.finished()) {
    if (ended)
      return "the campaign ended after battle " + fought + ", but the record is not finished";
    return std::nullopt;
  }
  if (record.abandoned()) {
    // The side that was left lost, whatever the battles say (docs/rules/campaigns.md).
    const auto want =
        record.abandoned_by() == v1::SIDE_A ? Outcome::Kind::kWinB : Outcome::Kind::kWinA;
    if (outcome_from_proto(record.outcome()).kind != want) {
      return "the campaign was abandoned by " + side_text(side_from_proto(record.abandoned_by())) +
             ", but its outcome is not the other side's win";
    }
    return std::nullopt;
  }
  if (!ended) return "the record is finished, but the campaign goes on after battle " + fought;
  const Outcome want = cd::campaign_outcome(d->decided_by, results);
  if (outcome_from_proto(record.outcome()).kind != want.kind) {
    return "the campaign's outcome is not the definition's decision (" + want.reason + ")";
  }
  return std::nullopt;
}

}  // namespace castra::wire
