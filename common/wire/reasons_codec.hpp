// The GetReasons answer of each rule set: the engine's reasons() for the asked piece and,
// for Optio, its command_view(), in the wire types of reasons.proto. The caller passes the
// asker's own projection (MatchAdapter does). No I/O; any thread.
#pragma once

#include "common/rules/optio/state.hpp"
#include "common/rules/stand/state.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/reasons.pb.h"

namespace castra::wire {

// A piece of the other game's kind is refused as "reasons.piece"; no piece gives only the
// command view.
v1::PieceReasons piece_reasons(const rules::optio::State& s, rules::Side side,
                               const v1::Piece& piece);
v1::PieceReasons piece_reasons(const rules::stand::State& s, rules::Side side,
                               const v1::Piece& piece);

}  // namespace castra::wire
