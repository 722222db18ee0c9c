#include "server/computer/computers.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <array>
#include <cstring>
#include <vector>

#include "server/lobby/lobby.hpp"

namespace castra::computer {

namespace {

constexpr std::size_t kEntropyBytes = 32;

bot::Strength strength_of(v1::ComputerStrength s) {
  return s == v1::COMPUTER_RANDOM ? bot::Strength::kRandom : bot::Strength::kGreedy;
}

ComputerOptions with_csprng(ComputerOptions options) {
  if (!options.random) {
    options.random = [](std::span<std::uint8_t> out) { randombytes_buf(out.data(), out.size()); };
  }
  return options;
}

}  // namespace

Computers::Computers(ComputerOptions options)
    : options_(with_csprng(std::move(options))),
      pool_("computer", options_.threads, options_.queue) {}

Computers::~Computers() {
  stop();
}

void Computers::play(const std::shared_ptr<runtime::MatchHost>& host) {
  const v1::MatchSettings settings = host->settings();
  if (settings.computer() == v1::COMPUTER_NONE || host->seen()->ended) return;
  const rules::Side side = lobby::computer_side(settings) == 0 ? rules::Side::kA : rules::Side::kB;

  std::array<std::uint8_t, 8> seed_bytes{};
  options_.random(seed_bytes);
  std::uint64_t seed = 0;
  std::memcpy(&seed, seed_bytes.data(), seed_bytes.size());
  ComputerPlayer::Context context{
      [this](std::function<void()> task) { return pool_.try_post(std::move(task)); },
      options_.random, options_.tap};
  auto player = std::make_shared<ComputerPlayer>(
      host, side, bot::Brain(strength_of(settings.computer()), seed), std::move(context));
  {
    std::lock_guard lock(mu_);
    if (stopped_ || players_.count(host->id()) != 0) return;
    players_[host->id()] = player;
  }
  if (!host->seen()->seated[rules::index(side)]) {
    std::string entropy(kEntropyBytes, '\0');
    options_.random(std::span(reinterpret_cast<std::uint8_t*>(entropy.data()), entropy.size()));
    host->seat(side, std::nullopt, std::move(entropy),
               [id = host->id()](runtime::Answer<runtime::Done> a) {
                 if (a.ok()) return;
                 spdlog::error("event=computer_not_seated match={} error=\"{}\"", id,
                               a.refusal() ? a.refusal()->message : a.storage_failure()->message);
               });
  }
  // Behind the seat in the match's queue: its first update shows it seated.
  player->start();
  spdlog::info("event=computer_playing match={} side={} strength={}", host->id(),
               rules::side_letter(side), v1::ComputerStrength_Name(settings.computer()));
}

std::size_t Computers::resume(runtime::Runtime& runtime) {
  std::size_t n = 0;
  for (const auto& host : runtime.matches()) {
    if (host->settings().computer() == v1::COMPUTER_NONE || host->seen()->ended) continue;
    play(host);
    ++n;
  }
  spdlog::info("event=computers_resumed matches={}", n);
  return n;
}

void Computers::tick() {
  std::vector<std::shared_ptr<ComputerPlayer>> players;
  {
    std::lock_guard lock(mu_);
    for (auto it = players_.begin(); it != players_.end();) {
      if (it->second->finished()) {
        it = players_.erase(it);
      } else {
        players.push_back((it++)->second);
      }
    }
  }
  for (const auto& p : players)
    p->retry();
}

std::size_t Computers::playing() const {
  std::lock_guard lock(mu_);
  std::size_t n = 0;
  for (const auto& [id, p] : players_)
    n += !p->finished();
  return n;
}

void Computers::stop() {
  std::map<std::string, std::shared_ptr<ComputerPlayer>> players;
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
    players.swap(players_);
  }
  for (const auto& [id, p] : players)
    p->stop();
  pool_.stop();
}

}  // namespace castra::computer
