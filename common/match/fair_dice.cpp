#include "common/match/fair_dice.hpp"

#include <algorithm>

#include "common/rules/canonical.hpp"

namespace castra::match {

namespace {
constexpr std::string_view kCommitmentTag = "castra/dice-commitment/v1";
constexpr std::string_view kRollTag = "castra/roll/v1";
}  // namespace

Bytes32 dice_commitment(const Bytes32& server_seed) {
  std::string message(kCommitmentTag);
  message.append(as_view(server_seed));
  return sha256(message);
}

std::string roll_message(const DiceInputs& in, std::uint64_t n, rules::Die die,
                         std::uint32_t block) {
  rules::ByteWriter w;
  for (char c : kRollTag)
    w.u8(static_cast<std::uint8_t>(c));
  w.str(in.match_id);
  w.u64(n);
  w.u8(static_cast<std::uint8_t>(die));
  w.str(in.entropy_a);
  w.str(in.entropy_b);
  w.u32(block);
  return w.take();
}

std::optional<int> face_from_block(const Bytes32& block, int faces) {
  const std::uint64_t v = std::uint64_t{block[0]} | (std::uint64_t{block[1]} << 8) |
                          (std::uint64_t{block[2]} << 16) | (std::uint64_t{block[3]} << 24);
  constexpr std::uint64_t kRange = std::uint64_t{1} << 32;
  const std::uint64_t limit = kRange - kRange % static_cast<std::uint64_t>(faces);
  if (v >= limit) return std::nullopt;
  return static_cast<int>(v % static_cast<std::uint64_t>(faces)) + 1;
}

int first_face(const std::function<Bytes32(std::uint32_t block)>& block_of, int faces) {
  for (std::uint32_t block = 0;; ++block) {
    if (auto face = face_from_block(block_of(block), faces)) return *face;
  }
}

int fair_roll(const DiceInputs& in, std::uint64_t n, rules::Die die) {
  return first_face(
      [&](std::uint32_t block) {
        return hmac_sha256(in.server_seed, roll_message(in, n, die, block));
      },
      static_cast<int>(die));
}

int RecordingDice::roll(rules::Die die) {
  int face = 0;
  if (forced_ != nullptr && !forced_->empty()) {
    // A forced face that does not fit this die is clamped to it (castra-sim documents this).
    face = std::clamp(forced_->front(), 1, static_cast<int>(die));
    forced_->erase(forced_->begin());
  } else {
    face = fair_roll(inputs_, next_, die);
  }
  rolls_.push_back(Roll{next_, die, face});
  ++next_;
  return face;
}

}  // namespace castra::match
