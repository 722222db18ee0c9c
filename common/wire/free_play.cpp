#include "common/wire/free_play.hpp"

#include <string>
#include <utility>

#include "common/match/fair_dice.hpp"
#include "common/match/state_hash.hpp"
#include "common/wire/any_match.hpp"
#include "common/wire/match_adapter.hpp"
#include "common/wire/wires.hpp"

namespace castra::wire {

namespace {

template <WireCodec W>
class Position final : public FreePlay {
 public:
  using G = typename W::Game;

  Position(typename G::State s, FreePlaySetup setup)
      : s_(std::move(s)), forced_(std::move(setup.forced)) {
    dice_.server_seed = setup.seed;
    dice_.match_id = "free-play";
  }

  Checked<std::vector<v1::ViewEvent>> submit(Side side, const v1::GameCommand& command) override {
    auto decoded = W::command(command);
    if (!decoded) return decoded.error();
    match::RecordingDice dice(dice_, rolls_, &forced_);
    auto events = G::decide(s_, side, *decoded, dice);
    if (!events) return events.error();
    rolls_ += dice.rolls().size();
    std::vector<v1::ViewEvent> out;
    for (const auto& e : *events) {
      v1::ViewEvent& p = out.emplace_back();
      p.set_number(next_event_++);
      p.set_visibility(static_cast<v1::Visibility>(static_cast<int>(G::visibility(e).kind)));
      p.set_owner(side_to_proto(G::visibility(e).owner));
      W::encode_event(e, p.mutable_event());
      p.set_text(G::describe(s_, e));
      G::apply(s_, e);
    }
    return out;
  }

  v1::GameState state() const override {
    v1::GameState out;
    W::encode_state(s_, &out);
    return out;
  }
  Bytes32 state_hash() const override { return match::state_hash<G>(s_); }
  std::optional<Outcome> outcome() const override { return G::outcome(s_); }

 private:
  typename G::State s_;
  match::DiceInputs dice_;
  std::vector<int> forced_;
  std::uint64_t rolls_ = 0;
  std::uint64_t next_event_ = 0;
};

template <WireCodec W>
Checked<std::unique_ptr<FreePlay>> position(FreePlaySetup setup) {
  auto s = W::state(setup.state);
  if (!s) return s.error();
  if (W::Game::ruleset(s->version) == nullptr) {
    return rules::refuse("wire.state", "the state's rules version \"" + s->version +
                                           "\" is not one this build knows");
  }
  if (auto broken = W::Game::check(*s)) {
    return rules::refuse("wire.state", "the state breaks a rule of the game: " + *broken);
  }
  return std::unique_ptr<FreePlay>(new Position<W>(std::move(*s), std::move(setup)));
}

}  // namespace

Checked<std::unique_ptr<FreePlay>> free_play(FreePlaySetup setup) {
  switch (setup.state.game_case()) {
    case v1::GameState::kOptio:
      return position<OptioWire>(std::move(setup));
    case v1::GameState::kStand:
      return position<StandWire>(std::move(setup));
    default:
      return rules::refuse("wire.state", "the state names no rule set (optio or stand)");
  }
}

}  // namespace castra::wire
