#include "server/campaign/transitions.hpp"

#include <algorithm>

#include "common/match/crypto.hpp"
#include "common/wire/campaign_play.hpp"

namespace castra::campaign_server {

namespace {

constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;

rules::Side side_enum(int side) {
  return side == 0 ? rules::Side::kA : rules::Side::kB;
}

v1::Roster* roster(v1::StoredCampaign& c, int side) {
  return side == 0 ? c.mutable_roster_a() : c.mutable_roster_b();
}

v1::SealedSelection* pending_of(v1::StoredCampaign& c, int side) {
  return side == 0 ? c.mutable_pending_a() : c.mutable_pending_b();
}

std::int64_t selection_period_ms(const v1::StoredCampaign& c) {
  return std::int64_t{c.settings().selection_days()} * kDayMs;
}

// The campaign's outcome from the battles fought, as its definition decides.
v1::Outcome decided(const v1::StoredCampaign& c) {
  std::vector<v1::Outcome> results;
  for (const auto& fought : c.battles())
    results.push_back(fought.outcome());
  return wire::campaign_outcome(c.definition(), results);
}

// Deadlines missed in a row: a battle lost on time counts for its loser, a battle played
// through clears both.
void count_missed(v1::StoredCampaign& c, const v1::StoredBattle& b) {
  if (b.end_reason() == v1::END_FORFEIT && b.outcome().kind() != v1::Outcome::DRAW) {
    const int loser = b.outcome().kind() == v1::Outcome::WIN_A ? 1 : 0;
    loser == 0 ? c.set_missed_a(c.missed_a() + 1) : c.set_missed_b(c.missed_b() + 1);
    loser == 0 ? c.set_missed_b(0) : c.set_missed_a(0);
  } else {
    c.set_missed_a(0);
    c.set_missed_b(0);
  }
}

}  // namespace

int side_of(const v1::StoredCampaign& c, std::int64_t account) {
  if (account == 0) return -1;
  if (c.player_a() == account) return 0;
  if (c.player_b() == account) return 1;
  return -1;
}

std::int64_t player(const v1::StoredCampaign& c, int side) {
  return side == 0 ? c.player_a() : c.player_b();
}

const v1::SealedSelection& pending(const v1::StoredCampaign& c, int side) {
  return side == 0 ? c.pending_a() : c.pending_b();
}

bool selection_in(const v1::StoredCampaign& c, int side) {
  return !pending(c, side).commitment().empty();
}

const v1::StoredBattle* last_battle(const v1::StoredCampaign& c) {
  return c.battles().empty() ? nullptr : &*c.battles().rbegin();
}

void start(v1::StoredCampaign& c, std::int64_t now_ms, const std::string& battle_seed) {
  c.set_status(v1::CAMPAIGN_LIVE);
  begin_node(c, c.definition().first_battle(), now_ms, battle_seed);
}

void begin_node(v1::StoredCampaign& c, const std::string& node, std::int64_t now_ms,
                const std::string& battle_seed) {
  const v1::BattleNode* battle = wire::find_battle(c.definition(), node);
  c.set_node(node);
  for (int side : {0, 1}) {
    *roster(c, side) = wire::arrive(c.definition(), *battle, side_enum(side), *roster(c, side));
    pending_of(c, side)->Clear();
  }
  c.clear_entropy_a();
  c.clear_entropy_b();
  // A side that cannot field an army ends the campaign, which the definition then decides
  // like any other end (docs/rules/campaigns.md, section 7).
  if (!wire::can_field(c.roster_a()) || !wire::can_field(c.roster_b())) {
    return finish(c, decided(c), now_ms);
  }
  c.set_stage(v1::STAGE_SELECTING);
  c.set_battle_seed(battle_seed);
  c.set_reminded_ms(0);
  if (c.paused()) {
    c.set_deadline_ms(0);
    c.set_paused_remaining_ms(selection_period_ms(c));
  } else {
    c.set_deadline_ms(now_ms + selection_period_ms(c));
  }
  c.set_updated_ms(now_ms);
}

void seal(v1::StoredCampaign& c, int side, const v1::Selection& selection, const std::string& salt,
          const std::string& entropy, bool defaulted) {
  v1::SealedSelection* p = pending_of(c, side);
  *p->mutable_selection() = selection;
  match::Bytes32 salt32{};
  std::copy_n(salt.begin(), std::min(salt.size(), salt32.size()), salt32.begin());
  p->set_commitment(match::to_hex(
      wire::selection_commitment(c.campaign_id(), c.node(), side_enum(side), selection, salt32)));
  p->set_salt(match::to_hex(std::string_view(salt)));
  p->set_defaulted(defaulted);
  side == 0 ? c.set_entropy_a(entropy) : c.set_entropy_b(entropy);
  if (defaulted) side == 0 ? c.set_missed_a(c.missed_a() + 1) : c.set_missed_b(c.missed_b() + 1);
}

void begin_battle_when_ready(v1::StoredCampaign& c, const std::string& match_id) {
  if (c.stage() != v1::STAGE_SELECTING || c.vacancy() || !selection_in(c, 0) ||
      !selection_in(c, 1)) {
    return;
  }
  v1::StoredBattle* b = c.add_battles();
  b->set_node(c.node());
  b->set_match_id(match_id);
  *b->mutable_selection_a() = c.pending_a();
  *b->mutable_selection_b() = c.pending_b();
  *b->mutable_roster_a_before() = c.roster_a();
  *b->mutable_roster_b_before() = c.roster_b();
  c.clear_pending_a();
  c.clear_pending_b();
  c.set_stage(v1::STAGE_FIGHTING);
  c.set_deadline_ms(0);
  c.set_paused_remaining_ms(0);
}

void after_battle(v1::StoredCampaign& c, const v1::MatchRecord& record, std::int64_t now_ms,
                  const std::string& next_battle_seed) {
  v1::StoredBattle* b = &*c.mutable_battles()->rbegin();
  auto after_a = wire::carry_over(c.definition(), rules::Side::kA, b->roster_a_before(),
                                  b->selection_a().selection(), record);
  auto after_b = wire::carry_over(c.definition(), rules::Side::kB, b->roster_b_before(),
                                  b->selection_b().selection(), record);
  if (!after_a || !after_b) {
    const rules::RuleError& e = !after_a ? after_a.error() : after_b.error();
    c.set_end_message("the carry-over of battle " + b->node() + " was refused: " + e.message);
    return battle_closed(c, now_ms);
  }
  *b->mutable_roster_a_after() = *after_a;
  *b->mutable_roster_b_after() = *after_b;
  *b->mutable_outcome() = record.outcome();
  b->set_ended(true);
  if (!record.entries().empty() && record.entries().rbegin()->kind() == v1::ENTRY_END) {
    b->set_end_reason(record.entries().rbegin()->end_reason());
  }
  *c.mutable_roster_a() = *after_a;
  *c.mutable_roster_b() = *after_b;
  count_missed(c, *b);

  const v1::BattleNode* node = wire::find_battle(c.definition(), b->node());
  const std::string next = wire::next_battle(*node, record.outcome());
  if (next.empty()) return finish(c, decided(c), now_ms);
  begin_node(c, next, now_ms, next_battle_seed);
  for (int side : {0, 1}) {
    const std::uint32_t missed = side == 0 ? c.missed_a() : c.missed_b();
    if (c.status() == v1::CAMPAIGN_LIVE && missed >= 2 && !c.vacancy()) vacate(c, side, now_ms);
  }
}

void battle_closed(v1::StoredCampaign& c, std::int64_t now_ms) {
  c.set_status(v1::CAMPAIGN_CLOSED);
  c.set_stage(v1::STAGE_OVER);
  c.set_deadline_ms(0);
  if (c.end_message().empty()) c.set_end_message("its battle was ended without a result");
  c.set_updated_ms(now_ms);
}

void ask_pause(v1::StoredCampaign& c, int side, bool pause, std::int64_t now_ms) {
  if (pause == c.paused()) {
    // Asking for what already holds withdraws nothing and asks nothing.
    return;
  }
  side == 0 ? c.set_pause_asked_a(true) : c.set_pause_asked_b(true);
  if (!c.pause_asked_a() || !c.pause_asked_b()) return;
  c.set_pause_asked_a(false);
  c.set_pause_asked_b(false);
  c.set_paused(pause);
  if (pause) {
    c.set_paused_at_ms(now_ms);
    if (c.stage() == v1::STAGE_SELECTING) {
      c.set_paused_remaining_ms(std::max<std::int64_t>(0, c.deadline_ms() - now_ms));
      c.set_deadline_ms(0);
    }
  } else {
    if (c.stage() == v1::STAGE_SELECTING) c.set_deadline_ms(now_ms + c.paused_remaining_ms());
    c.set_paused_remaining_ms(0);
    c.set_paused_at_ms(0);
  }
  c.set_updated_ms(now_ms);
}

void vacate(v1::StoredCampaign& c, int side, std::int64_t now_ms) {
  if (c.vacancy()) {
    // Both sides gone: nobody is left to play.
    c.set_end_message("both players left");
    c.set_status(v1::CAMPAIGN_CLOSED);
    c.set_stage(v1::STAGE_OVER);
    c.set_deadline_ms(0);
    c.set_updated_ms(now_ms);
    return;
  }
  side == 0 ? c.set_player_a(0) : c.set_player_b(0);
  side == 0 ? c.set_missed_a(0) : c.set_missed_b(0);
  // The replacement makes the selection for the battle to come.
  pending_of(c, side)->Clear();
  side == 0 ? c.clear_entropy_a() : c.clear_entropy_b();
  c.set_vacancy(true);
  c.set_vacant_side(side == 0 ? v1::SIDE_A : v1::SIDE_B);
  c.set_vacant_since_ms(now_ms);
  c.set_pause_asked_a(false);
  c.set_pause_asked_b(false);
  c.set_updated_ms(now_ms);
}

void fill_vacancy(v1::StoredCampaign& c, std::int64_t account, std::int64_t now_ms) {
  c.vacant_side() == v1::SIDE_A ? c.set_player_a(account) : c.set_player_b(account);
  c.set_vacancy(false);
  c.set_vacant_since_ms(0);
  if (c.stage() == v1::STAGE_SELECTING && !c.paused()) {
    c.set_deadline_ms(now_ms + selection_period_ms(c));
    c.set_reminded_ms(0);
  }
  c.set_updated_ms(now_ms);
}

void finish(v1::StoredCampaign& c, v1::Outcome outcome, std::int64_t now_ms) {
  c.set_status(v1::CAMPAIGN_FINISHED);
  c.set_stage(v1::STAGE_OVER);
  *c.mutable_outcome() = std::move(outcome);
  c.set_deadline_ms(0);
  c.set_vacancy(false);
  c.set_paused(false);
  c.set_updated_ms(now_ms);
}

Standings standings(const v1::StoredCampaign& c) {
  Standings s;
  for (const auto& b : c.battles()) {
    if (!b.ended()) continue;
    switch (b.outcome().kind()) {
      case v1::Outcome::WIN_A:
        ++s.a;
        break;
      case v1::Outcome::WIN_B:
        ++s.b;
        break;
      default:
        ++s.draws;
    }
  }
  return s;
}

}  // namespace castra::campaign_server
