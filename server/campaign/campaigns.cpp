#include "server/campaign/campaigns.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/match/crypto.hpp"
#include "common/wire/campaign_play.hpp"
#include "server/campaign/transitions.hpp"
#include "server/lobby/lobby.hpp"
#include "server/lobby/shared.hpp"

namespace castra::campaign_server {

using server::fail;
using server::Failure;
using server::Result;

namespace {

constexpr std::uint32_t kDefaultSelectionDays = 3;
constexpr std::uint32_t kMaxSelectionDays = 30;

using lobby::random_bytes;
using lobby::random_invitation_code;
using lobby::storage_failure;

std::string random_id() {
  return lobby::random_hex(16);
}

// The asker's sealed selection for `node`: still pending, or in the battle it began.
std::string commitment_of(const v1::StoredCampaign& c, std::int64_t account,
                          const std::string& node) {
  const int side = side_of(c, account);
  if (c.stage() == v1::STAGE_SELECTING && c.node() == node) return pending(c, side).commitment();
  for (const auto& b : c.battles()) {
    if (b.node() == node) return (side == 0 ? b.selection_a() : b.selection_b()).commitment();
  }
  return {};
}

Failure not_found(const std::string& id) {
  return fail(v1::ERROR_CAMPAIGN_NOT_FOUND, "no campaign " + id);
}

Result<v1::CampaignSettings> normalized(v1::CampaignSettings s) {
  if (s.selection_days() == 0) s.set_selection_days(kDefaultSelectionDays);
  if (s.selection_days() > kMaxSelectionDays) {
    return fail(v1::ERROR_INVALID_REQUEST, "a selection deadline is 1 to 30 days");
  }
  if (s.creator_side() != v1::SIDE_A && s.creator_side() != v1::SIDE_B) {
    return fail(v1::ERROR_INVALID_REQUEST, "unknown side");
  }
  if (s.battle().computer() != v1::COMPUTER_NONE) {
    return fail(v1::ERROR_INVALID_REQUEST, "a campaign is played by two people");
  }
  auto battle = lobby::normalized_settings(s.battle());
  if (!battle) return battle.failure();
  // Each battle's seats are given by the campaign: side A's player creates it.
  battle->set_creator_side(v1::SIDE_A);
  battle->set_creator_side_random(false);
  *s.mutable_battle() = *battle;
  s.clear_invitation_code();
  return s;
}

}  // namespace

Campaigns::Campaigns(CampaignStore& store, const Definitions& definitions,
                     runtime::Runtime& runtime, Post to_service, const server::Clock& clock,
                     CampaignOptions options, CampaignHooks hooks)
    : store_(store),
      definitions_(definitions),
      runtime_(runtime),
      to_service_(std::move(to_service)),
      clock_(clock),
      options_(options),
      hooks_(std::move(hooks)),
      hosts_campaigns_(!hooks_.elsewhere) {}

std::shared_ptr<Campaigns::Live> Campaigns::live(const std::string& id) {
  if (auto it = live_.find(id); it != live_.end()) return it->second;
  std::optional<v1::StoredCampaign> stored;
  if (auto s = store_.find(id, &stored); !s.ok()) {
    storage_failure(s, "find_campaign");
    return nullptr;
  }
  if (!stored) return nullptr;
  auto l = std::make_shared<Live>();
  l->state = std::move(*stored);
  live_[id] = l;
  return l;
}

void Campaigns::recover() {
  std::vector<v1::StoredCampaign> rows;
  if (auto s = store_.unfinished(&rows); !s.ok()) {
    storage_failure(s, "unfinished_campaigns");
    return;
  }
  for (auto& row : rows) {
    auto l = std::make_shared<Live>();
    l->state = std::move(row);
    const std::string id = l->state.campaign_id();
    live_[id] = l;
    if (const auto* b = last_battle(l->state); b && l->state.stage() == v1::STAGE_FIGHTING) {
      by_battle_[b->match_id()] = id;
    }
  }
  spdlog::info("event=campaigns_recovered count={}", rows.size());
  for (const auto& [id, l] : live_)
    settle(l->state);
}

void Campaigns::host(bool hosting) {
  hosts_campaigns_ = hosting;
  live_.clear();
  by_battle_.clear();
  hosting_.clear();
  spdlog::info("event=campaigns_hosted hosting={}", hosting);
  if (hosting) recover();
}

std::optional<Failure> Campaigns::elsewhere() const {
  if (hosts_campaigns_) return std::nullopt;
  if (hooks_.elsewhere) {
    if (auto f = hooks_.elsewhere()) return f;
  }
  // The role is this node's in the database but not hosted yet (host(true) is queued).
  return fail(v1::ERROR_MATCH_ELSEWHERE, "the campaigns are moving to this node; ask again", 500);
}

void Campaigns::transact(const std::string& id, Change change, StateDone done) {
  if (auto f = elsewhere()) return done(*f);
  auto l = live(id);
  if (!l) return done(not_found(id));
  if (l->writing) {
    l->queue.push_back([this, id, change = std::move(change), done = std::move(done)]() mutable {
      transact(id, std::move(change), std::move(done));
    });
    return;
  }
  v1::StoredCampaign next = l->state;
  if (auto refused = change(next)) return done(*refused);
  if (next.SerializeAsString() == l->state.SerializeAsString()) return done(l->state);
  next.set_updated_ms(clock_.now_ms());
  write(l, std::move(next), std::move(done));
}

void Campaigns::write(const std::shared_ptr<Live>& l, v1::StoredCampaign next, StateDone done) {
  l->writing = true;
  auto state = std::make_shared<v1::StoredCampaign>(std::move(next));
  store_.put(*state, [this, l, state, done = std::move(done)](store::Status s) {
    l->writing = false;
    if (!s.ok()) {
      done(storage_failure(s, "put_campaign"));
      return drain(l);
    }
    l->state = std::move(*state);
    // Committed before this node gave the campaigns up: the next host settles it.
    if (!hosts_campaigns_) return done(l->state);
    if (const auto* b = last_battle(l->state); b && l->state.stage() == v1::STAGE_FIGHTING) {
      by_battle_[b->match_id()] = l->state.campaign_id();
    }
    if (hooks_.changed) hooks_.changed(l->state);
    settle(l->state);
    done(l->state);
    drain(l);
    // An ended campaign is read from the store from now on.
    const bool ended =
        l->state.status() == v1::CAMPAIGN_FINISHED || l->state.status() == v1::CAMPAIGN_CLOSED;
    if (ended && !l->writing && l->queue.empty()) live_.erase(l->state.campaign_id());
  });
}

void Campaigns::drain(const std::shared_ptr<Live>& l) {
  while (!l->writing && !l->queue.empty()) {
    auto op = std::move(l->queue.front());
    l->queue.pop_front();
    op();
  }
}

void Campaigns::create(std::int64_t account, const std::string& definition,
                       v1::CampaignSettings asked, bool is_private, StateDone done) {
  if (auto f = elsewhere()) return done(*f);
  const v1::CampaignDefinition* def = definitions_.find(definition);
  if (def == nullptr) {
    return done(fail(v1::ERROR_DEFINITION_NOT_FOUND, "no campaign named " + definition));
  }
  auto settings = normalized(std::move(asked));
  if (!settings) return done(settings.failure());
  std::vector<std::string> mine;
  if (auto s = store_.ids_of_player(account, -1, &mine); !s.ok()) {
    return done(storage_failure(s, "campaigns_of_player"));
  }
  const auto open = std::count_if(mine.begin(), mine.end(), [&](const std::string& id) {
    auto l = live(id);
    return l && l->state.status() == v1::CAMPAIGN_OPEN;
  });
  if (open >= options_.max_open_per_account) {
    return done(fail(v1::ERROR_TOO_MANY_MATCHES,
                     "you have " + std::to_string(open) + " open campaigns; withdraw one first"));
  }
  if (is_private) settings->set_invitation_code(random_invitation_code());
  if (settings->creator_side_random()) {
    settings->set_creator_side(randombytes_uniform(2) == 1 ? v1::SIDE_B : v1::SIDE_A);
  }
  v1::StoredCampaign c;
  c.set_campaign_id(random_id());
  *c.mutable_definition() = *def;
  *c.mutable_settings() = *settings;
  c.set_creator(account);
  settings->creator_side() == v1::SIDE_A ? c.set_player_a(account) : c.set_player_b(account);
  c.set_status(v1::CAMPAIGN_OPEN);
  c.set_stage(v1::STAGE_NONE);
  *c.mutable_roster_a() = def->side_a();
  *c.mutable_roster_b() = def->side_b();
  c.set_created_ms(clock_.now_ms());
  c.set_updated_ms(c.created_ms());
  auto l = std::make_shared<Live>();
  live_[c.campaign_id()] = l;
  l->state = c;
  spdlog::info("event=campaign_created campaign={} definition={} creator={}", c.campaign_id(),
               definition, account);
  write(l, std::move(c), std::move(done));
}

void Campaigns::join(std::int64_t account, const std::string& id, const std::string& code,
                     StateDone done) {
  const std::int64_t now = clock_.now_ms();
  const std::string seed = random_bytes(32);
  transact(
      id,
      [account, code, now, seed](v1::StoredCampaign& c) -> std::optional<Failure> {
        const std::string& expected = c.settings().invitation_code();
        if (!expected.empty() && expected != code) {
          return fail(v1::ERROR_BAD_INVITATION, "wrong invitation code");
        }
        if (side_of(c, account) >= 0) return fail(v1::ERROR_ALREADY_SEATED, "you play in it");
        if (c.status() == v1::CAMPAIGN_OPEN) {
          c.player_a() == 0 ? c.set_player_a(account) : c.set_player_b(account);
          start(c, now, seed);
          return std::nullopt;
        }
        if (c.status() == v1::CAMPAIGN_LIVE && c.vacancy()) {
          fill_vacancy(c, account, now);
          return std::nullopt;
        }
        return fail(v1::ERROR_CAMPAIGN_NOT_OPEN, "no side of this campaign is free");
      },
      std::move(done));
}

void Campaigns::leave(std::int64_t account, const std::string& id, StateDone done) {
  const std::int64_t now = clock_.now_ms();
  transact(
      id,
      [account, now](v1::StoredCampaign& c) -> std::optional<Failure> {
        if (c.creator() != account) {
          return fail(v1::ERROR_NOT_IN_CAMPAIGN, "only its creator withdraws a campaign");
        }
        if (c.status() != v1::CAMPAIGN_OPEN) {
          return fail(v1::ERROR_CAMPAIGN_NOT_OPEN, "the campaign has begun: resign instead");
        }
        c.set_status(v1::CAMPAIGN_CLOSED);
        c.set_stage(v1::STAGE_OVER);
        c.set_end_message("withdrawn by its creator");
        c.set_updated_ms(now);
        return std::nullopt;
      },
      std::move(done));
}

void Campaigns::submit_selection(std::int64_t account, const std::string& id,
                                 const std::string& node, const v1::Selection& selection,
                                 const std::string& entropy, Done<v1::SelectionResult> done) {
  auto refusal = std::make_shared<std::optional<rules::RuleError>>();
  const std::string salt = random_bytes(32);
  const std::string match_id = random_id();
  transact(
      id,
      [account, node, selection, entropy, salt, match_id,
       refusal](v1::StoredCampaign& c) -> std::optional<Failure> {
        const int side = side_of(c, account);
        if (side < 0) return fail(v1::ERROR_NOT_IN_CAMPAIGN, "you play no side of it");
        if (c.status() != v1::CAMPAIGN_LIVE || c.stage() != v1::STAGE_SELECTING ||
            c.node() != node) {
          return fail(v1::ERROR_NO_SELECTION_DUE, "no selection is due for battle " + node);
        }
        if (selection_in(c, side)) {
          return fail(v1::ERROR_NO_SELECTION_DUE, "your selection for this battle is in");
        }
        const v1::BattleNode* battle = wire::find_battle(c.definition(), node);
        const v1::Roster& roster = side == 0 ? c.roster_a() : c.roster_b();
        // With no limit the whole roster fights: the selection may be sent empty.
        const bool whole = battle->selection_limit() == 0 && selection.ByteSizeLong() == 0;
        const v1::Selection fielded = whole ? wire::whole_roster(roster) : selection;
        if (auto e = wire::check_selection(c.definition(), *battle, roster, fielded)) {
          *refusal = *e;
          return Failure{};  // nothing written; answered below as a refusal
        }
        seal(c, side, fielded, salt, entropy, false);
        begin_battle_when_ready(c, match_id);
        return std::nullopt;
      },
      [refusal, account, node, done = std::move(done)](Result<v1::StoredCampaign> r) {
        v1::SelectionResult out;
        if (*refusal) {
          out.mutable_error()->set_rule((*refusal)->rule);
          out.mutable_error()->set_message((*refusal)->message);
          return done(out);
        }
        if (!r) return done(r.failure());
        out.set_accepted(true);
        out.set_commitment(commitment_of(*r, account, node));
        done(out);
      });
}

void Campaigns::pause(std::int64_t account, const std::string& id, bool pause, StateDone done) {
  const std::int64_t now = clock_.now_ms();
  transact(
      id,
      [account, pause, now](v1::StoredCampaign& c) -> std::optional<Failure> {
        const int side = side_of(c, account);
        if (side < 0) return fail(v1::ERROR_NOT_IN_CAMPAIGN, "you play no side of it");
        if (c.status() != v1::CAMPAIGN_LIVE) {
          return fail(v1::ERROR_CAMPAIGN_NOT_OPEN, "only a live campaign pauses");
        }
        ask_pause(c, side, pause, now);
        return std::nullopt;
      },
      std::move(done));
}

void Campaigns::resign(std::int64_t account, const std::string& id, StateDone done) {
  const std::int64_t now = clock_.now_ms();
  transact(
      id,
      [account, now](v1::StoredCampaign& c) -> std::optional<Failure> {
        const int side = side_of(c, account);
        if (side < 0) return fail(v1::ERROR_NOT_IN_CAMPAIGN, "you play no side of it");
        if (c.status() != v1::CAMPAIGN_LIVE) {
          return fail(v1::ERROR_CAMPAIGN_NOT_OPEN, "only a live campaign is resigned");
        }
        // A battle being fought is lost (settle resigns it); the side is offered to a
        // replacement for the rest.
        vacate(c, side, now);
        return std::nullopt;
      },
      std::move(done));
}

std::optional<v1::StoredCampaign> Campaigns::find(const std::string& id) {
  if (auto it = live_.find(id); it != live_.end()) return it->second->state;
  // Not kept in memory for a read: a finished campaign listed or looked at stays in the store.
  std::optional<v1::StoredCampaign> stored;
  if (auto s = store_.find(id, &stored); !s.ok()) storage_failure(s, "find_campaign");
  return stored;
}

std::vector<v1::StoredCampaign> Campaigns::list(v1::CampaignStatus status,
                                                const std::string& ruleset, int limit) {
  std::vector<std::string> ids;
  // Open campaigns with a free side, and live ones offering a vacant side, are both joinable.
  const std::string word = status == v1::CAMPAIGN_OPEN ? "open" : status_word(status);
  if (auto s = store_.ids_by_status(word, std::min(limit * 4, 400), &ids); !s.ok()) {
    storage_failure(s, "list_campaigns");
  }
  if (status == v1::CAMPAIGN_OPEN) {
    std::vector<std::string> live_ids;
    if (auto s = store_.ids_by_status("live", 400, &live_ids); s.ok()) {
      for (auto& id : live_ids)
        ids.push_back(std::move(id));
    }
  }
  std::vector<v1::StoredCampaign> out;
  for (const auto& id : ids) {
    auto c = find(id);
    if (!c || (!ruleset.empty() && c->definition().ruleset() != ruleset)) continue;
    if (status == v1::CAMPAIGN_OPEN && c->status() == v1::CAMPAIGN_LIVE && !c->vacancy()) continue;
    out.push_back(std::move(*c));
    if (static_cast<int>(out.size()) >= limit) break;
  }
  return out;
}

std::vector<v1::StoredCampaign> Campaigns::mine(std::int64_t account, int limit) {
  std::vector<std::string> ids;
  if (auto s = store_.ids_of_player(account, limit, &ids); !s.ok()) {
    storage_failure(s, "campaigns_of_player");
  }
  // Those where the account must act first; each asked once (a battle on another node is a
  // store read).
  std::vector<v1::StoredCampaign> due, rest;
  for (const auto& id : ids) {
    auto c = find(id);
    if (!c) continue;
    (action_due(*c, account) ? due : rest).push_back(std::move(*c));
  }
  due.insert(due.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  return due;
}

bool Campaigns::action_due(const v1::StoredCampaign& c, std::int64_t account) {
  const int side = side_of(c, account);
  if (side < 0 || c.status() != v1::CAMPAIGN_LIVE) return false;
  if (c.stage() == v1::STAGE_SELECTING) return !c.paused() && !selection_in(c, side);
  if (c.stage() != v1::STAGE_FIGHTING) return false;
  const std::string& battle = last_battle(c)->match_id();
  if (auto host = runtime_.find(battle)) {
    return !host->seen()->ended &&
           host->seen()->acting.must_act(side == 0 ? rules::Side::kA : rules::Side::kB);
  }
  // The battle is hosted by another node (a cluster's node listing campaigns it does not
  // host): its row says whose move it is, as the lobby's list of matches does.
  std::optional<store::MatchRow> row;
  if (auto s = runtime_.stored_row(battle, &row); !s.ok()) {
    storage_failure(s, "find_match");
    return false;
  }
  return row && row->status == store::MatchStatus::kLive && lobby::to_act(*row, side);
}

Result<v1::CampaignRecord> Campaigns::record(const std::string& id) {
  auto c = find(id);
  if (!c) return not_found(id);
  if (c->status() != v1::CAMPAIGN_FINISHED) {
    return fail(v1::ERROR_CAMPAIGN_NOT_FINISHED, "a campaign's record is exported once it ends");
  }
  v1::CampaignRecord out;
  out.set_format("castra-campaign-record/1");
  out.set_campaign_id(c->campaign_id());
  *out.mutable_definition() = c->definition();
  for (const auto& b : c->battles()) {
    auto host = runtime_.find(b.match_id());
    if (!host) host = runtime_.load(b.match_id());
    if (!host || !host->seen()->record) {
      return fail(v1::ERROR_INTERNAL, "battle " + b.node() + "'s record could not be loaded");
    }
    v1::CampaignBattleRecord* r = out.add_battles();
    r->set_node(b.node());
    *r->mutable_roster_a_before() = b.roster_a_before();
    *r->mutable_roster_b_before() = b.roster_b_before();
    *r->mutable_selection_a() = b.selection_a();
    *r->mutable_selection_b() = b.selection_b();
    *r->mutable_match() = *host->seen()->record;
    *r->mutable_roster_a_after() = b.roster_a_after();
    *r->mutable_roster_b_after() = b.roster_b_after();
  }
  *out.mutable_outcome() = c->outcome();
  out.set_finished(true);
  if (c->abandoned()) {
    out.set_abandoned(true);
    out.set_abandoned_by(c->vacant_side());
  }
  return out;
}

}  // namespace castra::campaign_server
