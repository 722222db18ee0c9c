#include "server/store/sqlite.hpp"

#include <sqlite3.h>

#include <utility>

namespace castra::store {

namespace {
Status status_of(sqlite3* db, int code) {
  if (code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW) return Status::success();
  return Status{code, db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code)};
}
}  // namespace

std::optional<Db> Db::open(const std::string& path, bool create, Status* status) {
  DbFlags flags;
  flags.create = create;
  return open(path, flags, status);
}

std::optional<Db> Db::open(const std::string& path, const DbFlags& flags, Status* status) {
  sqlite3* raw = nullptr;
  const int mode = flags.read_only
                       ? SQLITE_OPEN_READONLY
                       : SQLITE_OPEN_READWRITE | (flags.create ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &raw, mode | SQLITE_OPEN_NOMUTEX,
                                 flags.vfs.empty() ? nullptr : flags.vfs.c_str());
  if (rc != SQLITE_OK) {
    *status = Status{rc, raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)};
    sqlite3_close(raw);
    return std::nullopt;
  }
  sqlite3_extended_result_codes(raw, 1);
  *status = Status::success();
  return Db(raw);
}

Db::Db(sqlite3* db)
    : db_(db), cache_(std::make_unique<std::unordered_map<std::string, Statement>>()) {}
Db::Db(Db&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), cache_(std::move(other.cache_)) {}
Db& Db::operator=(Db&& other) noexcept {
  if (this != &other) {
    close();
    db_ = std::exchange(other.db_, nullptr);
    cache_ = std::move(other.cache_);
  }
  return *this;
}
Db::~Db() {
  close();
}

// Cached statements are finalized first: sqlite3_close refuses a connection that has any.
void Db::close() {
  if (cache_) cache_->clear();
  sqlite3_close(db_);
  db_ = nullptr;
}

Status Db::exec(std::string_view sql) {
  char* err = nullptr;
  const std::string owned(sql);
  const int rc = sqlite3_exec(db_, owned.c_str(), nullptr, nullptr, &err);
  Status s;
  if (rc != SQLITE_OK) s = Status{rc, err != nullptr ? err : sqlite3_errstr(rc)};
  sqlite3_free(err);
  return s;
}

Statement Db::prepare(std::string_view sql, Status* status) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  *status = status_of(db_, rc);
  return Statement(rc == SQLITE_OK ? stmt : nullptr);
}

Lease Db::statement(std::string_view sql, Status* status) {
  auto it = cache_->find(std::string(sql));
  if (it == cache_->end()) {
    Statement fresh = prepare(sql, status);
    if (!status->ok()) return Lease();
    it = cache_->emplace(std::string(sql), std::move(fresh)).first;
  }
  *status = Status::success();
  return Lease(&it->second);
}

bool Db::autocommit() const {
  return sqlite3_get_autocommit(db_) != 0;
}

std::int64_t Db::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}
int Db::changes() const {
  return sqlite3_changes(db_);
}
std::string Db::error_message() const {
  return sqlite3_errmsg(db_);
}

Statement::Statement(Statement&& other) noexcept : stmt_(std::exchange(other.stmt_, nullptr)) {}
Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}
Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int i, std::int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Statement& Statement::bind(int i, std::string_view text) {
  sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind_blob(int i, std::string_view bytes) {
  sqlite3_bind_blob(stmt_, i, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind_null(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}

Statement& Statement::bind_real(int i, double v) {
  sqlite3_bind_double(stmt_, i, v);
  return *this;
}

bool Statement::step(Status* status) {
  const int rc = sqlite3_step(stmt_);
  *status = status_of(sqlite3_db_handle(stmt_), rc);
  return rc == SQLITE_ROW;
}

Status Statement::run() {
  Status s;
  while (step(&s)) {
  }
  reset();
  return s;
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::column_int(int i) const {
  return sqlite3_column_int64(stmt_, i);
}
double Statement::column_real(int i) const {
  return sqlite3_column_double(stmt_, i);
}
std::string Statement::column_text(int i) const {
  const auto* p = sqlite3_column_text(stmt_, i);
  return p != nullptr ? std::string(reinterpret_cast<const char*>(p),
                                    static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)))
                      : std::string();
}
std::string Statement::column_blob(int i) const {
  const void* p = sqlite3_column_blob(stmt_, i);
  return p != nullptr ? std::string(static_cast<const char*>(p),
                                    static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)))
                      : std::string();
}
bool Statement::column_is_null(int i) const {
  return sqlite3_column_type(stmt_, i) == SQLITE_NULL;
}

Lease::Lease(Lease&& other) noexcept : stmt_(std::exchange(other.stmt_, nullptr)) {}
Lease& Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    if (stmt_ != nullptr) stmt_->reset();
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}
Lease::~Lease() {
  if (stmt_ != nullptr) stmt_->reset();
}

Transaction::Transaction(Db& db) : db_(db), begun_(db.exec("BEGIN IMMEDIATE")) {}
Transaction::~Transaction() {
  if (!done_ && begun_.ok()) db_.exec("ROLLBACK");
}
Status Transaction::commit() {
  Status s = db_.exec("COMMIT");
  if (s.ok()) done_ = true;
  return s;
}

}  // namespace castra::store
