// The "castra-checksum" SQLite VFS: the default VFS plus an 8-byte checksum in the reserved
// bytes at the end of every page of a main database file, written with the page and checked
// each time the page is read back, so a damaged page is refused (SQLITE_IOERR_DATA) instead
// of being used. Layout: docs/storage.md. register_checksum_vfs() may be called from any
// thread, any number of times; the VFS itself is as thread-safe as SQLite's own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "server/store/sqlite.hpp"

namespace castra::store {

inline constexpr const char* kChecksumVfs = "castra-checksum";
// The reserved bytes per page that hold the checksum (database header byte 20).
inline constexpr int kChecksumBytes = 8;

// Registers the VFS (not as the default) on first call; the same Status every later call.
Status register_checksum_vfs();

// Writes the checksum of every page into a database file that reserves kChecksumBytes per
// page but was written without this VFS (a fresh backup copy). Nothing else may have the
// file open. A file that reserves no bytes for checksums is left as it is.
Status add_page_checksums(const std::string& path);

// The number of the last page this thread found damaged (1-based), 0 if none: for messages.
std::int64_t last_damaged_page();

// The checksum stored at the end of a page: SipHash-2-4 (libsodium's crypto_shorthash) of the
// page's other bytes under a fixed key. Exposed for tests.
std::uint64_t page_checksum(std::string_view page_without_checksum);

}  // namespace castra::store
