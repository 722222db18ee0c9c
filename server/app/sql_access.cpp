#include "server/app/sql_access.hpp"

namespace castra::server {

store::Status StoreSqlAccess::write(const Work& work) {
  return store_.writer().run(work);
}

store::Status StoreSqlAccess::read(const Work& work) {
  return store_.read(work);
}

store::Status DirectSqlAccess::write(const Work& work) {
  std::lock_guard lock(mutex_);
  if (auto s = db_.exec("SAVEPOINT access"); !s.ok()) return s;
  const store::Status outcome = work(db_);
  if (!outcome.ok()) {
    db_.exec("ROLLBACK TO access");
    db_.exec("RELEASE access");
    return outcome;
  }
  return db_.exec("RELEASE access");
}

store::Status DirectSqlAccess::read(const Work& work) {
  std::lock_guard lock(mutex_);
  return work(db_);
}

}  // namespace castra::server
