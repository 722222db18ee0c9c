// The side effects a committed campaign state asks for, and the clock: hosting and seating the
// battle being fought, holding its clocks while the campaign is paused, resigning it for a
// side that left, moving on when it ends; selection deadlines, vacancies and reminders. Each
// is derived from the committed state, so running one twice (a restart in between) does no
// harm: a match already hosted is not hosted again, a seat taken is not taken again.
#include <spdlog/spdlog.h>

#include "common/match/crypto.hpp"
#include "common/wire/any_match.hpp"
#include "common/wire/campaign_play.hpp"
#include "server/campaign/campaigns.hpp"
#include "server/campaign/transitions.hpp"
#include "server/lobby/shared.hpp"

namespace castra::campaign_server {

namespace {

using lobby::random_bytes;

rules::Side side_enum(int side) {
  return side == 0 ? rules::Side::kA : rules::Side::kB;
}

v1::Outcome win(int side, const std::string& reason) {
  v1::Outcome o;
  o.set_kind(side == 0 ? v1::Outcome::WIN_A : v1::Outcome::WIN_B);
  o.set_reason(reason);
  return o;
}

std::string side_name(int side) {
  return side == 0 ? "side A" : "side B";
}

}  // namespace

void Campaigns::settle(const v1::StoredCampaign& c) {
  if (c.status() != v1::CAMPAIGN_LIVE || c.stage() != v1::STAGE_FIGHTING) return;
  const std::string& match_id = last_battle(c)->match_id();
  auto host = runtime_.find(match_id);
  if (!host) host = runtime_.load(match_id);
  if (!host) {
    // A battle that exists but cannot be loaded here (its lease names another node, or its
    // log could not be read) is not made again: the store would refuse the same id.
    std::optional<store::MatchRow> row;
    const store::Status s = runtime_.stored_row(match_id, &row);
    if (s.ok() && !row) return host_battle(c);
    spdlog::error("event=campaign_battle_not_loaded campaign={} match={} error=\"{}\"",
                  c.campaign_id(), match_id, s.ok() ? "stored, not loadable here" : s.message);
    return;
  }
  if (host->seen()->ended) {
    // It ended while nobody could hear (a restart): move on from the service queue.
    to_service_([this, match_id] { battle_ended(match_id); });
    return;
  }
  // Held before it is seated: the deadlines the seats start already run from the hold.
  hold_battle(c, host);
  seat_battle(c, host);
  if (c.vacancy()) {
    host->resign(c.vacant_side() == v1::SIDE_A ? rules::Side::kA : rules::Side::kB,
                 [](runtime::Answer<runtime::Done>) {});
  }
}

void Campaigns::host_battle(const v1::StoredCampaign& c) {
  const v1::StoredBattle& b = *last_battle(c);
  const v1::CampaignDefinition& def = c.definition();
  auto scenario = wire::battle_scenario(def, *wire::find_battle(def, b.node()), b.roster_a_before(),
                                        b.roster_b_before(), b.selection_a().selection(),
                                        b.selection_b().selection());
  const std::string id = c.campaign_id();
  if (!scenario) {
    spdlog::error("event=campaign_battle_refused campaign={} node={} rule={} error=\"{}\"", id,
                  b.node(), scenario.error().rule, scenario.error().message);
    return;
  }
  store::MatchRow row;
  row.id = b.match_id();
  row.ruleset = def.ruleset();
  row.rules_version = wire::current_rules_version(def.ruleset()).value_or("");
  row.scenario_name = "campaign/" + def.name() + "/" + b.node();
  scenario->SerializeToString(&row.scenario);
  c.settings().battle().SerializeToString(&row.settings);
  row.creator = c.player_a();
  store::Secrets secrets;
  secrets.server_seed = c.battle_seed();
  auto prepared = runtime_.prepare(std::move(row), std::move(secrets));
  if (!prepared) {
    spdlog::error("event=campaign_battle_refused campaign={} node={} rule={} error=\"{}\"", id,
                  b.node(), prepared.error().rule, prepared.error().message);
    return;
  }
  if (!hosting_.insert(b.match_id()).second) return;  // already on its way
  runtime_.host(std::move(*prepared), [this, id, match_id = b.match_id()](
                                          runtime::Answer<std::shared_ptr<runtime::MatchHost>> a) {
    to_service_([this, id, match_id, a = std::move(a)] {
      hosting_.erase(match_id);
      if (!a) {
        spdlog::error("event=campaign_battle_not_hosted campaign={} match={}", id, match_id);
        return;
      }
      spdlog::info("event=campaign_battle_hosted campaign={} match={}", id, match_id);
      if (auto l = live(id)) settle(l->state);
    });
  });
}

void Campaigns::seat_battle(const v1::StoredCampaign& c,
                            const std::shared_ptr<runtime::MatchHost>& host) {
  const auto seen = host->seen();
  for (int side : {0, 1}) {
    if (seen->seated[side]) continue;
    const std::string& entropy = side == 0 ? c.entropy_a() : c.entropy_b();
    const std::int64_t account = player(c, side);
    if (account == 0) continue;  // left before the battle began: it is resigned for him
    host->seat(side_enum(side), account, entropy,
               [this, host, id = c.campaign_id(), side](runtime::Answer<runtime::Done> a) {
                 // A second settle finds the seat taken ("match.seat"): nothing to do.
                 if (!a && !(a.refusal() && a.refusal()->rule == "match.seat")) {
                   spdlog::error("event=campaign_seat_failed campaign={} side={}", id, side);
                   return;
                 }
                 const auto seen = host->seen();
                 if (a && seen->seated[0] && seen->seated[1] && hooks_.battle_started) {
                   to_service_([this, row = seen->row] { hooks_.battle_started(row); });
                 }
               });
  }
}

void Campaigns::hold_battle(const v1::StoredCampaign& c,
                            const std::shared_ptr<runtime::MatchHost>& host) {
  host->hold_clocks(c.paused(), c.paused_at_ms(), [](runtime::Answer<runtime::Done>) {});
}

void Campaigns::battle_ended(const std::string& match_id) {
  auto it = by_battle_.find(match_id);
  if (it == by_battle_.end()) return;
  const std::string id = it->second;
  auto host = runtime_.find(match_id);
  if (!host) host = runtime_.load(match_id);
  if (!host || !host->seen()->ended) return;
  const std::shared_ptr<const v1::MatchRecord> record = host->seen()->record;
  const bool closed = host->seen()->row.status == store::MatchStatus::kClosed;
  const std::int64_t now = clock_.now_ms();
  const std::string seed = random_bytes(32);
  transact(
      id,
      [match_id, record, closed, now,
       seed](v1::StoredCampaign& c) -> std::optional<server::Failure> {
        const v1::StoredBattle* b = last_battle(c);
        if (c.stage() != v1::STAGE_FIGHTING || b == nullptr || b->match_id() != match_id) {
          return std::nullopt;  // told twice: the first moved it on
        }
        if (closed || !record) {
          battle_closed(c, now);
        } else {
          after_battle(c, *record, now, seed);
        }
        return std::nullopt;
      },
      [this, match_id](server::Result<v1::StoredCampaign> r) {
        if (!r) return;
        by_battle_.erase(match_id);
        spdlog::info("event=campaign_battle_ended campaign={} match={} stage={}", r->campaign_id(),
                     match_id, v1::CampaignStage_Name(r->stage()));
      });
}

void Campaigns::battle_move_due(const std::string& match_id, std::int64_t account,
                                std::int64_t deadline_ms) {
  auto it = by_battle_.find(match_id);
  if (it == by_battle_.end() || !hooks_.remind) return;
  auto l = live(it->second);
  if (!l) return;
  const v1::StoredCampaign& c = l->state;
  Reminder m;
  m.account = account;
  m.kind = "your_move";
  m.campaign_id = c.campaign_id();
  m.deadline_ms = deadline_ms;
  m.subject = c.definition().title() + ": your move at " + c.node();
  m.text = "It is your move in the battle of " + c.node() + " of the campaign \"" +
           c.definition().title() + "\". A move not made by its deadline forfeits the battle.";
  hooks_.remind(m);
}

void Campaigns::tick() {
  const std::int64_t now = clock_.now_ms();
  // A transition may end a campaign (and take it out of live_) before this loop is done.
  std::vector<std::shared_ptr<Live>> campaigns;
  for (const auto& [id, l] : live_)
    campaigns.push_back(l);
  for (const auto& l : campaigns) {
    const v1::StoredCampaign& c = l->state;
    const std::string id = c.campaign_id();
    if (l->writing || c.status() != v1::CAMPAIGN_LIVE || c.stage() != v1::STAGE_SELECTING ||
        c.paused()) {
      continue;
    }
    const std::int64_t period = std::int64_t{c.settings().selection_days()} * 24 * 3600 * 1000;
    if (c.vacancy()) {
      if (now >= c.vacant_since_ms() + period) {
        const int vacant = c.vacant_side() == v1::SIDE_A ? 0 : 1;
        const int other = 1 - vacant;
        transact(
            id,
            [now, vacant, other](v1::StoredCampaign& s) -> std::optional<server::Failure> {
              if (!s.vacancy()) return std::nullopt;
              finish(s, win(other, "nobody took " + side_name(vacant) + "'s place"), now);
              s.set_abandoned(true);
              return std::nullopt;
            },
            [](server::Result<v1::StoredCampaign>) {});
      }
      continue;
    }
    if (c.deadline_ms() != 0 && now >= c.deadline_ms()) {
      auto salts = std::make_shared<std::array<std::string, 4>>(std::array<std::string, 4>{
          random_bytes(32), random_bytes(32), random_bytes(32), random_bytes(32)});
      const std::string match_id = lobby::random_hex(16);
      transact(
          id,
          [now, salts, match_id](v1::StoredCampaign& s) -> std::optional<server::Failure> {
            if (s.stage() != v1::STAGE_SELECTING || s.deadline_ms() == 0 || now < s.deadline_ms())
              return std::nullopt;
            const v1::BattleNode* node = wire::find_battle(s.definition(), s.node());
            for (int side : {0, 1}) {
              if (selection_in(s, side)) continue;
              const v1::Roster& roster = side == 0 ? s.roster_a() : s.roster_b();
              const v1::Selection fielded = node->selection_limit() == 0
                                                ? wire::whole_roster(roster)
                                                : wire::default_selection(*node, roster);
              // The server gives the missing entropy, as it does for its computer players.
              seal(s, side, fielded, (*salts)[side], (*salts)[2 + side], true);
              spdlog::info("event=campaign_selection_defaulted campaign={} node={} side={}",
                           s.campaign_id(), s.node(), side == 0 ? "A" : "B");
            }
            begin_battle_when_ready(s, match_id);
            return std::nullopt;
          },
          [](server::Result<v1::StoredCampaign>) {});
      continue;
    }
    if (c.reminded_ms() == 0) {
      remind_selection(c, "selection_due");
    } else if (c.deadline_ms() != 0 && c.reminded_ms() != c.deadline_ms() &&
               now >= c.deadline_ms() - options_.remind_before_ms) {
      remind_selection(c, "selection_deadline_soon");
    }
  }
}

void Campaigns::remind_selection(const v1::StoredCampaign& c, const std::string& kind) {
  const std::int64_t mark = kind == "selection_due" ? 1 : c.deadline_ms();
  transact(
      c.campaign_id(),
      [mark](v1::StoredCampaign& s) -> std::optional<server::Failure> {
        s.set_reminded_ms(mark);
        return std::nullopt;
      },
      [this, kind](server::Result<v1::StoredCampaign> r) {
        // Sent after the mark is committed: a restart never sends the same reminder twice.
        if (!r || !hooks_.remind) return;
        for (int side : {0, 1}) {
          if (selection_in(*r, side) || player(*r, side) == 0) continue;
          Reminder m;
          m.account = player(*r, side);
          m.kind = kind;
          m.campaign_id = r->campaign_id();
          m.deadline_ms = r->deadline_ms();
          m.subject = r->definition().title() + ": choose who fights at " + r->node();
          m.text = "Your selection for the next battle of the campaign \"" +
                   r->definition().title() +
                   "\" is due. If it is not in by the deadline, the "
                   "campaign's default selection is fielded for you.";
          hooks_.remind(m);
        }
      });
}

}  // namespace castra::campaign_server
