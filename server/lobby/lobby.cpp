#include "server/lobby/lobby.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>

#include "common/match/crypto.hpp"
#include "common/match/fair_dice.hpp"
#include "server/accounts/passwords.hpp"
#include "server/lobby/shared.hpp"

namespace castra::lobby {

using server::ErrorCode;
using server::fail;
using server::Failure;
using server::Result;

namespace {

constexpr std::uint32_t kDefaultLiveSeconds = 600;
constexpr std::uint32_t kDefaultCorrespondenceSeconds = 3 * 24 * 3600;
constexpr std::uint32_t kDefaultGraceSeconds = 120;
constexpr std::uint32_t kMaxSpectatorDelay = 20;

// A rule refused the request (the match is as it was): the player's error, naming the rule.
Failure rule_refusal(const rules::RuleError& e) {
  return fail(v1::ERROR_INVALID_REQUEST, "refused by rule " + e.rule + ": " + e.message);
}

// What the match runtime answered a seat or an end, as the player hears it.
template <class T>
Failure failure_of(const runtime::Answer<T>& answer, const char* what) {
  if (const store::Status* s = answer.storage_failure()) return storage_failure(*s, what);
  const rules::RuleError& e = *answer.refusal();
  // The match moved on between the lobby's check and the host's turn (a second join racing
  // the first, a withdrawal racing a start): the lobby's own answer for that state.
  if (e.rule == "match.seat") return fail(v1::ERROR_MATCH_FULL, "no free seat");
  if (e.rule == "match.moved")
    return fail(v1::ERROR_MATCH_ELSEWHERE, e.message + "; ask again", 500);
  if (e.rule == "match.over" || e.rule == "match.closed" || e.rule == "match.not_started") {
    return fail(v1::ERROR_MATCH_NOT_OPEN, e.message);
  }
  return rule_refusal(e);
}

// A new match's row, open and unseated, before the runtime fills in its commitment.
store::MatchRow new_row(const ScenarioEntry& scenario, const castra::v1::MatchSettings& settings,
                        std::int64_t creator, std::int64_t now_ms) {
  store::MatchRow row;
  row.id = random_hex(16);
  row.ruleset = scenario.ruleset;
  row.rules_version = scenario.rules_version;
  row.scenario_name = scenario.name;
  row.scenario = scenario.bytes;
  settings.SerializeToString(&row.settings);
  row.status = MatchStatus::kOpen;
  row.creator = creator;
  row.created_ms = row.updated_ms = now_ms;
  return row;
}

}  // namespace

std::optional<int> seat_of(const store::MatchRow& row, std::int64_t account) {
  if (row.player_a && *row.player_a == account) return 0;
  if (row.player_b && *row.player_b == account) return 1;
  return std::nullopt;
}

bool to_act(const store::MatchRow& row, int side) {
  return row.to_act.find(side == 0 ? 'A' : 'B') != std::string::npos;
}

bool well_formed_match_id(const std::string& id) {
  return id.size() == 32 && std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

Result<castra::v1::MatchSettings> normalized_settings(castra::v1::MatchSettings s) {
  auto* tc = s.mutable_time_control();
  switch (tc->kind()) {
    case castra::v1::TimeControl::LIVE:
      if (tc->seconds_per_move() == 0) tc->set_seconds_per_move(kDefaultLiveSeconds);
      if (tc->disconnect_grace_seconds() == 0)
        tc->set_disconnect_grace_seconds(kDefaultGraceSeconds);
      if (tc->seconds_per_move() < 30 || tc->seconds_per_move() > 7200) {
        return fail(v1::ERROR_INVALID_REQUEST, "a live match gives 30 s to 2 h per move");
      }
      if (tc->disconnect_grace_seconds() < 10 || tc->disconnect_grace_seconds() > 3600) {
        return fail(v1::ERROR_INVALID_REQUEST, "the disconnect grace is 10 s to 1 h");
      }
      break;
    case castra::v1::TimeControl::CORRESPONDENCE:
      if (tc->seconds_per_move() == 0) tc->set_seconds_per_move(kDefaultCorrespondenceSeconds);
      tc->set_disconnect_grace_seconds(0);
      if (tc->seconds_per_move() < 3600 || tc->seconds_per_move() > 14 * 24 * 3600) {
        return fail(v1::ERROR_INVALID_REQUEST,
                    "a correspondence match gives 1 h to 14 days per move");
      }
      break;
    default:
      return fail(v1::ERROR_INVALID_REQUEST, "unknown time control");
  }
  if (s.spectator_delay_turns() > kMaxSpectatorDelay) {
    return fail(v1::ERROR_INVALID_REQUEST, "spectators may be at most 20 turns behind");
  }
  if (s.creator_side() != castra::v1::SIDE_A && s.creator_side() != castra::v1::SIDE_B) {
    return fail(v1::ERROR_INVALID_REQUEST, "unknown side");
  }
  if (!castra::v1::ComputerStrength_IsValid(s.computer())) {
    return fail(v1::ERROR_INVALID_REQUEST, "unknown computer strength");
  }
  s.clear_invitation_code();
  return s;
}

Lobby::Lobby(store::MatchStore& matches, const Scenarios& scenarios, ChatStore& chat,
             runtime::Runtime& runtime, store::MatchCounts& counts, Post to_service,
             const server::Clock& clock, LobbyOptions options, server::Metrics* metrics)
    : matches_(matches),
      scenarios_(scenarios),
      chat_(chat),
      runtime_(runtime),
      counts_(counts),
      to_service_(std::move(to_service)),
      clock_(clock),
      options_(options),
      metrics_(metrics) {}

int creator_side(const castra::v1::MatchSettings& settings) {
  return settings.creator_side() == castra::v1::SIDE_B ? 1 : 0;
}

int computer_side(const castra::v1::MatchSettings& settings) {
  return 1 - creator_side(settings);
}

std::string computer_name(castra::v1::ComputerStrength strength) {
  return strength == castra::v1::COMPUTER_RANDOM ? "Computer (random)" : "Computer (greedy)";
}

std::optional<Failure> Lobby::open_limit(std::int64_t account) {
  // A count, not the rows: rows carry their scenario.
  std::int64_t open = 0;
  const store::Status counted = counts_.open_created_by(account, &open);
  if (!counted.ok()) return storage_failure(counted, "count_open");
  if (open < options_.max_open_matches_per_account) return std::nullopt;
  return fail(v1::ERROR_TOO_MANY_MATCHES,
              "you have " + std::to_string(open) + " open matches; withdraw one first");
}

void Lobby::create(std::int64_t account, const std::string& scenario_name,
                   castra::v1::MatchSettings asked, bool is_private, Done<Created> done) {
  const ScenarioEntry* scenario = scenarios_.find(scenario_name);
  if (scenario == nullptr) {
    return done(fail(v1::ERROR_SCENARIO_NOT_FOUND, "no scenario named " + scenario_name));
  }
  auto settings = normalized_settings(std::move(asked));
  if (!settings) return done(settings.failure());

  if (auto refused = open_limit(account)) return done(*refused);

  std::string invitation_code;
  if (is_private) {
    invitation_code = random_invitation_code();
    settings->set_invitation_code(invitation_code);
  }
  // A random side is drawn now and kept in the settings (creator_side_random stays true).
  if (settings->creator_side_random()) {
    settings->set_creator_side(randombytes_uniform(2) == 1 ? castra::v1::SIDE_B
                                                           : castra::v1::SIDE_A);
  }
  store::MatchRow row = new_row(*scenario, *settings, account, clock_.now_ms());

  // The server's dice seed: drawn before anyone is seated; the runtime commits to it.
  store::Secrets secrets;
  secrets.server_seed.assign(32, '\0');
  randombytes_buf(secrets.server_seed.data(), secrets.server_seed.size());
  auto prepared = runtime_.prepare(std::move(row), std::move(secrets));
  if (!prepared) {
    spdlog::warn("event=match_refused scenario={} rule={} error=\"{}\"", scenario->name,
                 prepared.error().rule, prepared.error().message);
    return done(rule_refusal(prepared.error()));
  }
  const std::string id = prepared->row.id;
  const std::string side = creator_side(*settings) == 1 ? "B" : "A";
  runtime_.host(std::move(*prepared), [this, id, account, side, is_private,
                                       code = std::move(invitation_code), done = std::move(done)](
                                          runtime::Answer<std::shared_ptr<runtime::MatchHost>> a) {
    // On the store's writer thread: only post.
    to_service_([this, a = std::move(a), id, account, side, is_private, code, done] {
      if (!a) return done(failure_of(a, "create_match"));
      spdlog::info("event=match_created match={} creator={} scenario={} side={} private={}", id,
                   account, a.value()->seen()->row.scenario_name, side, is_private);
      refresh_counts();
      done(Created{a.value()->seen()->row, code});
    });
  });
}

std::vector<store::MatchRow> Lobby::list(MatchStatus status, const std::string& ruleset,
                                         int limit) {
  // Private matches, open ones whose creator has not sat down, and open ones against the
  // computer (nobody else may join them) are filtered out after the store's limit, so ask for
  // more.
  std::vector<store::MatchRow> rows;
  if (auto s = matches_.list_matches(status, std::min(limit * 4, 400), &rows); !s.ok()) {
    storage_failure(s, "list_matches");
  }
  std::vector<store::MatchRow> out;
  for (auto& r : rows) {
    if (!ruleset.empty() && r.ruleset != ruleset) continue;
    const castra::v1::MatchSettings settings = settings_of(r);
    if (!settings.invitation_code().empty()) continue;
    if (r.status == MatchStatus::kOpen && !r.player_a && !r.player_b) continue;
    if (r.status == MatchStatus::kOpen && settings.computer() != castra::v1::COMPUTER_NONE)
      continue;
    out.push_back(std::move(r));
    if (static_cast<int>(out.size()) >= limit) break;
  }
  return out;
}

std::vector<store::MatchRow> Lobby::mine(std::int64_t account, int limit) {
  std::vector<store::MatchRow> rows;
  if (auto s = matches_.matches_of_player(account, limit, &rows); !s.ok()) {
    storage_failure(s, "matches_of_player");
  }
  auto my_move = [account](const store::MatchRow& r) {
    const auto side = seat_of(r, account);
    return r.status == MatchStatus::kLive && side && to_act(r, *side);
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const auto& x, const auto& y) { return my_move(x) && !my_move(y); });
  return rows;
}

std::optional<store::MatchRow> Lobby::find(const std::string& match_id) {
  if (!well_formed_match_id(match_id)) return std::nullopt;
  if (auto host = runtime_.find(match_id)) return host->seen()->row;
  std::optional<store::MatchRow> row;
  if (auto s = matches_.find_match(match_id, &row); !s.ok()) storage_failure(s, "find_match");
  return row;
}

castra::v1::MatchSettings Lobby::settings_of(const store::MatchRow& row) const {
  castra::v1::MatchSettings settings;
  settings.ParseFromString(row.settings);
  return settings;
}

bool Lobby::invitation_ok(const store::MatchRow& row, const std::string& code) const {
  const std::string expected = settings_of(row).invitation_code();
  return expected.empty() || expected == code;
}

void Lobby::provide_entropy(std::int64_t account, const std::string& match_id,
                            const std::string& entropy, RowDone done) {
  auto row = find(match_id);
  if (!row) return done(fail(v1::ERROR_MATCH_NOT_FOUND, "no match " + match_id));
  if (!row->creator || *row->creator != account) {
    return done(fail(v1::ERROR_NOT_SEATED, "only the match's creator gives entropy this way"));
  }
  if (row->status != MatchStatus::kOpen)
    return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match has begun"));
  if (seat_of(*row, account)) {
    return done(fail(v1::ERROR_ENTROPY_ALREADY_GIVEN, "your entropy is already in"));
  }
  auto host = host_of(match_id);
  if (!host) return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match is not being played"));
  seat(host, creator_side(settings_of(*row)), account, entropy, std::move(done));
}

void Lobby::join(std::int64_t account, const std::string& match_id, const std::string& code,
                 const std::string& entropy, RowDone done) {
  auto row = find(match_id);
  if (!row) return done(fail(v1::ERROR_MATCH_NOT_FOUND, "no match " + match_id));
  if (!invitation_ok(*row, code)) {
    return done(fail(v1::ERROR_BAD_INVITATION, "this match needs its invitation code"));
  }
  if (row->status != MatchStatus::kOpen)
    return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match has begun"));
  if (settings_of(*row).computer() != castra::v1::COMPUTER_NONE) {
    return done(fail(v1::ERROR_MATCH_FULL, "this match is against the computer"));
  }
  if ((row->creator && *row->creator == account) || seat_of(*row, account)) {
    return done(fail(v1::ERROR_ALREADY_SEATED, "this is your own match"));
  }
  if (!row->player_a && !row->player_b) {
    return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the creator has not taken his seat yet"));
  }
  if (row->player_a && row->player_b) return done(fail(v1::ERROR_MATCH_FULL, "no free seat"));
  auto host = host_of(match_id);
  if (!host) return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match is not being played"));
  seat(host, row->player_a ? 1 : 0, account, entropy, std::move(done));
}

std::shared_ptr<runtime::MatchHost> Lobby::host_of(const std::string& match_id) {
  if (auto host = runtime_.find(match_id)) return host;
  return runtime_.load(match_id);
}

void Lobby::seat(const std::shared_ptr<runtime::MatchHost>& host, int side, std::int64_t account,
                 const std::string& entropy, RowDone done) {
  // The host takes one request at a time: a second join waits for the first one's commit,
  // and is then refused by the seat's rule.
  host->seat(side == 0 ? rules::Side::kA : rules::Side::kB, account, entropy,
             [this, host, done](runtime::Answer<runtime::Done> a) {
               to_service_([this, host, a = std::move(a), done] {
                 if (!a) return done(failure_of(a, "seat"));
                 const store::MatchRow seated = host->seen()->row;
                 spdlog::info("event=seated match={} a={} b={} status={}", seated.id,
                              seated.player_a.value_or(0), seated.player_b.value_or(0),
                              store::status_name(seated.status));
                 refresh_counts();
                 done(seated);
               });
             });
}

void Lobby::leave(std::int64_t account, const std::string& match_id, RowDone done) {
  auto row = find(match_id);
  if (!row) return done(fail(v1::ERROR_MATCH_NOT_FOUND, "no match " + match_id));
  const bool creator = row->creator && *row->creator == account;
  if (!creator && !seat_of(*row, account)) {
    return done(fail(v1::ERROR_NOT_SEATED, "you have no seat in this match"));
  }
  if (row->status != MatchStatus::kOpen || !creator) {
    return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match has begun; resign instead"));
  }
  auto host = host_of(match_id);
  if (!host) return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match is not being played"));
  end(host, "withdrawn by its creator", std::move(done));
}

void Lobby::end_by_operator(const std::string& match_id, const std::string& reason, RowDone done) {
  auto row = find(match_id);
  if (!row) return done(fail(v1::ERROR_MATCH_NOT_FOUND, "no match " + match_id));
  if (row->status == MatchStatus::kFinished || row->status == MatchStatus::kClosed) {
    return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match has already ended"));
  }
  auto host = host_of(match_id);
  if (!host) return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match is not being played"));
  end(host, reason, std::move(done));
}

void Lobby::end(const std::shared_ptr<runtime::MatchHost>& host, const std::string& reason,
                RowDone done) {
  host->abort(reason, [this, host, reason, done](runtime::Answer<runtime::Done> a) {
    to_service_([this, host, reason, a = std::move(a), done] {
      refresh_counts();
      if (!a) return done(failure_of(a, "end"));
      spdlog::info("event=match_closed match={} reason=\"{}\"", host->id(), reason);
      done(host->seen()->row);
    });
  });
}

void Lobby::post_chat(const store::MatchRow& row, Channel channel, std::int64_t author_id,
                      const std::string& author, const std::string& text, Done<ChatLine> done) {
  ChatLine line;
  line.match_id = row.id;
  line.channel = channel;
  line.author_id = author_id;
  line.author = author;
  line.text = text;
  line.sent_ms = clock_.now_ms();
  chat_.add(std::move(line), [done = std::move(done)](store::Status s, ChatLine stored) {
    if (!s.ok()) return done(storage_failure(s, "chat"));
    done(std::move(stored));
  });
}

Result<std::vector<ChatLine>> Lobby::chat_history(const std::string& match_id, Channel channel,
                                                  std::int64_t before_id, int limit) {
  store::Status s;
  auto lines = chat_.history(match_id, channel, before_id, limit, &s);
  if (!s.ok()) return storage_failure(s, "chat_history");
  return lines;
}

void Lobby::mute(const std::string& match_id, std::int64_t player, const std::string& name,
                 bool muted, Done<server::Ok> done) {
  const std::string key = accounts::name_key(name);
  auto stored = [this, match_id, player, done = std::move(done)](store::Status s) {
    if (!s.ok()) return done(storage_failure(s, "mute"));
    mutes_.erase({match_id, player});
    done(server::Ok{});
  };
  if (muted) {
    chat_.mute(match_id, player, key, std::move(stored));
  } else {
    chat_.unmute(match_id, player, key, std::move(stored));
  }
}

bool Lobby::muted(const std::string& match_id, std::int64_t player, const std::string& author) {
  auto key = std::make_pair(match_id, player);
  auto it = mutes_.find(key);
  if (it == mutes_.end()) {
    if (mutes_.size() >= 10000) mutes_.clear();  // a cache: bounded, refilled on demand
    store::Status s;
    it = mutes_.emplace(key, chat_.mutes(match_id, player, &s)).first;
  }
  return it->second.count(accounts::name_key(author)) != 0;
}

void Lobby::refresh_counts() {
  if (metrics_ == nullptr) return;
  std::array<std::int64_t, 4> n{};
  const auto at = [&](MatchStatus status) { return n[static_cast<std::size_t>(status)]; };
  if (counts_.by_status(&n).ok()) {
    metrics_->set_matches(at(MatchStatus::kOpen), at(MatchStatus::kLive),
                          at(MatchStatus::kFinished), at(MatchStatus::kClosed));
  }
}

}  // namespace castra::lobby
