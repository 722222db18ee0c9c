// The players' requests: a player's page (record, ratings, recent matches), who is online,
// and rematches (docs/protocol.md, "Players and rematches").
#include <map>
#include <set>

#include "server/accounts/passwords.hpp"
#include "server/dispatch/handlers.hpp"
#include "server/ratings/player_record.hpp"
#include "server/ratings/rating_store.hpp"

namespace castra::dispatch {

namespace v1 = castra::v1;
using server::fail;
using server::Result;

namespace {

constexpr int kDefaultRecent = 10;
constexpr std::size_t kMaxOnlineNames = 100;

v1::MatchResult result_for(const std::string& outcome_bytes, int side) {
  v1::Outcome outcome;
  if (!outcome.ParseFromString(outcome_bytes)) return v1::RESULT_UNSPECIFIED;
  if (outcome.kind() == v1::Outcome::DRAW) return v1::RESULT_DRAW;
  const bool a_won = outcome.kind() == v1::Outcome::WIN_A;
  return a_won == (side == 0) ? v1::RESULT_WIN : v1::RESULT_LOSS;
}

void count(v1::GameRecord* record, v1::MatchResult result) {
  if (result == v1::RESULT_WIN) record->set_wins(record->wins() + 1);
  if (result == v1::RESULT_LOSS) record->set_losses(record->losses() + 1);
  if (result == v1::RESULT_DRAW) record->set_draws(record->draws() + 1);
}

}  // namespace

void Handlers::get_player(Call& call) {
  const auto& r = call.request.get_player();
  std::optional<ratings::PlayerAccount> account;
  std::vector<ratings::FinishedMatch> matches;
  std::vector<ratings::StoredRating> stored;
  const store::Status read =
      s_.players->page(accounts::name_key(r.name()), &account, &matches, &stored);
  if (!read.ok()) {
    return call.reply.fail(fail(v1::ERROR_INTERNAL, "the server could not read this; try again"));
  }
  if (!account) return call.reply.fail(fail(v1::ERROR_PLAYER_NOT_FOUND, "no player " + r.name()));
  v1::ServerEnvelope e;
  auto* page = e.mutable_player();
  page->set_name(account->name);
  page->set_joined_ms(account->created_ms);
  page->set_online(!s_.clients.of_account(account->id).empty());
  std::map<std::string, v1::GameRecord> records;
  const int recent = r.recent_limit() == 0 ? kDefaultRecent : static_cast<int>(r.recent_limit());
  for (const ratings::FinishedMatch& m : matches) {
    const v1::MatchResult result = result_for(m.outcome, m.side);
    records[m.ruleset].set_ruleset(m.ruleset);
    count(&records[m.ruleset], result);
    if (page->recent_size() >= recent) continue;
    auto* out = page->add_recent();
    out->set_match_id(m.id);
    out->set_ruleset(m.ruleset);
    out->set_scenario(m.scenario);
    if (const auto* entry = s_.scenarios.find(m.scenario)) {
      out->set_scenario_title(entry->info.title());
    }
    v1::MatchSettings settings;
    settings.ParseFromString(m.settings);
    out->set_opponent(m.opponent ? s_.accounts.name_of(*m.opponent)
                                 : lobby::computer_name(settings.computer()));
    out->set_side(m.side == 0 ? v1::SIDE_A : v1::SIDE_B);
    out->set_result(result);
    out->set_ended_ms(m.ended_ms);
    out->set_rated(m.rated);
    out->set_rating_change(m.rating_change);
  }
  for (auto& [ruleset, record] : records)
    *page->add_records() = std::move(record);
  for (const ratings::StoredRating& s : stored) {
    auto* out = page->add_ratings();
    out->set_ruleset(s.ruleset);
    out->set_rating(s.rating.rating);
    out->set_deviation(s.rating.deviation);
    out->set_volatility(s.rating.volatility);
    out->set_provisional(ratings::provisional(s.rating));
    out->set_games(static_cast<std::uint32_t>(s.games));
  }
  call.reply.ok(std::move(e));
}

void Handlers::list_online(Call& call) {
  std::set<std::string> names;
  std::uint32_t guests = 0;
  for (const auto& [id, client] : s_.clients.all()) {
    if (client.identity == Identity::kAccount) names.insert(client.name);
    if (client.identity == Identity::kGuest) ++guests;
  }
  v1::ServerEnvelope e;
  auto* out = e.mutable_online();
  out->set_count(static_cast<std::uint32_t>(names.size()));
  out->set_guests(guests);
  for (const std::string& name : names) {
    if (static_cast<std::size_t>(out->names_size()) == kMaxOnlineNames) break;
    out->add_names(name);
  }
  call.reply.ok(std::move(e));
}

void Handlers::offer_rematch(Call& call) {
  const store::MatchRow& row = *call.match;
  const std::int64_t account = call.client.account_id;
  if (row.status != store::MatchStatus::kFinished) {
    return call.reply.fail(fail(v1::ERROR_NO_REMATCH, "the match has not finished"));
  }
  v1::MatchSettings settings = s_.lobby.settings_of(row);
  const auto opponent = call.side == 0 ? row.player_b : row.player_a;
  if (settings.computer() != v1::COMPUTER_NONE || !opponent) {
    return call.reply.fail(
        fail(v1::ERROR_NO_REMATCH, "a rematch is between two people: create a new match"));
  }
  if (auto it = rematches_.find(row.id); it != rematches_.end()) {
    const Rematch& offered = it->second;
    if (offered.from != account) {
      return call.reply.fail(fail(v1::ERROR_NO_REMATCH, s_.accounts.name_of(offered.from) +
                                                            " has offered a rematch: accept it"));
    }
    // Asked again (a reconnect): the same match, and the opponent is told again.
    if (auto again = s_.lobby.find(offered.match_id)) {
      v1::ServerEnvelope e;
      *e.mutable_match_created()->mutable_match() = summary(*again, account);
      e.mutable_match_created()->set_invitation_code(offered.code);
      call.reply.ok(std::move(e));
      tell_rematch(*again);
      return;
    }
  }
  // Lichess's way: the same battle and settings, each player on the other side.
  settings.clear_invitation_code();
  settings.set_creator_side_random(false);
  settings.set_creator_side(call.side == 0 ? v1::SIDE_B : v1::SIDE_A);
  s_.lobby.create(account, row.scenario_name, settings, /*is_private=*/true,
                  [this, account, finished = row.id, opponent = *opponent,
                   reply = call.reply](Result<lobby::Created> created) {
                    if (!created) return reply.fail(created.failure());
                    rematches_[finished] =
                        Rematch{created->row.id, account, opponent, created->invitation_code};
                    v1::ServerEnvelope e;
                    *e.mutable_match_created()->mutable_match() = summary(created->row, account);
                    e.mutable_match_created()->set_invitation_code(created->invitation_code);
                    reply.ok(std::move(e));
                  });
}

void Handlers::tell_rematch(const store::MatchRow& row) {
  // Only once the offerer has his seat: JoinMatch waits for it.
  if (!row.player_a && !row.player_b) return;
  for (const auto& [finished, offer] : rematches_) {
    if (offer.match_id != row.id) continue;
    v1::ServerEnvelope e;
    auto* push = e.mutable_rematch_offered();
    push->set_match_id(finished);
    *push->mutable_rematch() = summary(row, offer.to);
    push->set_invitation_code(offer.code);
    push->set_from(s_.accounts.name_of(offer.from));
    for (Client* c : s_.clients.of_account(offer.to))
      s_.clients.push(*c, e);
    return;
  }
}

void Handlers::forget_rematch(const std::string& match_id) {
  std::erase_if(rematches_, [&](const auto& entry) { return entry.second.match_id == match_id; });
}

}  // namespace castra::dispatch
