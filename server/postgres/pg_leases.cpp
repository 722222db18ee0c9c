#include "server/postgres/pg_leases.hpp"

namespace castra::postgres {

using store::Status;

namespace {

// A PostgreSQL array literal of `values` (match ids are hex digits, epochs numbers: nothing
// in them needs quoting).
template <class T, class F>
std::string array_of(const std::vector<T>& values, F&& text) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += (i == 0 ? "" : ",") + text(values[i]);
  }
  return out + "}";
}

}  // namespace

std::optional<std::int64_t> LeaseBook::epoch_of(const std::string& match_id) const {
  std::lock_guard lock(mu_);
  auto it = held_.find(match_id);
  if (it == held_.end()) return std::nullopt;
  return it->second.epoch;
}

void LeaseBook::hold(const std::string& match_id, std::int64_t epoch) {
  std::lock_guard lock(mu_);
  held_[match_id] = Held{match_id, epoch, std::chrono::steady_clock::now()};
}

bool LeaseBook::forget(const std::string& match_id) {
  std::lock_guard lock(mu_);
  return held_.erase(match_id) > 0;
}

void LeaseBook::lost(const std::string& match_id) {
  std::function<void(const std::string&)> hook;
  {
    std::lock_guard lock(mu_);
    if (held_.erase(match_id) == 0) return;
    hook = on_lost_;
  }
  if (hook) hook(match_id);
}

std::vector<LeaseBook::Held> LeaseBook::held() const {
  std::lock_guard lock(mu_);
  std::vector<Held> out;
  out.reserve(held_.size());
  for (const auto& [id, h] : held_)
    out.push_back(h);
  return out;
}

void LeaseBook::set_on_lost(std::function<void(const std::string&)> on_lost) {
  std::lock_guard lock(mu_);
  on_lost_ = std::move(on_lost);
}

Status lease_new_match(pqxx::transaction_base& tx, const LeaseBook& book,
                       const std::string& match_id) {
  Params()
      .text(match_id)
      .text(book.node())
      .integer(book.lease_ms())
      .run(tx,
           "INSERT INTO match_leases(match_id, node, epoch, expires_at) "
           "VALUES ($1, $2, 1, now() + $3::bigint * interval '1 millisecond')");
  return Status::success();
}

namespace {

// `sql` selects and locks the lease row of `key` ($1) if it still names this node ($2) at
// the epoch it holds ($3); `what` names the lease in the refusal.
Status fenced(pqxx::transaction_base& tx, const LeaseBook& book, const std::string& key,
              const char* sql, const std::string& what) {
  const std::optional<std::int64_t> epoch = book.epoch_of(key);
  if (!epoch) {
    return Status{store::status_codes::kFenced, "node " + book.node() + " does not hold " + what};
  }
  const pqxx::result r = Params().text(key).text(book.node()).integer(*epoch).run(tx, sql);
  if (r.empty()) {
    return Status{store::status_codes::kFenced, "node " + book.node() + " lost " + what +
                                                    " (epoch " + std::to_string(*epoch) +
                                                    ") to another node"};
  }
  return Status::success();
}

}  // namespace

Status fence(pqxx::transaction_base& tx, const LeaseBook& book, const std::string& match_id) {
  return fenced(tx, book, match_id,
                "SELECT 1 FROM match_leases WHERE match_id = $1 AND node = $2 AND epoch = $3 "
                "FOR KEY SHARE",
                "the lease on match " + match_id);
}

Status fence_role(pqxx::transaction_base& tx, const LeaseBook& roles, const std::string& role) {
  return fenced(tx, roles, role,
                "SELECT 1 FROM cluster_roles WHERE role = $1 AND node = $2 AND epoch = $3 "
                "FOR SHARE",
                "the " + role + " role");
}

std::set<std::string> renew_leases(pqxx::transaction_base& tx, const LeaseBook& book,
                                   const std::vector<LeaseBook::Held>& held) {
  const pqxx::result r =
      Params()
          .text(book.node())
          .integer(book.lease_ms())
          .text(array_of(held, [](const LeaseBook::Held& h) { return h.match_id; }))
          .text(array_of(held, [](const LeaseBook::Held& h) { return std::to_string(h.epoch); }))
          .run(tx,
               "UPDATE match_leases l SET expires_at = now() + $2::bigint * interval "
               "'1 millisecond' FROM unnest($3::text[], $4::bigint[]) AS h(id, epoch) "
               "WHERE l.match_id = h.id AND l.epoch = h.epoch AND l.node = $1 "
               "RETURNING l.match_id");
  std::set<std::string> renewed;
  for (const auto& row : r)
    renewed.insert(row[0].as<std::string>());
  return renewed;
}

}  // namespace castra::postgres
