#include "tests/store/power_loss_vfs.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "server/store/checksum_vfs.hpp"

namespace castra::store::test {

namespace {

// One write or truncate not yet synced, with what it replaced, so that a reboot can take the
// file back to its last synced state and then replay the operations that "reached the disk".
// The real file always holds every write (it plays the operating system's page cache).
struct Op {
  bool truncate = false;
  sqlite3_int64 offset = 0;  // a write's offset, a truncate's new size
  std::string data;          // a write's bytes
  sqlite3_int64 old_size = 0;
  std::string old_bytes;  // the bytes the write overwrote, or the truncate cut off
};

struct Power {
  std::mutex mutex;
  std::map<std::string, std::vector<Op>> unsynced;  // by file name
  std::set<std::string> databases;                  // main database files seen
  std::uint64_t ops = 0;
  std::uint64_t fail_at = 0;
  bool off = false;
  int open_files = 0;
};

Power& power() {
  static Power p;
  return p;
}

struct PowerFile {
  sqlite3_file base;
  sqlite3_file* real;  // the default VFS's file, right after this struct
  std::string* name;   // owned; nullptr for a temporary file, which is not tracked
};

sqlite3_vfs* real_vfs(sqlite3_vfs* vfs) {
  return static_cast<sqlite3_vfs*>(vfs->pAppData);
}
PowerFile* of(sqlite3_file* f) {
  return reinterpret_cast<PowerFile*>(f);
}
sqlite3_file* real(sqlite3_file* f) {
  return of(f)->real;
}

// Counts one write, truncate or sync; false when the power is (or goes) off with it.
bool count_op(Power& p) {
  if (p.off) return false;
  if (++p.ops == p.fail_at) p.off = true;
  return !p.off;
}

int x_close(sqlite3_file* f) {
  const int rc = real(f)->pMethods->xClose(real(f));
  Power& p = power();
  std::lock_guard lock(p.mutex);
  delete of(f)->name;
  --p.open_files;
  f->pMethods = nullptr;
  return rc;
}

int x_read(sqlite3_file* f, void* buf, int amount, sqlite3_int64 offset) {
  Power& p = power();
  {
    std::lock_guard lock(p.mutex);
    if (p.off) return SQLITE_IOERR_READ;
  }
  return real(f)->pMethods->xRead(real(f), buf, amount, offset);
}

int x_write(sqlite3_file* f, const void* buf, int amount, sqlite3_int64 offset) {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  if (!count_op(p)) return SQLITE_IOERR_WRITE;
  sqlite3_file* r = real(f);
  if (of(f)->name == nullptr) return r->pMethods->xWrite(r, buf, amount, offset);
  Op op;
  op.offset = offset;
  op.data.assign(static_cast<const char*>(buf), static_cast<std::size_t>(amount));
  if (int rc = r->pMethods->xFileSize(r, &op.old_size); rc != SQLITE_OK) return rc;
  const sqlite3_int64 overlap = std::min<sqlite3_int64>(amount, op.old_size - offset);
  if (overlap > 0) {
    op.old_bytes.resize(static_cast<std::size_t>(overlap));
    if (int rc = r->pMethods->xRead(r, op.old_bytes.data(), static_cast<int>(overlap), offset);
        rc != SQLITE_OK) {
      return rc;
    }
  }
  const int rc = r->pMethods->xWrite(r, buf, amount, offset);
  if (rc == SQLITE_OK) p.unsynced[*of(f)->name].push_back(std::move(op));
  return rc;
}

int x_truncate(sqlite3_file* f, sqlite3_int64 size) {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  if (!count_op(p)) return SQLITE_IOERR_TRUNCATE;
  sqlite3_file* r = real(f);
  if (of(f)->name == nullptr) return r->pMethods->xTruncate(r, size);
  Op op;
  op.truncate = true;
  op.offset = size;
  if (int rc = r->pMethods->xFileSize(r, &op.old_size); rc != SQLITE_OK) return rc;
  if (op.old_size > size) {
    op.old_bytes.resize(static_cast<std::size_t>(op.old_size - size));
    if (int rc =
            r->pMethods->xRead(r, op.old_bytes.data(), static_cast<int>(op.old_bytes.size()), size);
        rc != SQLITE_OK) {
      return rc;
    }
  }
  const int rc = r->pMethods->xTruncate(r, size);
  if (rc == SQLITE_OK) p.unsynced[*of(f)->name].push_back(std::move(op));
  return rc;
}

// A sync makes the file's writes durable. The real fsync is skipped: the real machine never
// loses power in these tests, and skipping it keeps a trial in milliseconds.
int x_sync(sqlite3_file* f, int) {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  if (!count_op(p)) return SQLITE_IOERR_FSYNC;
  if (of(f)->name != nullptr) p.unsynced.erase(*of(f)->name);
  return SQLITE_OK;
}

int x_file_size(sqlite3_file* f, sqlite3_int64* size) {
  return real(f)->pMethods->xFileSize(real(f), size);
}
int x_lock(sqlite3_file* f, int lock) {
  return real(f)->pMethods->xLock(real(f), lock);
}
int x_unlock(sqlite3_file* f, int lock) {
  return real(f)->pMethods->xUnlock(real(f), lock);
}
int x_check_reserved_lock(sqlite3_file* f, int* out) {
  return real(f)->pMethods->xCheckReservedLock(real(f), out);
}
int x_file_control(sqlite3_file* f, int op, void* arg) {
  return real(f)->pMethods->xFileControl(real(f), op, arg);
}
int x_sector_size(sqlite3_file* f) {
  return real(f)->pMethods->xSectorSize(real(f));
}
int x_device_characteristics(sqlite3_file* f) {
  return real(f)->pMethods->xDeviceCharacteristics(real(f));
}
int x_shm_map(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  return real(f)->pMethods->xShmMap(real(f), region, size, extend, out);
}
int x_shm_lock(sqlite3_file* f, int offset, int n, int flags) {
  return real(f)->pMethods->xShmLock(real(f), offset, n, flags);
}
void x_shm_barrier(sqlite3_file* f) {
  real(f)->pMethods->xShmBarrier(real(f));
}
int x_shm_unmap(sqlite3_file* f, int delete_flag) {
  return real(f)->pMethods->xShmUnmap(real(f), delete_flag);
}
// Memory-mapped reads would not notice the power going off: never hand out a mapping.
int x_fetch(sqlite3_file*, sqlite3_int64, int, void** out) {
  *out = nullptr;
  return SQLITE_OK;
}
int x_unfetch(sqlite3_file*, sqlite3_int64, void*) {
  return SQLITE_OK;
}

const sqlite3_io_methods kMethods = {
    3,
    x_close,
    x_read,
    x_write,
    x_truncate,
    x_sync,
    x_file_size,
    x_lock,
    x_unlock,
    x_check_reserved_lock,
    x_file_control,
    x_sector_size,
    x_device_characteristics,
    x_shm_map,
    x_shm_lock,
    x_shm_barrier,
    x_shm_unmap,
    x_fetch,
    x_unfetch,
};

int x_open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  Power& p = power();
  PowerFile* pf = of(f);
  std::memset(pf, 0, sizeof *pf);
  {
    std::lock_guard lock(p.mutex);
    if (p.off) return SQLITE_CANTOPEN;
  }
  pf->real = reinterpret_cast<sqlite3_file*>(pf + 1);
  sqlite3_vfs* base = real_vfs(vfs);
  const int rc = base->xOpen(base, name, pf->real, flags, out_flags);
  if (pf->real->pMethods == nullptr) return rc;
  std::lock_guard lock(p.mutex);
  if (name != nullptr) {
    pf->name = new std::string(name);
    if ((flags & SQLITE_OPEN_MAIN_DB) != 0) p.databases.insert(name);
  }
  ++p.open_files;
  pf->base.pMethods = &kMethods;
  return rc;
}

// A delete is durable at once (the tests model lost data, not lost directory entries).
int x_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  if (p.off) return SQLITE_IOERR_DELETE;
  p.unsynced.erase(name);
  return real_vfs(vfs)->xDelete(real_vfs(vfs), name, sync_dir);
}
int x_access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
  return real_vfs(vfs)->xAccess(real_vfs(vfs), name, flags, out);
}
int x_full_pathname(sqlite3_vfs* vfs, const char* name, int n, char* out) {
  return real_vfs(vfs)->xFullPathname(real_vfs(vfs), name, n, out);
}
void* x_dl_open(sqlite3_vfs* vfs, const char* name) {
  return real_vfs(vfs)->xDlOpen(real_vfs(vfs), name);
}
void x_dl_error(sqlite3_vfs* vfs, int n, char* out) {
  real_vfs(vfs)->xDlError(real_vfs(vfs), n, out);
}
void (*x_dl_sym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
  return real_vfs(vfs)->xDlSym(real_vfs(vfs), handle, symbol);
}
void x_dl_close(sqlite3_vfs* vfs, void* handle) {
  real_vfs(vfs)->xDlClose(real_vfs(vfs), handle);
}
int x_randomness(sqlite3_vfs* vfs, int n, char* out) {
  return real_vfs(vfs)->xRandomness(real_vfs(vfs), n, out);
}
int x_sleep(sqlite3_vfs* vfs, int micros) {
  return real_vfs(vfs)->xSleep(real_vfs(vfs), micros);
}
int x_current_time(sqlite3_vfs* vfs, double* out) {
  return real_vfs(vfs)->xCurrentTime(real_vfs(vfs), out);
}
int x_get_last_error(sqlite3_vfs* vfs, int n, char* out) {
  return real_vfs(vfs)->xGetLastError(real_vfs(vfs), n, out);
}
int x_current_time_int64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  return real_vfs(vfs)->xCurrentTimeInt64(real_vfs(vfs), out);
}

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "power_loss_vfs: %s\n", why.c_str());
  std::abort();
}

void must(bool ok, const std::string& what, const std::string& file) {
  if (!ok) die(what + " " + file + ": " + std::strerror(errno));
}

void put(int fd, const std::string& bytes, sqlite3_int64 at, const std::string& file) {
  if (bytes.empty()) return;
  must(::pwrite(fd, bytes.data(), bytes.size(), at) == static_cast<ssize_t>(bytes.size()), "pwrite",
       file);
}

// Takes one file back to its last synced state, then replays what reached the disk.
void lose_power(const std::string& file, const std::vector<Op>& ops, std::mt19937_64& rng,
                RebootReport* report) {
  const int fd = ::open(file.c_str(), O_RDWR);
  must(fd >= 0, "open", file);
  for (auto op = ops.rbegin(); op != ops.rend(); ++op) {
    if (op->truncate) {
      must(::ftruncate(fd, op->old_size) == 0, "ftruncate", file);
      put(fd, op->old_bytes, op->offset, file);
    } else {
      put(fd, op->old_bytes, op->offset, file);
      must(::ftruncate(fd, op->old_size) == 0, "ftruncate", file);
    }
  }
  enum class Fate { kAllLost, kAllKept, kSomeSectors };
  const auto fate = static_cast<Fate>(rng() % 3);
  auto kept = [&] {
    const bool keep = fate == Fate::kAllKept || (fate == Fate::kSomeSectors && rng() % 2 == 0);
    ++(keep ? report->sectors_kept : report->sectors_lost);
    return keep;
  };
  for (const Op& op : ops) {
    if (op.truncate) {
      if (kept()) must(::ftruncate(fd, op.offset) == 0, "ftruncate", file);
      continue;
    }
    const sqlite3_int64 end = op.offset + static_cast<sqlite3_int64>(op.data.size());
    for (sqlite3_int64 at = op.offset; at < end;) {
      const sqlite3_int64 next = std::min(end, (at / kTornSector + 1) * kTornSector);
      if (kept()) {
        put(fd,
            op.data.substr(static_cast<std::size_t>(at - op.offset),
                           static_cast<std::size_t>(next - at)),
            at, file);
      }
      at = next;
    }
  }
  must(::close(fd) == 0, "close", file);
  ++report->files;
  report->unsynced_writes += ops.size();
}

}  // namespace

void install_power_loss_vfs() {
  static std::once_flag once;
  static sqlite3_vfs vfs;
  std::call_once(once, [] {
    if (sqlite3_vfs_find(store::kChecksumVfs) != nullptr) {
      die("installed after the checksum VFS: the store's files would bypass it");
    }
    sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
    if (base == nullptr) die("no default SQLite VFS");
    vfs.iVersion = 2;
    vfs.szOsFile = static_cast<int>(sizeof(PowerFile)) + base->szOsFile;
    vfs.mxPathname = base->mxPathname;
    vfs.zName = kPowerLossVfs;
    vfs.pAppData = base;
    vfs.xOpen = x_open;
    vfs.xDelete = x_delete;
    vfs.xAccess = x_access;
    vfs.xFullPathname = x_full_pathname;
    vfs.xDlOpen = x_dl_open;
    vfs.xDlError = x_dl_error;
    vfs.xDlSym = x_dl_sym;
    vfs.xDlClose = x_dl_close;
    vfs.xRandomness = x_randomness;
    vfs.xSleep = x_sleep;
    vfs.xCurrentTime = x_current_time;
    vfs.xGetLastError = x_get_last_error;
    vfs.xCurrentTimeInt64 = x_current_time_int64;
    if (sqlite3_vfs_register(&vfs, /*makeDflt=*/1) != SQLITE_OK) die("cannot register");
  });
  if (sqlite3_vfs_find(nullptr) != &vfs) die("another VFS became the default");
}

void fail_power_at(std::uint64_t op) {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  p.ops = 0;
  p.fail_at = op;
}

void cut_power() {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  p.off = true;
}

bool power_is_off() {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  return p.off;
}

std::uint64_t operations() {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  return p.ops;
}

RebootReport reboot(std::mt19937_64& rng) {
  Power& p = power();
  std::lock_guard lock(p.mutex);
  if (p.open_files != 0) die("reboot with files still open");
  RebootReport report;
  if (p.off) {
    for (const auto& [file, ops] : p.unsynced) {
      lose_power(file, ops, rng, &report);
    }
    for (const std::string& db : p.databases) {
      const std::string shm = db + "-shm";
      must(::unlink(shm.c_str()) == 0 || errno == ENOENT, "unlink", shm);
    }
  }
  p.unsynced.clear();
  p.databases.clear();
  p.ops = 0;
  p.fail_at = 0;
  p.off = false;
  return report;
}

}  // namespace castra::store::test
