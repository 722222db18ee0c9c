#include "server/accounts/passwords.hpp"

#include <sodium.h>

#include <cctype>

namespace castra::accounts {

PasswordCost interactive_cost() {
  return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE};
}

PasswordCost minimum_cost() {
  return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN};
}

bool valid_cost(const PasswordCost& cost) {
  return cost.ops_limit >= crypto_pwhash_OPSLIMIT_MIN &&
         cost.ops_limit <= crypto_pwhash_OPSLIMIT_MAX &&
         cost.mem_limit >= crypto_pwhash_MEMLIMIT_MIN &&
         cost.mem_limit <= crypto_pwhash_MEMLIMIT_MAX;
}

std::optional<std::string> hash_password(std::string_view password, const PasswordCost& cost) {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.ops_limit, cost.mem_limit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return std::nullopt;
  }
  return std::string(out);
}

bool verify_password(const std::string& stored, std::string_view password) {
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

bool needs_rehash(const std::string& stored, const PasswordCost& cost) {
  return crypto_pwhash_str_needs_rehash(stored.c_str(), cost.ops_limit, cost.mem_limit) != 0;
}

bool valid_account_name(std::string_view name) {
  if (name.size() < 3 || name.size() > 24) return false;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '_' && c != '-') return false;
  }
  return name_key(name).rfind("guest-", 0) != 0;
}

bool valid_password(std::string_view password) {
  return password.size() >= 8 && password.size() <= 256;
}

std::string name_key(std::string_view name) {
  std::string key(name);
  for (char& c : key)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

}  // namespace castra::accounts
