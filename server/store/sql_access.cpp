#include "server/store/sql_access.hpp"

namespace castra::store {

void StoreSqlAccess::write(Work work, Done done) {
  auto back = [post = post_, done](Status s) { post([done, s = std::move(s)] { done(s); }); };
  // try_submit, never submit: a full writer queue must not stall the service thread (it did,
  // and with it every client, until the writer drained).
  if (!store_.writer().try_submit(std::move(work), back)) back(queue_full());
}

Status StoreSqlAccess::read(const Work& work) {
  return store_.read(work);
}

void DirectSqlAccess::write(Work work, Done done) {
  Status outcome;
  {
    std::lock_guard lock(mutex_);
    outcome = db_.exec("SAVEPOINT access");
    if (outcome.ok()) {
      outcome = work(db_);
      if (!outcome.ok()) db_.exec("ROLLBACK TO access");
      const Status released = db_.exec("RELEASE access");
      if (outcome.ok()) outcome = released;
    }
  }
  done(std::move(outcome));
}

Status DirectSqlAccess::read(const Work& work) {
  std::lock_guard lock(mutex_);
  return work(db_);
}

}  // namespace castra::store
