// The campaign's state machine as functions of its StoredCampaign, the time and the random
// bytes they are given: no I/O, so that every transition is one value written by one job.
// The rules they follow (docs/rules/campaigns.md) are the campaign rules' (common/campaign/,
// through wire/campaign_play.hpp); this file only sequences them.
#pragma once

#include <cstdint>
#include <string>

#include "proto/castra/v1/campaign.pb.h"

namespace castra::campaign_server {

namespace v1 = castra::v1;

// 0 for side A, 1 for side B; -1 when `account` plays neither.
int side_of(const v1::StoredCampaign& c, std::int64_t account);
std::int64_t player(const v1::StoredCampaign& c, int side);
const v1::SealedSelection& pending(const v1::StoredCampaign& c, int side);
bool selection_in(const v1::StoredCampaign& c, int side);
// The battle being fought, or the last fought; null before the first.
const v1::StoredBattle* last_battle(const v1::StoredCampaign& c);

// Both players are in: the first battle's selection begins.
void start(v1::StoredCampaign& c, std::int64_t now_ms, const std::string& battle_seed);
// The selection stage of `node`: its reinforcements arrive; a side that can field no army
// loses the campaign (it ends).
void begin_node(v1::StoredCampaign& c, const std::string& node, std::int64_t now_ms,
                const std::string& battle_seed);
// `side` made (or was given, `defaulted`) its selection, sealed with `salt`; `entropy` is its
// contribution to the battle's dice.
void seal(v1::StoredCampaign& c, int side, const v1::Selection& selection, const std::string& salt,
          const std::string& entropy, bool defaulted);
// When both selections are in and no side is vacant, the battle `match_id` is to be fought
// (the stage moves on); otherwise nothing changes.
void begin_battle_when_ready(v1::StoredCampaign& c, const std::string& match_id);
// The battle being fought ended with `record`: the carry-over, the results, and the next
// battle's selection (or the campaign's end). A record the carry-over refuses (it cannot
// happen with a checked definition) closes the campaign, and the message says why.
void after_battle(v1::StoredCampaign& c, const v1::MatchRecord& record, std::int64_t now_ms,
                  const std::string& next_battle_seed);
// The battle ended without an outcome (an operator ended it): the campaign closes.
void battle_closed(v1::StoredCampaign& c, std::int64_t now_ms);
// Pause or resume once both sides have asked; `pause` is what `side` asks for.
void ask_pause(v1::StoredCampaign& c, int side, bool pause, std::int64_t now_ms);
// The player of `side` leaves: the side is offered to a replacement player.
void vacate(v1::StoredCampaign& c, int side, std::int64_t now_ms);
// `account` takes the vacant side.
void fill_vacancy(v1::StoredCampaign& c, std::int64_t account, std::int64_t now_ms);
// The campaign ends with `outcome`.
void finish(v1::StoredCampaign& c, v1::Outcome outcome, std::int64_t now_ms);

// Wins of each side and draws in the battles fought.
struct Standings {
  std::uint32_t a = 0, b = 0, draws = 0;
};
Standings standings(const v1::StoredCampaign& c);

}  // namespace castra::campaign_server
