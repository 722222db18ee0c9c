// castra-bot: a computer player over the real protocol. It signs in (registering the account
// when needed), takes a seat (--create, --join or --join-open), plays whole matches with the
// brain and prints each outcome. docs/bots.md describes it.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <random>
#include <string>

#include "common/bot/brain.hpp"
#include "tools/bot/bot_link.hpp"
#include "tools/bot/bot_player.hpp"

namespace {

namespace bot = castra::bot;
namespace v1 = castra::v1;

// Exit codes (docs/bots.md).
constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;
constexpr int kExitFailed = 2;

struct Flags {
  std::string server = "ws://127.0.0.1:8080/ws";
  std::string ca_file;
  std::string name;
  std::string password;
  std::string strength = "greedy";
  std::uint64_t seed = 0;
  std::string create;
  std::string join;
  bool join_open = false;
  std::string scenario;
  int games = 1;
  bool quiet = false;
};

void add_flags(CLI::App& app, Flags& f) {
  app.add_option("--server", f.server, "The server's WebSocket address")->capture_default_str();
  app.add_option("--ca-file", f.ca_file,
                 "wss://: PEM certificates to trust (default: the system's)");
  app.add_option("--name", f.name, "Account name (registered when it does not exist)")->required();
  app.add_option("--password", f.password, "Account password (8-256 bytes)")->required();
  app.add_option("--strength", f.strength, "random or greedy")
      ->check(CLI::IsMember({"random", "greedy"}))
      ->capture_default_str();
  app.add_option("--seed", f.seed, "The brain's seed (default: drawn, and printed)");
  auto* create =
      app.add_option("--create", f.create, "Create a match of SCENARIO and wait for an opponent");
  auto* join = app.add_option("--join", f.join, "Join the match MATCH_ID");
  auto* open = app.add_flag("--join-open", f.join_open, "Join an open match from the lobby's list");
  app.add_option("--scenario", f.scenario, "With --join-open: only matches of this scenario")
      ->needs(open);
  create->excludes(join)->excludes(open);
  join->excludes(open);
  app.add_option("--games", f.games, "Matches to play one after another (not with --join)")
      ->check(CLI::PositiveNumber)
      ->excludes(join)
      ->capture_default_str();
  app.add_flag("--quiet", f.quiet, "Print only the outcomes");
}

const char* side_label(castra::rules::Side s) {
  return s == castra::rules::Side::kA ? "A" : "B";
}

// "won", "lost" or "drew", from the bot's side.
std::string verdict(const v1::Outcome& o, castra::rules::Side side) {
  if (o.kind() == v1::Outcome::DRAW) return "drew";
  const bool a_won = o.kind() == v1::Outcome::WIN_A;
  return a_won == (side == castra::rules::Side::kA) ? "won" : "lost";
}

void print_result(const bot::GameResult& r, int reconnects, int redirects) {
  std::printf(
      "match %s: %s as side %s (%s), %d commands, %d refused, %d draw offers declined, "
      "%d reconnects, %d commands sent again, %d redirects\n",
      r.match_id.c_str(), verdict(r.record.outcome(), r.side).c_str(), side_label(r.side),
      r.record.outcome().reason().c_str(), r.commands, r.refused, r.draws_declined, reconnects,
      r.resent, redirects);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  CLI::App app{"castra-bot: a computer player for Castra over the real protocol"};
  add_flags(app, flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is a ParseError too, with exit code 0.
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  if (flags.create.empty() && flags.join.empty() && !flags.join_open) {
    std::cerr
        << "castra-bot: say where to play: --create SCENARIO, --join MATCH_ID or --join-open\n";
    return kExitUsage;
  }
  if (app.count("--seed") == 0)
    flags.seed = (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}();

  bot::LinkOptions link_options;
  link_options.server = [url = flags.server] { return url; };
  link_options.name = flags.name;
  link_options.password = flags.password;
  link_options.client.ca_file = flags.ca_file;
  if (!flags.quiet) {
    link_options.log = [](const std::string& line) { std::cerr << "castra-bot: " << line << "\n"; };
  }
  bot::BotLink link(std::move(link_options));
  if (!link.open()) {
    std::cerr << "castra-bot: " << link.error() << "\n";
    return kExitFailed;
  }

  bot::PlayerOptions options;
  options.seating = !flags.create.empty() ? bot::Seating::kCreate
                    : !flags.join.empty() ? bot::Seating::kJoin
                                          : bot::Seating::kJoinOpen;
  options.scenario = !flags.create.empty() ? flags.create : flags.scenario;
  options.match_id = flags.join;
  options.strength = *bot::strength_from_name(flags.strength);
  if (!flags.quiet)
    std::cerr << "castra-bot: " << flags.strength << " brain, seed " << flags.seed << "\n";
  for (int game = 0; game < flags.games; ++game) {
    options.seed = flags.seed + static_cast<std::uint64_t>(game);
    bot::BotPlayer player(link, options);
    const int reconnects_before = link.reconnects();
    const int redirects_before = link.redirects();
    const bot::GameResult result = player.play_one();
    if (!result.finished) {
      std::cerr << "castra-bot: match " << result.match_id << ": " << result.error << "\n";
      return kExitFailed;
    }
    print_result(result, link.reconnects() - reconnects_before,
                 link.redirects() - redirects_before);
  }
  return kExitOk;
}
