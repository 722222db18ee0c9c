#include "server/store/checksum_vfs.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <vector>

namespace castra::store {

namespace {

// crypto_shorthash's key: fixed, because the checksum guards against damage, not tampering.
constexpr unsigned char kKey[crypto_shorthash_KEYBYTES] = {'c', 'a', 's', 't', 'r', 'a', '/', 'p',
                                                           'a', 'g', 'e', '/', 'v', '1', 0,   0};
constexpr char kMagic[16] = "SQLite format 3";  // with its terminating zero: 16 bytes

// One open file. Only main database files are wrapped; journals, WAL files and temporary
// files go straight to the default VFS (their sqlite3_file lives in the same allocation).
struct ChecksumFile {
  sqlite3_file base;
  sqlite3_file* real;  // the default VFS's file, right after this struct
  int page_size;       // from the last database header seen
  bool checksums;      // the header reserves kChecksumBytes per page
};

thread_local std::int64_t damaged_page = 0;

sqlite3_vfs* real_vfs(sqlite3_vfs* vfs) {
  return static_cast<sqlite3_vfs*>(vfs->pAppData);
}
ChecksumFile* of(sqlite3_file* f) {
  return reinterpret_cast<ChecksumFile*>(f);
}
sqlite3_file* real(sqlite3_file* f) {
  return of(f)->real;
}

// Learns the page size and the reserved bytes from a database header (page 1) read or written.
void learn_header(ChecksumFile* f, const unsigned char* h, int n) {
  if (n < 100 || std::memcmp(h, kMagic, sizeof kMagic) != 0) return;
  const int size = (h[16] << 8) | h[17];
  f->page_size = size == 1 ? 65536 : size;
  f->checksums = h[20] == kChecksumBytes;
}

bool is_page(const ChecksumFile* f, int amount, sqlite3_int64 offset) {
  return f->checksums && f->page_size > 0 && amount == f->page_size && offset % f->page_size == 0;
}

void store_u64le(unsigned char* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<unsigned char>(v >> (8 * i));
}

std::uint64_t checksum_of(const unsigned char* page, int page_size) {
  return page_checksum(std::string_view(reinterpret_cast<const char*>(page),
                                        static_cast<std::size_t>(page_size - kChecksumBytes)));
}

int x_close(sqlite3_file* f) {
  const int rc = real(f)->pMethods->xClose(real(f));
  f->pMethods = nullptr;
  return rc;
}

int x_read(sqlite3_file* f, void* buf, int amount, sqlite3_int64 offset) {
  ChecksumFile* cf = of(f);
  const int rc = cf->real->pMethods->xRead(cf->real, buf, amount, offset);
  if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
  auto* bytes = static_cast<unsigned char*>(buf);
  if (offset == 0) learn_header(cf, bytes, amount);
  if (!is_page(cf, amount, offset)) return rc;
  // A short read is a page cut off by truncation: its zero fill cannot match either.
  unsigned char expected[kChecksumBytes];
  store_u64le(expected, checksum_of(bytes, amount));
  if (std::memcmp(expected, bytes + amount - kChecksumBytes, kChecksumBytes) != 0) {
    damaged_page = offset / amount + 1;
    return SQLITE_IOERR_DATA;
  }
  return rc;
}

int x_write(sqlite3_file* f, const void* buf, int amount, sqlite3_int64 offset) {
  ChecksumFile* cf = of(f);
  const auto* bytes = static_cast<const unsigned char*>(buf);
  if (offset == 0) {
    learn_header(cf, bytes, amount);
  } else if (cf->page_size == 0) {
    // This handle has not seen page 1 yet: read the header already on disk, if any. (A page
    // written before page 1 ever reached the file gets no checksum; open_database makes sure
    // page 1 is written first, and backups add checksums afterwards: add_page_checksums.)
    unsigned char header[100];
    if (cf->real->pMethods->xRead(cf->real, header, sizeof header, 0) == SQLITE_OK) {
      learn_header(cf, header, sizeof header);
    }
  }
  if (!is_page(cf, amount, offset))
    return cf->real->pMethods->xWrite(cf->real, buf, amount, offset);
  // The pager owns `buf`; the checksum goes into a copy.
  thread_local std::vector<unsigned char> page;
  page.assign(bytes, bytes + amount);
  store_u64le(page.data() + amount - kChecksumBytes, checksum_of(page.data(), amount));
  return cf->real->pMethods->xWrite(cf->real, page.data(), amount, offset);
}

int x_truncate(sqlite3_file* f, sqlite3_int64 size) {
  return real(f)->pMethods->xTruncate(real(f), size);
}
int x_sync(sqlite3_file* f, int flags) {
  return real(f)->pMethods->xSync(real(f), flags);
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
// Memory-mapped pages would bypass x_read and its check: never hand one out.
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
  sqlite3_vfs* base = real_vfs(vfs);
  if ((flags & SQLITE_OPEN_MAIN_DB) == 0) return base->xOpen(base, name, f, flags, out_flags);
  ChecksumFile* cf = of(f);
  std::memset(cf, 0, sizeof *cf);
  cf->real = reinterpret_cast<sqlite3_file*>(cf + 1);
  const int rc = base->xOpen(base, name, cf->real, flags, out_flags);
  cf->base.pMethods = cf->real->pMethods != nullptr ? &kMethods : nullptr;
  return rc;
}

int x_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
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

}  // namespace

std::int64_t last_damaged_page() {
  return damaged_page;
}

std::uint64_t page_checksum(std::string_view page_without_checksum) {
  unsigned char out[crypto_shorthash_BYTES];
  crypto_shorthash(out, reinterpret_cast<const unsigned char*>(page_without_checksum.data()),
                   page_without_checksum.size(), kKey);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | out[i];
  return v;
}

Status add_page_checksums(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR);
  if (fd < 0) return Status{SQLITE_CANTOPEN, "cannot open " + path};
  auto fail = [&](const std::string& why) {
    ::close(fd);
    return Status{SQLITE_IOERR, path + ": " + why};
  };
  unsigned char header[100];
  if (::pread(fd, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header)) {
    return fail("too short for a database header");
  }
  ChecksumFile probe{};
  learn_header(&probe, header, sizeof header);
  if (probe.page_size == 0) return fail("not a SQLite database");
  if (!probe.checksums) {
    ::close(fd);
    return Status::success();
  }
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size < 0 || size % probe.page_size != 0) return fail("not a whole number of pages");
  std::vector<unsigned char> page(static_cast<std::size_t>(probe.page_size));
  for (off_t at = 0; at < size; at += probe.page_size) {
    if (::pread(fd, page.data(), page.size(), at) != static_cast<ssize_t>(page.size())) {
      return fail("cannot read a page");
    }
    store_u64le(page.data() + probe.page_size - kChecksumBytes,
                checksum_of(page.data(), probe.page_size));
    if (::pwrite(fd, page.data() + probe.page_size - kChecksumBytes, kChecksumBytes,
                 at + probe.page_size - kChecksumBytes) != kChecksumBytes) {
      return fail("cannot write a checksum");
    }
  }
  if (::fsync(fd) != 0) return fail("cannot sync");
  ::close(fd);
  return Status::success();
}

Status register_checksum_vfs() {
  static std::once_flag once;
  static Status result;
  static sqlite3_vfs vfs;
  std::call_once(once, [] {
    if (sodium_init() < 0) {
      result = Status{SQLITE_ERROR, "libsodium failed to initialise"};
      return;
    }
    sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
    if (base == nullptr) {
      result = Status{SQLITE_ERROR, "no default SQLite VFS"};
      return;
    }
    vfs.iVersion = 2;
    vfs.szOsFile = static_cast<int>(sizeof(ChecksumFile)) + base->szOsFile;
    vfs.mxPathname = base->mxPathname;
    vfs.zName = kChecksumVfs;
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
    const int rc = sqlite3_vfs_register(&vfs, /*makeDflt=*/0);
    if (rc != SQLITE_OK) result = Status{rc, "cannot register the castra-checksum VFS"};
  });
  return result;
}

}  // namespace castra::store
