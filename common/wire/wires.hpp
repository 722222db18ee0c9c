// The two rule sets' WireCodecs (match_adapter.hpp): which engine and which codec each
// ruleset name means. Included only by common/wire's .cpp files that pick an engine.
#pragma once

#include <string_view>

#include "common/rules/optio/game.hpp"
#include "common/rules/stand/game.hpp"
#include "common/wire/optio_codec.hpp"
#include "common/wire/stand_codec.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::wire {

using rules::Checked;

struct OptioWire {
  using Game = rules::optio::Game;
  static constexpr std::string_view kName = "optio";
  static Checked<Game::Scenario> scenario(const v1::ScenarioFile& f) {
    if (!f.has_optio()) return rules::refuse("wire.scenario", "not an Optio scenario");
    return optio::to_domain(f.optio());
  }
  static Checked<Game::Command> command(const v1::GameCommand& c) {
    if (!c.has_optio())
      return rules::refuse("wire.command",
                           "this match plays Optio; the command is for another rule set");
    return optio::to_domain(c.optio());
  }
  static void encode_command(const Game::Command& c, v1::GameCommand* out) {
    *out->mutable_optio() = optio::to_proto(c);
  }
  static Checked<Game::Event> event(const v1::GameEvent& e) {
    if (!e.has_optio()) return rules::refuse("wire.event", "not an Optio event");
    return optio::to_domain(e.optio());
  }
  static void encode_event(const Game::Event& e, v1::GameEvent* out) {
    *out->mutable_optio() = optio::to_proto(e);
  }
  static Checked<Game::State> state(const v1::GameState& s) {
    if (!s.has_optio()) return rules::refuse("wire.state", "not an Optio state");
    return optio::to_domain(s.optio());
  }
  static void encode_state(const Game::State& s, v1::GameState* out) {
    *out->mutable_optio() = optio::to_proto(s);
  }
  static void encode_legal(const Game::State& own_view, const Game::Legal& l, v1::GameLegal* out) {
    *out->mutable_optio() = optio::to_proto(l);
    optio::add_forecasts(Game::forecasts(own_view, l), out->mutable_optio());
  }
};

struct StandWire {
  using Game = rules::stand::Game;
  static constexpr std::string_view kName = "stand";
  static Checked<Game::Scenario> scenario(const v1::ScenarioFile& f) {
    if (!f.has_stand()) return rules::refuse("wire.scenario", "not an Ancient STAND! scenario");
    return stand::to_domain(f.stand());
  }
  static Checked<Game::Command> command(const v1::GameCommand& c) {
    if (!c.has_stand())
      return rules::refuse("wire.command",
                           "this match plays Ancient STAND!; the command is for another rule set");
    return stand::to_domain(c.stand());
  }
  static void encode_command(const Game::Command& c, v1::GameCommand* out) {
    *out->mutable_stand() = stand::to_proto(c);
  }
  static Checked<Game::Event> event(const v1::GameEvent& e) {
    if (!e.has_stand()) return rules::refuse("wire.event", "not an Ancient STAND! event");
    return stand::to_domain(e.stand());
  }
  static void encode_event(const Game::Event& e, v1::GameEvent* out) {
    *out->mutable_stand() = stand::to_proto(e);
  }
  static Checked<Game::State> state(const v1::GameState& s) {
    if (!s.has_stand()) return rules::refuse("wire.state", "not an Ancient STAND! state");
    return stand::to_domain(s.stand());
  }
  static void encode_state(const Game::State& s, v1::GameState* out) {
    *out->mutable_stand() = stand::to_proto(s);
  }
  static void encode_legal(const Game::State& own_view, const Game::Legal& l, v1::GameLegal* out) {
    *out->mutable_stand() = stand::to_proto(l);
    stand::add_forecasts(Game::forecasts(own_view, l), out->mutable_stand());
  }
};

}  // namespace castra::wire
