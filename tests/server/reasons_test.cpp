// GetReasons through the real server: a player is told why his piece cannot act and, in
// Optio, who commands each of his units; a spectator may not ask; the wrong game's piece is
// refused in words.
#include <gtest/gtest.h>

#include <string>

#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

v1::ClientEnvelope reasons_for(const std::string& id, int unit) {
  v1::ClientEnvelope e;
  e.mutable_get_reasons()->set_match_id(id);
  if (unit != 0) e.mutable_get_reasons()->mutable_piece()->set_unit(unit);
  return e;
}

std::string started(Player& alice, Player& bob, const std::string& scenario) {
  auto created = call(*alice.client, req::create_match(scenario, true));
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  EXPECT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
  return id;
}

TEST(Reasons, APlayerIsToldWhyHisUnitCannotActAndWhoCommandsIt) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id = started(alice, bob, "optio/test");

  // Side A deploys first: bob's unit waits for its side's turn.
  auto waiting = call(*bob.client, reasons_for(id, 11));
  ASSERT_TRUE(waiting.has_reasons()) << waiting.DebugString();
  EXPECT_FALSE(waiting.reasons().can_act());
  ASSERT_EQ(waiting.reasons().refusals_size(), 1);
  EXPECT_EQ(waiting.reasons().refusals(0).action(), "deploy");
  EXPECT_EQ(waiting.reasons().refusals(0).why().rule(), "optio.2.sequence");
  EXPECT_EQ(waiting.reasons().refusals(0).why().message(), "it is side A's deployment phase");

  // Both deploy and hand in their orders; then alice turns a unit that has no shot.
  Picker pickers[2];
  std::uint64_t seq[2] = {0, 0};
  Player* players[2] = {&alice, &bob};
  v1::LegalCommands move;
  for (int round = 0; round < 200 && !move.has_legal(); ++round) {
    for (int p = 0; p < 2; ++p) {
      auto legal = call(*players[p]->client, get_legal(id));
      if (p == 0 && legal.legal().phase() == "move") {
        move = legal.legal();
        break;
      }
      if (auto cmd =
              pickers[p].pick(legal.legal().legal(), p == 0 ? rules::Side::kA : rules::Side::kB)) {
        call(*players[p]->client, submit(id, ++seq[p], *cmd));
      }
    }
  }
  ASSERT_TRUE(move.has_legal()) << "side A's move phase never came";
  // Units 1 to 3 of optio/test are heavy infantry: they have no shot. The picker deployed
  // them facing north against their own edge, so the move is a rotation.
  int unit = 0;
  v1::GameCommand rotate;
  for (const auto& u : move.legal().optio().units()) {
    if (unit != 0 || u.unit() > 3 || u.rotations_size() == 0) continue;
    unit = u.unit();
    rotate.mutable_optio()->mutable_rotate()->set_unit(unit);
    rotate.mutable_optio()->mutable_rotate()->set_facing(u.rotations(0));
  }
  ASSERT_NE(unit, 0) << move.DebugString();
  auto before = call(*alice.client, reasons_for(id, unit));
  EXPECT_TRUE(before.reasons().can_act());
  ASSERT_TRUE(call(*alice.client, submit(id, ++seq[0], rotate)).command_result().accepted());

  auto after = call(*alice.client, reasons_for(id, unit));
  ASSERT_TRUE(after.has_reasons()) << after.DebugString();
  EXPECT_FALSE(after.reasons().can_act());
  EXPECT_EQ(after.reasons().match_id(), id);
  EXPECT_EQ(after.reasons().piece().unit(), unit);
  bool moved_once = false;
  for (const auto& r : after.reasons().refusals()) {
    if (r.action() == "rotate") moved_once = r.why().rule() == "optio.5.once";
  }
  EXPECT_TRUE(moved_once) << after.DebugString();
  // The command view: each of alice's six units, with its leader; none of bob's.
  ASSERT_EQ(after.reasons().commands_size(), 6);
  for (const auto& c : after.reasons().commands()) {
    EXPECT_LE(c.unit(), 6);
    EXPECT_NE(c.leader(), 0) << c.DebugString();
  }
  // Asking with no piece gives the command view alone.
  auto view = call(*alice.client, reasons_for(id, 0));
  EXPECT_EQ(view.reasons().refusals_size(), 0);
  EXPECT_EQ(view.reasons().commands_size(), 6);
  // Another's piece: said in words, nothing about it.
  auto theirs = call(*bob.client, reasons_for(id, 1));
  ASSERT_EQ(theirs.reasons().refusals_size(), 1);
  EXPECT_EQ(theirs.reasons().refusals(0).why().message(), "unit 1 is not yours");
}

TEST(Reasons, OnlyASeatedPlayerMayAskAndTheWrongGamesPieceIsRefused) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  const std::string id = started(alice, bob, "stand/test");
  EXPECT_EQ(error_of(call(*carol.client, reasons_for(id, 1))), v1::ERROR_NOT_SEATED);
  auto unit = call(*alice.client, reasons_for(id, 1));
  ASSERT_EQ(unit.reasons().refusals_size(), 1) << unit.DebugString();
  EXPECT_EQ(unit.reasons().refusals(0).why().rule(), "reasons.piece");
  v1::ClientEnvelope hex = reasons_for(id, 0);
  hex.mutable_get_reasons()->mutable_piece()->mutable_hex()->set_col(0);
  auto empty = call(*alice.client, hex);
  ASSERT_EQ(empty.reasons().refusals_size(), 1) << empty.DebugString();
  EXPECT_EQ(empty.reasons().refusals(0).why().message(), "hex (0,0) holds none of your troops");
  EXPECT_EQ(empty.reasons().commands_size(), 0);
}

}  // namespace
}  // namespace castra::testing
