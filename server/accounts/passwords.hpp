// Password hashing with Argon2id (libsodium's crypto_pwhash_str): the stored string carries
// its own salt and cost, so a change of cost applies at each account's next login. Slow by
// design: callers run these on the hashing pool, never on a network thread. Any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace castra::accounts {

struct PasswordCost {
  unsigned long long ops_limit = 0;
  std::size_t mem_limit = 0;  // bytes
};

// libsodium's OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2 passes, 64 MiB): the default.
PasswordCost interactive_cost();
// OPSLIMIT_MIN / MEMLIMIT_MIN: tests only.
PasswordCost minimum_cost();
// True when libsodium accepts the cost.
bool valid_cost(const PasswordCost& cost);

// The crypto_pwhash_str string, or nullopt when memory could not be had.
std::optional<std::string> hash_password(std::string_view password, const PasswordCost& cost);
bool verify_password(const std::string& stored, std::string_view password);
// True when `stored` was made with another cost (then the next login rehashes).
bool needs_rehash(const std::string& stored, const PasswordCost& cost);

// Names: 3-24 of [A-Za-z0-9_-], not starting with "guest-" (guests' names). Passwords:
// 8-256 bytes. The dispatcher checks these before any hashing.
bool valid_account_name(std::string_view name);
bool valid_password(std::string_view password);
// The form names are compared in: ASCII lower case.
std::string name_key(std::string_view name);

}  // namespace castra::accounts
