#include "server/campaign/campaign_view.hpp"

#include <algorithm>

#include "common/match/crypto.hpp"
#include "common/match/fair_dice.hpp"
#include "common/wire/campaign_play.hpp"
#include "server/campaign/transitions.hpp"

namespace castra::campaign_server {

namespace {

std::string dice_commitment_hex(const std::string& seed) {
  if (seed.size() != 32) return {};
  match::Bytes32 s{};
  std::copy(seed.begin(), seed.end(), s.begin());
  return match::to_hex(match::dice_commitment(s));
}

// What everyone may see of a fought (or begun) battle: its selections are revealed when it
// begins, its rosters are those its armies were built from. Salts stay in the record.
v1::FoughtBattle fought(const v1::StoredBattle& b) {
  v1::FoughtBattle f;
  f.set_node(b.node());
  f.set_match_id(b.match_id());
  if (b.ended()) *f.mutable_outcome() = b.outcome();
  *f.mutable_selection_a() = b.selection_a().selection();
  *f.mutable_selection_b() = b.selection_b().selection();
  *f.mutable_roster_a_before() = b.roster_a_before();
  *f.mutable_roster_b_before() = b.roster_b_before();
  if (b.ended()) {
    *f.mutable_roster_a_after() = b.roster_a_after();
    *f.mutable_roster_b_after() = b.roster_b_after();
  }
  return f;
}

// The part of `roster` that `selection` fielded: what a battle showed of it.
v1::Roster fielded_part(const v1::Roster& roster, const v1::Selection& selection) {
  v1::Roster out;
  out.set_army(roster.army());
  if (roster.has_stand()) {
    *out.mutable_stand()->mutable_figures() = selection.figures();
    return out;
  }
  auto* optio = out.mutable_optio();
  for (const auto& u : roster.optio().units()) {
    for (int id : selection.units()) {
      if (u.id() == id) *optio->add_units() = u;
    }
  }
  for (const auto& l : roster.optio().leaders()) {
    for (int id : selection.leaders()) {
      if (l.id() == id) *optio->add_leaders() = l;
    }
  }
  return out;
}

// After the battle: the fielded part less what it lost (STAND!: what the roster lost of each
// type was lost by the fielded figures; Optio: the fielded units and leaders still there).
v1::Roster fielded_after(const v1::Roster& before, const v1::Roster& after,
                         const v1::Selection& selection) {
  if (!before.has_stand()) return fielded_part(after, selection);
  v1::Roster out = fielded_part(after, selection);
  auto* f = out.mutable_stand()->mutable_figures();
  const auto& b = before.stand().figures();
  const auto& a = after.stand().figures();
  f->set_infantry(std::max(0, f->infantry() - (b.infantry() - a.infantry())));
  f->set_archers(std::max(0, f->archers() - (b.archers() - a.archers())));
  f->set_cavalry(std::max(0, f->cavalry() - (b.cavalry() - a.cavalry())));
  f->set_chariots(std::max(0, f->chariots() - (b.chariots() - a.chariots())));
  return out;
}

// A fought battle as `side` (-1: a spectator) may see it: his own side's rosters whole, the
// other's only as far as the battle showed them.
v1::FoughtBattle seen_by(v1::FoughtBattle f, int side) {
  if (side != 0) {
    const v1::Roster before = f.roster_a_before();
    *f.mutable_roster_a_before() = fielded_part(before, f.selection_a());
    if (f.has_roster_a_after()) {
      *f.mutable_roster_a_after() = fielded_after(before, f.roster_a_after(), f.selection_a());
    }
  }
  if (side != 1) {
    const v1::Roster before = f.roster_b_before();
    *f.mutable_roster_b_before() = fielded_part(before, f.selection_b());
    if (f.has_roster_b_after()) {
      *f.mutable_roster_b_after() = fielded_after(before, f.roster_b_after(), f.selection_b());
    }
  }
  return f;
}

}  // namespace

v1::CampaignSummary summary_of(const v1::StoredCampaign& c, std::int64_t viewer,
                               const NameOf& name_of, bool my_action) {
  v1::CampaignSummary out;
  out.set_campaign_id(c.campaign_id());
  out.set_definition(c.definition().name());
  out.set_title(c.definition().title());
  out.set_ruleset(c.definition().ruleset());
  out.set_status(c.status());
  v1::CampaignSettings settings = c.settings();
  out.set_is_private(!settings.invitation_code().empty());
  if (viewer == 0 || c.creator() != viewer) settings.clear_invitation_code();
  *out.mutable_settings() = settings;
  out.set_creator(name_of(c.creator()));
  if (c.player_a() != 0) out.set_player_a(name_of(c.player_a()));
  if (c.player_b() != 0) out.set_player_b(name_of(c.player_b()));
  out.set_stage(c.stage());
  out.set_node(c.node());
  if (c.stage() == v1::STAGE_FIGHTING) out.set_battle_match_id(last_battle(c)->match_id());
  if (c.stage() == v1::STAGE_SELECTING) {
    out.set_deadline_ms(c.deadline_ms());
    out.set_battle_dice_commitment(dice_commitment_hex(c.battle_seed()));
    out.set_selection_in_a(selection_in(c, 0));
    out.set_selection_in_b(selection_in(c, 1));
  }
  out.set_paused(c.paused());
  const Standings s = standings(c);
  out.set_wins_a(s.a);
  out.set_wins_b(s.b);
  out.set_draws(s.draws);
  if (c.status() == v1::CAMPAIGN_FINISHED) *out.mutable_outcome() = c.outcome();
  out.set_created_ms(c.created_ms());
  out.set_updated_ms(c.updated_ms());
  const int side = side_of(c, viewer);
  if (side >= 0) {
    out.set_seated(true);
    out.set_my_side(side == 0 ? v1::SIDE_A : v1::SIDE_B);
    out.set_my_action(my_action);
  } else if (viewer != 0 && c.creator() == viewer) {
    out.set_my_side(c.settings().creator_side());
  }
  out.set_pause_asked_a(c.pause_asked_a());
  out.set_pause_asked_b(c.pause_asked_b());
  out.set_vacancy(c.vacancy());
  if (c.vacancy()) out.set_vacant_side(c.vacant_side());
  return out;
}

v1::CampaignView view_of(const v1::StoredCampaign& c, std::int64_t viewer, const NameOf& name_of,
                         bool my_action) {
  v1::CampaignView out;
  *out.mutable_summary() = summary_of(c, viewer, name_of, my_action);
  *out.mutable_definition() = c.definition();
  std::vector<v1::FoughtBattle> history;
  for (const auto& b : c.battles())
    history.push_back(fought(b));
  const int side = side_of(c, viewer);
  for (const auto& f : history)
    *out.add_history() = seen_by(f, side);
  for (int s : {0, 1}) {
    const v1::Roster& now = s == 0 ? c.roster_a() : c.roster_b();
    v1::Roster shown = now;
    std::uint32_t hidden_units = 0;
    std::uint32_t hidden_figures = 0;
    if (s != side) {
      wire::PublicRoster p =
          wire::public_roster(now, s == 0 ? rules::Side::kA : rules::Side::kB, history);
      shown = std::move(p.roster);
      hidden_units = p.hidden_units;
      hidden_figures = p.hidden_figures;
    }
    if (s == 0) {
      *out.mutable_roster_a() = std::move(shown);
      out.set_hidden_units_a(hidden_units);
      out.set_hidden_figures_a(hidden_figures);
    } else {
      *out.mutable_roster_b() = std::move(shown);
      out.set_hidden_units_b(hidden_units);
      out.set_hidden_figures_b(hidden_figures);
    }
  }
  if (c.stage() == v1::STAGE_SELECTING) {
    if (side >= 0 && selection_in(c, side)) {
      *out.mutable_my_selection() = pending(c, side).selection();
    }
    out.set_selection_commitment_a(c.pending_a().commitment());
    out.set_selection_commitment_b(c.pending_b().commitment());
  }
  return out;
}

}  // namespace castra::campaign_server
