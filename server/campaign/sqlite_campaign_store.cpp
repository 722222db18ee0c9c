#include "server/campaign/sqlite_campaign_store.hpp"

#include <memory>

namespace castra::campaign_server {

namespace v1 = castra::v1;

std::string status_word(v1::CampaignStatus status) {
  switch (status) {
    case v1::CAMPAIGN_OPEN:
      return "open";
    case v1::CAMPAIGN_LIVE:
      return "live";
    case v1::CAMPAIGN_FINISHED:
      return "finished";
    default:
      return "closed";
  }
}

namespace {

store::Status parse_rows(store::Statement& q, std::vector<v1::StoredCampaign>* out) {
  store::Status s;
  while (q.step(&s)) {
    v1::StoredCampaign c;
    if (!c.ParseFromString(q.column_blob(0))) return store::Status{1, "a campaign does not parse"};
    out->push_back(std::move(c));
  }
  return s;
}

store::Status ids(store::Db& db, const std::string& sql,
                  const std::function<void(store::Statement&)>& bind,
                  std::vector<std::string>* out) {
  store::Status s;
  store::Statement q = db.prepare(sql, &s);
  if (!s.ok()) return s;
  bind(q);
  while (q.step(&s))
    out->push_back(q.column_text(0));
  return s;
}

}  // namespace

void SqliteCampaignStore::put(const v1::StoredCampaign& state, Done done) {
  auto row = std::make_shared<v1::StoredCampaign>(state);
  sql_.write(
      [row](store::Db& db) {
        store::Status s;
        store::Statement q = db.prepare(
            "INSERT OR REPLACE INTO campaigns(id, definition, ruleset, status, creator, player_a, "
            "player_b, battle_match_id, is_private, vacancy, state, created_ms, updated_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            &s);
        if (!s.ok()) return s;
        q.bind(1, row->campaign_id())
            .bind(2, row->definition().name())
            .bind(3, row->definition().ruleset())
            .bind(4, status_word(row->status()))
            .bind(5, row->creator());
        row->player_a() != 0 ? q.bind(6, row->player_a()) : q.bind_null(6);
        row->player_b() != 0 ? q.bind(7, row->player_b()) : q.bind_null(7);
        if (row->stage() == v1::STAGE_FIGHTING && !row->battles().empty()) {
          q.bind(8, row->battles().rbegin()->match_id());
        } else {
          q.bind_null(8);
        }
        return q.bind(9, std::int64_t{row->settings().invitation_code().empty() ? 0 : 1})
            .bind(10, std::int64_t{row->vacancy() ? 1 : 0})
            .bind_blob(11, row->SerializeAsString())
            .bind(12, row->created_ms())
            .bind(13, row->updated_ms())
            .run();
      },
      std::move(done));
}

store::Status SqliteCampaignStore::find(const std::string& id,
                                        std::optional<v1::StoredCampaign>* out) {
  out->reset();
  return sql_.read([&](store::Db& db) {
    store::Status s;
    store::Statement q = db.prepare("SELECT state FROM campaigns WHERE id = ?", &s);
    if (!s.ok()) return s;
    q.bind(1, id);
    std::vector<v1::StoredCampaign> rows;
    s = parse_rows(q, &rows);
    if (s.ok() && !rows.empty()) *out = std::move(rows.front());
    return s;
  });
}

store::Status SqliteCampaignStore::unfinished(std::vector<v1::StoredCampaign>* out) {
  return sql_.read([&](store::Db& db) {
    store::Status s;
    store::Statement q =
        db.prepare("SELECT state FROM campaigns WHERE status IN ('open', 'live')", &s);
    if (!s.ok()) return s;
    return parse_rows(q, out);
  });
}

store::Status SqliteCampaignStore::ids_by_status(const std::string& status, int limit,
                                                 std::vector<std::string>* out) {
  return sql_.read([&](store::Db& db) {
    return ids(
        db,
        "SELECT id FROM campaigns WHERE status = ? AND is_private = 0 "
        "ORDER BY updated_ms DESC LIMIT ?",
        [&](store::Statement& q) { q.bind(1, status).bind(2, std::int64_t{limit}); }, out);
  });
}

store::Status SqliteCampaignStore::ids_of_player(std::int64_t account, int limit,
                                                 std::vector<std::string>* out) {
  return sql_.read([&](store::Db& db) {
    return ids(
        db,
        "SELECT id FROM campaigns WHERE creator = ?1 OR player_a = ?1 OR player_b = ?1 "
        "ORDER BY updated_ms DESC LIMIT ?2",
        [&](store::Statement& q) { q.bind(1, account).bind(2, std::int64_t{limit}); }, out);
  });
}

}  // namespace castra::campaign_server
