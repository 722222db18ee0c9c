// PgAccess: how the service thread's own tables reach PostgreSQL, as store::SqlAccess does for
// SQLite: a write is a job for the PgMatchStore's one writer (sharing its group commits with
// the matches'), answered after its commit on the caller's thread through `post`; a full queue
// answers store::queue_full() at once, never waiting. Reads run on the store's read connection.
// write() from the service thread; read() from any thread but the writer's.
#pragma once

#include <functional>
#include <utility>

#include "server/postgres/pg_match_store.hpp"

namespace castra::postgres {

class PgAccess {
 public:
  using Work = PgWriter::Work;
  using Done = std::function<void(store::Status)>;
  using Post = std::function<void(std::function<void()>)>;

  PgAccess(PgMatchStore& store, Post post) : store_(store), post_(std::move(post)) {}

  void write(Work work, Done done) {
    auto back = [post = post_, done = std::move(done)](store::Status s) {
      post([done, s = std::move(s)] { done(s); });
    };
    if (!store_.writer().try_submit(std::move(work), back)) back(store::queue_full());
  }
  store::Status read(const std::function<store::Status(pqxx::transaction_base&)>& work) {
    return store_.read(work);
  }
  // Cluster mode's roles (PgMatchStore::roles()); null for one server alone.
  const std::shared_ptr<LeaseBook>& roles() const { return store_.roles(); }

 private:
  PgMatchStore& store_;
  Post post_;
};

}  // namespace castra::postgres
