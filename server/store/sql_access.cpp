#include "server/store/sql_access.hpp"

namespace castra::store {

Status StoreSqlAccess::write(const Work& work) {
  return store_.writer().run(work);
}

Status StoreSqlAccess::read(const Work& work) {
  return store_.read(work);
}

Status DirectSqlAccess::write(const Work& work) {
  std::lock_guard lock(mutex_);
  if (auto s = db_.exec("SAVEPOINT access"); !s.ok()) return s;
  const Status outcome = work(db_);
  if (!outcome.ok()) {
    db_.exec("ROLLBACK TO access");
    db_.exec("RELEASE access");
    return outcome;
  }
  return db_.exec("RELEASE access");
}

Status DirectSqlAccess::read(const Work& work) {
  std::lock_guard lock(mutex_);
  return work(db_);
}

}  // namespace castra::store
