#include "server/lobby/lobby.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "common/match/crypto.hpp"
#include "common/match/fair_dice.hpp"
#include "server/accounts/passwords.hpp"

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
constexpr std::size_t kInvitationLength = 10;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string random_hex(std::size_t bytes) {
  std::string raw(bytes, '\0');
  randombytes_buf(raw.data(), raw.size());
  return match::to_hex(std::string_view(raw));
}

// Crockford's base32 without the letters people misread.
std::string random_invitation_code() {
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  std::string code;
  for (std::size_t i = 0; i < kInvitationLength; ++i)
    code += kAlphabet[randombytes_uniform(32)];
  return code;
}

Failure storage_failure(const store::Status& s, const char* what) {
  spdlog::error("event=match_store_failed what={} code={} error=\"{}\"", what, s.code, s.message);
  return fail(v1::ERROR_INTERNAL, "the match database failed; try again");
}

Failure busy() {
  return fail(v1::ERROR_SERVER_BUSY, "this match is being changed; try again", 200);
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
             MatchRuntime& runtime, store::SqlAccess& sql, Post to_service, LobbyOptions options,
             server::Metrics* metrics)
    : matches_(matches),
      scenarios_(scenarios),
      chat_(chat),
      runtime_(runtime),
      sql_(sql),
      to_service_(std::move(to_service)),
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

Result<Created> Lobby::create(std::int64_t account, const std::string& scenario_name,
                              castra::v1::MatchSettings asked, bool is_private) {
  const ScenarioEntry* scenario = scenarios_.find(scenario_name);
  if (scenario == nullptr) {
    return fail(v1::ERROR_SCENARIO_NOT_FOUND, "no scenario named " + scenario_name);
  }
  auto settings = normalized_settings(std::move(asked));
  if (!settings) return settings.failure();

  // A count, not the rows: rows carry their scenario.
  std::int64_t open = 0;
  const store::Status counted = sql_.read([&](store::Db& db) {
    store::Status st;
    store::Statement q =
        db.prepare("SELECT count(*) FROM matches WHERE creator = ? AND status = 'open'", &st);
    if (!st.ok()) return st;
    q.bind(1, account);
    if (q.step(&st)) open = q.column_int(0);
    return st;
  });
  if (!counted.ok()) return storage_failure(counted, "count_open");
  if (open >= options_.max_open_matches_per_account) {
    return fail(v1::ERROR_TOO_MANY_MATCHES,
                "you have " + std::to_string(open) + " open matches; withdraw one first");
  }

  Created out;
  if (is_private) {
    out.invitation_code = random_invitation_code();
    settings->set_invitation_code(out.invitation_code);
  }
  // A random side is drawn now and kept in the settings (creator_side_random stays true).
  if (settings->creator_side_random()) {
    settings->set_creator_side(randombytes_uniform(2) == 1 ? castra::v1::SIDE_B
                                                           : castra::v1::SIDE_A);
  }
  // The server's dice seed: drawn before anyone is seated, committed to at once.
  match::Bytes32 seed{};
  randombytes_buf(seed.data(), seed.size());
  const match::Bytes32 commitment = match::dice_commitment(seed);

  store::MatchRow& row = out.row;
  row.id = random_hex(16);
  row.ruleset = scenario->ruleset;
  row.rules_version = scenario->rules_version;
  row.scenario_name = scenario->name;
  row.scenario = scenario->bytes;
  settings->SerializeToString(&row.settings);
  row.status = MatchStatus::kOpen;
  row.dice_commitment = std::string(match::as_view(commitment));
  row.creator = account;
  row.created_ms = row.updated_ms = now_ms();

  store::Secrets secrets;
  secrets.server_seed = std::string(match::as_view(seed));
  const store::Status s = runtime_.create(row, secrets);
  sodium_memzero(seed.data(), seed.size());
  sodium_memzero(secrets.server_seed.data(), secrets.server_seed.size());
  if (!s.ok()) return storage_failure(s, "create_match");
  spdlog::info("event=match_created match={} creator={} scenario={} side={} private={}", row.id,
               account, row.scenario_name, creator_side(*settings) == 1 ? "B" : "A", is_private);
  refresh_counts();
  return out;
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
  seat(*row, creator_side(settings_of(*row)), account, entropy, std::move(done));
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
  seat(*row, row->player_a ? 1 : 0, account, entropy, std::move(done));
}

void Lobby::seat(const store::MatchRow& row, int side, std::int64_t account,
                 const std::string& entropy, RowDone done) {
  // One change per match at a time: a second join waits for the first one's commit.
  if (busy_.count(row.id) != 0) return done(busy());
  busy_.insert(row.id);
  runtime_.seat(row, side, account, entropy,
                [this, id = row.id, done](store::Status s, store::MatchRow seated) {
                  to_service_([this, id, s, seated = std::move(seated), done] {
                    busy_.erase(id);
                    if (!s.ok()) return done(storage_failure(s, "seat"));
                    spdlog::info("event=seated match={} a={} b={} status={}", id,
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
  end(*row, "withdrawn by its creator", std::move(done));
}

void Lobby::end_by_operator(const std::string& match_id, const std::string& reason, RowDone done) {
  auto row = find(match_id);
  if (!row) return done(fail(v1::ERROR_MATCH_NOT_FOUND, "no match " + match_id));
  if (row->status == MatchStatus::kFinished || row->status == MatchStatus::kClosed) {
    return done(fail(v1::ERROR_MATCH_NOT_OPEN, "the match has already ended"));
  }
  end(*row, reason, std::move(done));
}

void Lobby::end(const store::MatchRow& row, const std::string& reason, RowDone done) {
  if (busy_.count(row.id) != 0) return done(busy());
  busy_.insert(row.id);
  runtime_.end(row, reason,
               [this, id = row.id, reason, done](store::Status s, store::MatchRow ended) {
                 to_service_([this, s, id, reason, ended = std::move(ended), done] {
                   busy_.erase(id);
                   refresh_counts();
                   if (!s.ok()) return done(storage_failure(s, "end"));
                   spdlog::info("event=match_closed match={} reason=\"{}\"", id, reason);
                   done(ended);
                 });
               });
}

Result<ChatLine> Lobby::post_chat(const store::MatchRow& row, Channel channel,
                                  std::int64_t author_id, const std::string& author,
                                  const std::string& text) {
  ChatLine line;
  line.match_id = row.id;
  line.channel = channel;
  line.author_id = author_id;
  line.author = author;
  line.text = text;
  line.sent_ms = now_ms();
  if (auto s = chat_.add(line); !s.ok()) return storage_failure(s, "chat");
  return line;
}

Result<std::vector<ChatLine>> Lobby::chat_history(const std::string& match_id, Channel channel,
                                                  std::int64_t before_id, int limit) {
  store::Status s;
  auto lines = chat_.history(match_id, channel, before_id, limit, &s);
  if (!s.ok()) return storage_failure(s, "chat_history");
  return lines;
}

Result<server::Ok> Lobby::mute(const std::string& match_id, std::int64_t player,
                               const std::string& name, bool muted) {
  const std::string key = accounts::name_key(name);
  const store::Status s =
      muted ? chat_.mute(match_id, player, key) : chat_.unmute(match_id, player, key);
  if (!s.ok()) return storage_failure(s, "mute");
  mutes_.erase({match_id, player});
  return server::Ok{};
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
  std::int64_t open = 0, live = 0, finished = 0, closed = 0;
  const store::Status s = sql_.read([&](store::Db& db) {
    store::Status st;
    store::Statement q = db.prepare("SELECT status, count(*) FROM matches GROUP BY status", &st);
    if (!st.ok()) return st;
    while (q.step(&st)) {
      const auto status = store::status_from_name(q.column_text(0));
      const std::int64_t n = q.column_int(1);
      if (status == MatchStatus::kOpen) open = n;
      if (status == MatchStatus::kLive) live = n;
      if (status == MatchStatus::kFinished) finished = n;
      if (status == MatchStatus::kClosed) closed = n;
    }
    return st;
  });
  if (s.ok()) metrics_->set_matches(open, live, finished, closed);
}

}  // namespace castra::lobby
