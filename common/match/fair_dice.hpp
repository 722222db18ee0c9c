// Verifiably fair dice (design section 4). The server's secret seed is committed to before
// anyone joins; each player adds entropy when seated; roll n is HMAC-SHA256 keyed by the seed
// over (match id, n, die, both players' entropy, block), mapped to a face by rejection
// sampling. Byte layouts: docs/formats.md section 2. Pure; any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/rules/types.hpp"

namespace castra::match {

// SHA-256("castra/dice-commitment/v1" || seed): published when the match is created.
Bytes32 dice_commitment(const Bytes32& server_seed);

// The inputs every roll of one match shares.
struct DiceInputs {
  Bytes32 server_seed{};
  std::string match_id;
  std::string entropy_a;  // side A's contribution, given when seated
  std::string entropy_b;
};

// The HMAC message of roll `n`, block `block` (docs/formats.md 2.2).
std::string roll_message(const DiceInputs& in, std::uint64_t n, rules::Die die,
                         std::uint32_t block);

// Maps one HMAC block to a face 1..faces: the block's first 4 bytes as a little-endian u32 v;
// v in the rejection zone [2^32 - 2^32 mod faces, 2^32) gives nullopt (use the next block),
// otherwise the face is v mod faces + 1. Never a plain modulo of a biased range.
std::optional<int> face_from_block(const Bytes32& block, int faces);

// The face of the first block, in order 0, 1, 2..., that is not rejected.
int first_face(const std::function<Bytes32(std::uint32_t block)>& block_of, int faces);

// Roll number n of a match: first_face over HMAC-SHA256(seed, roll_message(n, block)).
int fair_roll(const DiceInputs& in, std::uint64_t n, rules::Die die);

// One roll as the match log records it.
struct Roll {
  std::uint64_t number = 0;
  rules::Die die = rules::Die::kD6;
  int face = 0;
  friend bool operator==(const Roll&, const Roll&) = default;
};

// The Dice an engine sees while deciding one command: fair rolls from the match's stream,
// numbered from `next`, unless faces were forced (castra-sim --dice, tests). Records every
// roll it gives.
class RecordingDice final : public rules::Dice {
 public:
  RecordingDice(const DiceInputs& inputs, std::uint64_t next, std::vector<int>* forced)
      : inputs_(inputs), next_(next), forced_(forced) {}
  int roll(rules::Die die) override;
  const std::vector<Roll>& rolls() const { return rolls_; }

 private:
  const DiceInputs& inputs_;
  std::uint64_t next_;
  std::vector<int>* forced_;
  std::vector<Roll> rolls_;
};

}  // namespace castra::match
