// Brain: a computer player's judgement. Given what one side was sent (its projected snapshot
// and its legal commands) it picks that side's next command. It may think with the pure
// rules engines on that projection, like a chess engine on a board, but it never sees more
// than the side it plays: castra-bot, the server's computer opponent, castra-load and the
// offline balance programs all use this one library, so none of them can cheat.
// No I/O: its randomness comes from its seed. One thread uses a Brain at a time. Keep one
// Brain per seat for a whole match: it counts its picks in each phase and ends a phase that
// has gone on too long, which is what bounds a random game (common/bot/brain.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "common/rules/types.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::bot {

enum class Strength : std::uint8_t {
  kRandom,  // any legal command, seeded
  kGreedy,  // the fight with the best expected result; the army kept together; orders
            // cards toward the enemy (Optio)
};

// "random", "greedy"; nullopt for any other word.
std::optional<Strength> strength_from_name(std::string_view name);
std::string_view strength_name(Strength s);

// Picks in one phase after which a Brain ends it at the first chance the list allows. Far
// above what a phase needs (an Optio unit acts once a phase, a STAND! figure moves once a
// turn), so it only ever cuts short the random player's turning and re-posturing.
inline constexpr int kPhasePickCap = 120;

class Brain {
 public:
  Brain(Strength strength, std::uint64_t seed);
  ~Brain();
  Brain(Brain&&) noexcept;
  Brain& operator=(Brain&&) noexcept;

  // The command `side` should send now, chosen from `legal` (exactly what the server sent
  // that side) in the position `view` (that side's projected snapshot, as sent). nullopt when
  // `legal` offers nothing to do. Never a command outside `legal`.
  std::optional<v1::GameCommand> pick(const v1::Snapshot& view, const v1::GameLegal& legal,
                                      rules::Side side);

  Strength strength() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace castra::bot
