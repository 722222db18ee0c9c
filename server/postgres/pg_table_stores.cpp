#include "server/postgres/pg_table_stores.hpp"

#include <algorithm>
#include <climits>
#include <memory>

#include "server/postgres/pg_notices.hpp"
#include "server/ratings/glicko2.hpp"
#include "server/ratings/rating_store.hpp"

namespace castra::postgres {

namespace v1 = castra::v1;
using store::Status;
using Tx = pqxx::transaction_base;

void PgChatStore::add(lobby::ChatLine line, std::function<void(Status, lobby::ChatLine)> done) {
  // The id is given on the writer thread and read by `done` after the commit.
  auto stored = std::make_shared<lobby::ChatLine>(std::move(line));
  sql_.write(
      [stored](Tx& tx) {
        const pqxx::result r =
            Params()
                .text(stored->match_id)
                .integer(static_cast<std::int64_t>(stored->channel))
                .integer(stored->author_id)
                .text(stored->author)
                .text(stored->text)
                .integer(stored->sent_ms)
                .run(tx,
                     "INSERT INTO chat_messages(match_id, channel, author_id, author, body, "
                     "sent_ms) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id");
        stored->id = r[0][0].as<std::int64_t>();
        return Status::success();
      },
      [stored, done = std::move(done)](Status s) { done(s, std::move(*stored)); });
}

std::vector<lobby::ChatLine> PgChatStore::history(const std::string& match_id,
                                                  lobby::Channel channel, std::int64_t before_id,
                                                  int limit, Status* status) {
  std::vector<lobby::ChatLine> out;
  *status = sql_.read([&](Tx& tx) {
    for (const auto& q : Params()
                             .text(match_id)
                             .integer(static_cast<std::int64_t>(channel))
                             .integer(before_id > 0 ? before_id : INT64_MAX)
                             .limit(limit)
                             .run(tx,
                                  "SELECT id, author_id, author, body, sent_ms FROM chat_messages "
                                  "WHERE match_id = $1 AND channel = $2 AND id < $3 "
                                  "ORDER BY id DESC LIMIT $4")) {
      lobby::ChatLine line;
      line.id = q[0].as<std::int64_t>();
      line.match_id = match_id;
      line.channel = channel;
      line.author_id = q[1].as<std::int64_t>();
      line.author = q[2].as<std::string>();
      line.text = q[3].as<std::string>();
      line.sent_ms = q[4].as<std::int64_t>();
      out.push_back(std::move(line));
    }
    return Status::success();
  });
  std::reverse(out.begin(), out.end());
  return out;
}

void PgChatStore::mute(const std::string& match_id, std::int64_t account_id,
                       const std::string& muted_key, Done done) {
  sql_.write(
      [match_id, account_id, muted_key](Tx& tx) {
        Params()
            .text(match_id)
            .integer(account_id)
            .text(muted_key)
            .run(tx,
                 "INSERT INTO chat_mutes(match_id, account_id, muted_key) VALUES ($1, $2, $3) "
                 "ON CONFLICT DO NOTHING");
        return Status::success();
      },
      std::move(done));
}

void PgChatStore::unmute(const std::string& match_id, std::int64_t account_id,
                         const std::string& muted_key, Done done) {
  sql_.write(
      [match_id, account_id, muted_key](Tx& tx) {
        Params()
            .text(match_id)
            .integer(account_id)
            .text(muted_key)
            .run(tx,
                 "DELETE FROM chat_mutes WHERE match_id = $1 AND account_id = $2 AND muted_key = "
                 "$3");
        return Status::success();
      },
      std::move(done));
}

std::set<std::string> PgChatStore::mutes(const std::string& match_id, std::int64_t account_id,
                                         Status* status) {
  std::set<std::string> out;
  *status = sql_.read([&](Tx& tx) {
    for (const auto& q :
         Params()
             .text(match_id)
             .integer(account_id)
             .run(tx, "SELECT muted_key FROM chat_mutes WHERE match_id = $1 AND account_id = $2")) {
      out.insert(q[0].as<std::string>());
    }
    return Status::success();
  });
  return out;
}

namespace {

Status parse_campaigns(const pqxx::result& r, std::vector<v1::StoredCampaign>* out) {
  for (const auto& q : r) {
    v1::StoredCampaign c;
    if (!c.ParseFromString(bytes_of(q[0]))) {
      return Status{store::status_codes::kError, "a campaign does not parse"};
    }
    out->push_back(std::move(c));
  }
  return Status::success();
}

}  // namespace

void PgCampaignStore::put(const v1::StoredCampaign& state, Done done) {
  auto row = std::make_shared<v1::StoredCampaign>(state);
  sql_.write(
      [row, roles = sql_.roles()](Tx& tx) {
        // In a cluster only the node holding the campaigns role writes them.
        if (roles) {
          if (Status s = fence_role(tx, *roles, kCampaignsRole); !s.ok()) return s;
        }
        Params p;
        p.text(row->campaign_id())
            .text(row->definition().name())
            .text(row->definition().ruleset())
            .text(campaign_server::status_word(row->status()))
            .integer(row->creator());
        row->player_a() != 0 ? p.integer(row->player_a()) : p.null();
        row->player_b() != 0 ? p.integer(row->player_b()) : p.null();
        if (row->stage() == v1::STAGE_FIGHTING && !row->battles().empty()) {
          p.text(row->battles().rbegin()->match_id());
        } else {
          p.null();
        }
        p.integer(row->settings().invitation_code().empty() ? 0 : 1)
            .integer(row->vacancy() ? 1 : 0)
            .bytes(row->SerializeAsString())
            .integer(row->created_ms())
            .integer(row->updated_ms());
        p.run(tx,
              "INSERT INTO campaigns(id, definition, ruleset, status, creator, player_a, "
              "player_b, battle_match_id, is_private, vacancy, state, created_ms, updated_ms) "
              "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) "
              "ON CONFLICT (id) DO UPDATE SET definition = excluded.definition, "
              "ruleset = excluded.ruleset, status = excluded.status, creator = excluded.creator, "
              "player_a = excluded.player_a, player_b = excluded.player_b, "
              "battle_match_id = excluded.battle_match_id, is_private = excluded.is_private, "
              "vacancy = excluded.vacancy, state = excluded.state, "
              "created_ms = excluded.created_ms, updated_ms = excluded.updated_ms");
        if (roles) notify_campaign_changed(tx, roles->node(), row->campaign_id());
        return Status::success();
      },
      std::move(done));
}

Status PgCampaignStore::find(const std::string& id, std::optional<v1::StoredCampaign>* out) {
  out->reset();
  return sql_.read([&](Tx& tx) {
    std::vector<v1::StoredCampaign> rows;
    const Status s = parse_campaigns(
        Params().text(id).run(tx, "SELECT state FROM campaigns WHERE id = $1"), &rows);
    if (s.ok() && !rows.empty()) *out = std::move(rows.front());
    return s;
  });
}

Status PgCampaignStore::unfinished(std::vector<v1::StoredCampaign>* out) {
  return sql_.read([&](Tx& tx) {
    return parse_campaigns(tx.exec("SELECT state FROM campaigns WHERE status IN ('open', 'live')"),
                           out);
  });
}

Status PgCampaignStore::ids_by_status(const std::string& status, int limit,
                                      std::vector<std::string>* out) {
  return sql_.read([&](Tx& tx) {
    for (const auto& q : Params().text(status).limit(limit).run(
             tx,
             "SELECT id FROM campaigns WHERE status = $1 AND is_private = 0 "
             "ORDER BY updated_ms DESC LIMIT $2")) {
      out->push_back(q[0].as<std::string>());
    }
    return Status::success();
  });
}

Status PgCampaignStore::ids_of_player(std::int64_t account, int limit,
                                      std::vector<std::string>* out) {
  return sql_.read([&](Tx& tx) {
    for (const auto& q : Params().integer(account).limit(limit).run(
             tx,
             "SELECT id FROM campaigns WHERE creator = $1 OR player_a = $1 OR player_b = $1 "
             "ORDER BY updated_ms DESC LIMIT $2")) {
      out->push_back(q[0].as<std::string>());
    }
    return Status::success();
  });
}

void PgTargetStore::set(std::int64_t account_id, const notify::Targets& targets,
                        std::int64_t now_ms, Done done) {
  sql_.write(
      [account_id, targets, now_ms](Tx& tx) {
        if (targets.webhook_url.empty() && targets.email.empty()) {
          Params()
              .integer(account_id)
              .run(tx, "DELETE FROM notification_targets WHERE account_id = $1");
          return Status::success();
        }
        Params()
            .integer(account_id)
            .text(targets.webhook_url)
            .text(targets.email)
            .integer(now_ms)
            .run(tx,
                 "INSERT INTO notification_targets(account_id, webhook_url, email, updated_ms) "
                 "VALUES ($1, $2, $3, $4) ON CONFLICT (account_id) DO UPDATE SET "
                 "webhook_url = excluded.webhook_url, email = excluded.email, "
                 "updated_ms = excluded.updated_ms");
        return Status::success();
      },
      std::move(done));
}

notify::Targets PgTargetStore::find(std::int64_t account_id, Status* status) {
  notify::Targets out;
  *status = sql_.read([&](Tx& tx) {
    const pqxx::result r =
        Params()
            .integer(account_id)
            .run(tx, "SELECT webhook_url, email FROM notification_targets WHERE account_id = $1");
    if (!r.empty()) {
      out.webhook_url = r[0][0].as<std::string>();
      out.email = r[0][1].as<std::string>();
    }
    return Status::success();
  });
  return out;
}

Status PgPlayerRecords::page(const std::string& name_key,
                             std::optional<ratings::PlayerAccount>* account,
                             std::vector<ratings::FinishedMatch>* matches,
                             std::vector<ratings::StoredRating>* stored) {
  account->reset();
  matches->clear();
  stored->clear();
  return sql_.read([&](Tx& tx) {
    const pqxx::result who = Params().text(name_key).run(
        tx, "SELECT id, name, created_ms FROM accounts WHERE name_key = $1");
    if (who.empty()) return Status::success();
    const std::int64_t id = who[0][0].as<std::int64_t>();
    *account =
        ratings::PlayerAccount{id, who[0][1].as<std::string>(), who[0][2].as<std::int64_t>()};
    for (const auto& q : Params().integer(id).run(
             tx,
             "SELECT m.id, m.ruleset, m.scenario_name, m.player_a, m.player_b, m.settings, "
             "m.outcome, m.updated_ms, r.match_id IS NOT NULL, r.rating_a, r.new_rating_a, "
             "r.rating_b, r.new_rating_b FROM matches m "
             "LEFT JOIN rated_matches r ON r.match_id = m.id "
             "WHERE m.status = 'finished' AND (m.player_a = $1 OR m.player_b = $1) "
             "ORDER BY m.updated_ms DESC, m.id")) {
      ratings::FinishedMatch m;
      m.id = q[0].as<std::string>();
      m.ruleset = q[1].as<std::string>();
      m.scenario = q[2].as<std::string>();
      const bool is_a = !q[3].is_null() && q[3].as<std::int64_t>() == id;
      m.side = is_a ? 0 : 1;
      const int other = is_a ? 4 : 3;
      if (!q[other].is_null()) m.opponent = q[other].as<std::int64_t>();
      m.settings = bytes_of(q[5]);
      m.outcome = q[6].is_null() ? std::string() : bytes_of(q[6]);
      m.ended_ms = q[7].as<std::int64_t>();
      m.rated = q[8].as<bool>();
      if (m.rated) {
        m.rating_change =
            is_a ? q[10].as<double>() - q[9].as<double>() : q[12].as<double>() - q[11].as<double>();
      }
      matches->push_back(std::move(m));
    }
    for (const auto& q : Params().integer(id).run(
             tx,
             "SELECT ruleset, rating, deviation, volatility, games FROM ratings "
             "WHERE account_id = $1 ORDER BY ruleset")) {
      stored->push_back(ratings::StoredRating{
          q[0].as<std::string>(),
          ratings::Rating{q[1].as<double>(), q[2].as<double>(), q[3].as<double>()},
          q[4].as<int>()});
    }
    return Status::success();
  });
}

namespace {

ratings::Rating current(Tx& tx, std::int64_t account, const std::string& ruleset) {
  const pqxx::result r = Params().integer(account).text(ruleset).run(
      tx,
      "SELECT rating, deviation, volatility FROM ratings WHERE account_id = $1 AND ruleset = $2");
  if (r.empty()) return ratings::Rating{};
  return ratings::Rating{r[0][0].as<double>(), r[0][1].as<double>(), r[0][2].as<double>()};
}

void save(Tx& tx, std::int64_t account, const std::string& ruleset, const ratings::Rating& r,
          std::int64_t now_ms) {
  Params()
      .integer(account)
      .text(ruleset)
      .real(r.rating)
      .real(r.deviation)
      .real(r.volatility)
      .integer(now_ms)
      .run(tx,
           "INSERT INTO ratings(account_id, ruleset, rating, deviation, volatility, games, "
           "updated_ms) VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (account_id, ruleset) "
           "DO UPDATE SET rating = $3, deviation = $4, volatility = $5, "
           "games = ratings.games + 1, updated_ms = $6");
}

}  // namespace

Status rate_finished_match(Tx& tx, const store::MatchRow& row) {
  if (!ratings::rated(row)) return Status::success();
  const double s_a = *ratings::score_a(row);
  const ratings::Rating a = current(tx, *row.player_a, row.ruleset);
  const ratings::Rating b = current(tx, *row.player_b, row.ruleset);
  // Each from both ratings as they stood before the match, as on SQLite.
  const ratings::Rating new_a = ratings::update(a, {{b, s_a}});
  const ratings::Rating new_b = ratings::update(b, {{a, 1.0 - s_a}});
  const pqxx::result inserted =
      Params()
          .text(row.id)
          .text(row.ruleset)
          .integer(*row.player_a)
          .integer(*row.player_b)
          .real(s_a)
          .real(a.rating)
          .real(b.rating)
          .real(new_a.rating)
          .real(new_b.rating)
          .integer(row.updated_ms)
          .run(tx,
               "INSERT INTO rated_matches(match_id, ruleset, player_a, player_b, score_a, "
               "rating_a, rating_b, new_rating_a, new_rating_b, rated_ms) "
               "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING");
  // Already rated (an end written twice): the ratings stay as they are.
  if (inserted.affected_rows() != 1) return Status::success();
  save(tx, *row.player_a, row.ruleset, new_a, row.updated_ms);
  save(tx, *row.player_b, row.ruleset, new_b, row.updated_ms);
  return Status::success();
}

}  // namespace castra::postgres
