// piece_reasons(): rules::Reasons and optio::UnitCommand into reasons.proto.
#include "common/wire/reasons_codec.hpp"

#include "common/rules/optio/reasons.hpp"
#include "common/rules/stand/reasons.hpp"

namespace castra::wire {
namespace {

void encode(const rules::Reasons& r, v1::PieceReasons* out) {
  out->set_can_act(r.can_act);
  for (const rules::Refusal& x : r.refusals) {
    v1::Refusal* p = out->add_refusals();
    p->set_action(x.action);
    p->mutable_why()->set_rule(x.why.rule);
    p->mutable_why()->set_message(x.why.message);
  }
}

void wrong_piece(const char* what, v1::PieceReasons* out) {
  encode({false, {{"select", rules::refuse("reasons.piece", what)}}}, out);
}

}  // namespace

v1::PieceReasons piece_reasons(const rules::optio::State& s, rules::Side side,
                               const v1::Piece& piece) {
  namespace optio = rules::optio;
  v1::PieceReasons out;
  *out.mutable_piece() = piece;
  switch (piece.kind_case()) {
    case v1::Piece::kUnit:
      encode(optio::reasons(s, side, {optio::Piece::Kind::kUnit, piece.unit()}), &out);
      break;
    case v1::Piece::kLeader:
      encode(optio::reasons(s, side, {optio::Piece::Kind::kLeader, piece.leader()}), &out);
      break;
    case v1::Piece::kHex:
      wrong_piece("an Optio piece is a unit or a leader", &out);
      break;
    case v1::Piece::KIND_NOT_SET:
      break;
  }
  for (const optio::UnitCommand& c : optio::command_view(s, side)) {
    v1::UnitCommand* p = out.add_commands();
    p->set_unit(c.unit);
    p->set_command(c.command);
    p->set_leader(c.leader);
    p->set_in_command(c.in_command);
    p->set_joined_to(c.joined_to);
  }
  return out;
}

v1::PieceReasons piece_reasons(const rules::stand::State& s, rules::Side side,
                               const v1::Piece& piece) {
  v1::PieceReasons out;
  *out.mutable_piece() = piece;
  if (piece.has_hex()) {
    encode(rules::stand::reasons(s, side, {piece.hex().col(), piece.hex().row()}), &out);
  } else if (piece.kind_case() != v1::Piece::KIND_NOT_SET) {
    wrong_piece("a STAND! piece is a hex", &out);
  }
  return out;
}

}  // namespace castra::wire
