// The commitment a sealed selection is published as, over the bytes of docs/formats.md,
// "Selection commitments". Pure; any thread.
#pragma once

#include <string>
#include <string_view>

#include "common/campaign/roster.hpp"
#include "common/match/crypto.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

// The canonical bytes of a selection (ids ascending, then STAND!'s figures by type).
std::string selection_bytes(const Selection& s);

// SHA-256("castra/selection/v1" || str(campaign_id) || str(node) || u8(side)
//         || selection_bytes || salt).
match::Bytes32 selection_commitment(std::string_view campaign_id, std::string_view node,
                                    rules::Side side, const Selection& s,
                                    const match::Bytes32& salt);

}  // namespace castra::campaign
