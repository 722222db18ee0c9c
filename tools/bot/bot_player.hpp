// BotPlayer: castra-bot's player. It takes a seat (creates a match and waits for an
// opponent, joins a given match, or joins an open one from the list), then plays the match to
// its end with the brain: each time an update hands it the legal list it takes its side's
// board from that update (GetSnapshot only when the update has none, as a protocol 1.0
// server's), picks, and submits with the next client_seq; its own update comes in the
// CommandResult's frame, kept as a push by ProtocolClient. It declines draw offers, and after
// a lost connection it reconnects (BotLink), subscribes again and repeats the command it has
// no answer for with the same client_seq. castra-bot and the BotGames tests use it.
// Blocking; one thread uses a BotPlayer (and its BotLink) at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "common/bot/brain.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/match.pb.h"
#include "tools/bot/bot_link.hpp"

namespace castra::bot {

enum class Seating : std::uint8_t {
  kCreate,    // create `scenario`, take a side, wait for an opponent
  kJoin,      // join `match_id` (or play on in it, if already seated there)
  kJoinOpen,  // join an open match from ListMatches (of `scenario` when it is set)
};

struct PlayerOptions {
  Seating seating = Seating::kJoinOpen;
  std::string scenario;
  std::string match_id;
  Strength strength = Strength::kRandom;
  std::uint64_t seed = 1;
  // How long kJoinOpen looks for an open match, and how long the bot waits without any
  // news before it subscribes again to make sure it missed nothing.
  std::chrono::milliseconds find_timeout{30000};
  std::chrono::milliseconds quiet_resync{30000};
};

struct GameResult {
  bool finished = false;  // the match ended and `record` holds it
  std::string match_id;
  rules::Side side = rules::Side::kA;
  v1::MatchRecord record;
  int commands = 0;  // accepted
  int refused = 0;
  int resent = 0;  // commands sent again, with their client_seq, after a reconnect
  int draws_declined = 0;
  std::string error;  // why it stopped, when not finished
};

class BotPlayer {
 public:
  // `link` must be open() and outlive the player.
  BotPlayer(BotLink& link, PlayerOptions options);

  // Seats itself as the options say and plays that match to its end.
  GameResult play_one();

 private:
  struct Game;
  bool seat(Game& g);
  bool create(Game& g);
  bool join(Game& g, const std::string& id);
  bool join_open(Game& g);
  bool subscribe(Game& g);
  void play(Game& g);
  void apply(Game& g, const v1::ServerEnvelope& push);
  void apply_update(Game& g, const v1::MatchUpdate& u);
  void move(Game& g);
  void send_command(Game& g);
  void decline_draw(Game& g);
  void fetch_record(Game& g);
  bool come_back(Game& g);

  BotLink& link_;
  PlayerOptions options_;
  Brain brain_;
};

}  // namespace castra::bot
