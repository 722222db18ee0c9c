// The vocabulary every rule set shares: sides, viewers, visibility, rule errors, outcomes
// and the dice interface. Pure values; standard library only. Any thread may use them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace castra::rules {

// Side A's edge is the top of the map, side B's the bottom, in both rule sets.
enum class Side : std::uint8_t { kA = 0, kB = 1 };

constexpr Side other(Side s) {
  return s == Side::kA ? Side::kB : Side::kA;
}
constexpr int index(Side s) {
  return static_cast<int>(s);
}
constexpr char side_letter(Side s) {
  return s == Side::kA ? 'A' : 'B';
}

// Who looks at a projection. kEveryone is the view after the game has ended: nothing hidden.
enum class Viewer : std::uint8_t { kSideA = 0, kSideB = 1, kSpectator = 2, kEveryone = 3 };

constexpr Viewer viewer_of(Side s) {
  return s == Side::kA ? Viewer::kSideA : Viewer::kSideB;
}

// Who may see an event before the game ends.
//   kPublic:  everyone, at once.
//   kPrivate: its owner only (a placeholder keeps numbering for the others).
//   kSealed:  its owner only; the others get a commitment to its canonical bytes.
// After the end, every event is visible to everyone.
struct Visibility {
  enum class Kind : std::uint8_t { kPublic = 0, kPrivate = 1, kSealed = 2 };
  Kind kind = Kind::kPublic;
  Side owner = Side::kA;  // meaningful for kPrivate and kSealed only

  static constexpr Visibility everyone() { return {Kind::kPublic, Side::kA}; }
  static constexpr Visibility only(Side s) { return {Kind::kPrivate, s}; }
  static constexpr Visibility sealed(Side s) { return {Kind::kSealed, s}; }
  constexpr bool visible_to(Viewer v) const {
    return kind == Kind::kPublic || v == Viewer::kEveryone || v == viewer_of(owner);
  }
  friend constexpr bool operator==(Visibility, Visibility) = default;
};

// A player's command broke a rule. `rule` names it for programs ("optio.5.advance"), and
// `message` says it in words a player understands ("heavy_infantry advance 1 square; that
// path is 2"). A refusal never carries information the commanding side may not see.
struct RuleError {
  std::string rule;
  std::string message;
  friend bool operator==(const RuleError&, const RuleError&) = default;
};

// Either a value or the rule it broke.
template <typename T>
class Checked {
 public:
  Checked(T value) : v_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
  Checked(RuleError error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const RuleError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, RuleError> v_;
};

inline RuleError refuse(std::string rule, std::string message) {
  return RuleError{std::move(rule), std::move(message)};
}

// How a game ended.
struct Outcome {
  enum class Kind : std::uint8_t { kWinA = 0, kWinB = 1, kDraw = 2 };
  Kind kind = Kind::kDraw;
  std::string reason;  // "side B's army broke", "turn limit: A lost 2/10, B lost 4/9"
  static Outcome win(Side s, std::string why) {
    return {s == Side::kA ? Kind::kWinA : Kind::kWinB, std::move(why)};
  }
  static Outcome draw(std::string why) { return {Kind::kDraw, std::move(why)}; }
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

// Which sides must act now. Both in a simultaneous phase (Optio's orders cards); none
// when the game is over. `phase` is a short name for the client ("move", "orders").
struct Acting {
  bool a = false;
  bool b = false;
  std::string phase;
  int turn = 0;  // the game turn, from 1 (0 before the first); spectator delays count these
  bool must_act(Side s) const { return s == Side::kA ? a : b; }
  friend bool operator==(const Acting&, const Acting&) = default;
};

// The die kinds Castra rolls. The value is the number of faces and is part of the hashed
// input of every roll (docs/formats.md).
enum class Die : std::uint8_t { kD6 = 6, kD10 = 10 };

// The dice an engine may roll while deciding a command. The match layer hands in a stream
// from its fair-dice generator; tests hand in fixed dice. Faces are 1..N.
class Dice {
 public:
  virtual ~Dice() = default;
  virtual int roll(Die die) = 0;
};

}  // namespace castra::rules
