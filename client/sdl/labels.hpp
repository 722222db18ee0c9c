// Labels: the words and abbreviations castra-client shows for the wire's enums (unit and
// troop types, terrain, facings, phases, error codes, outcomes). Presentation only: no rule is
// decided here. Any thread.
#pragma once

#include <string>

#include "proto/castra/v1/match.pb.h"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::client {

std::string side_name(v1::Side side);  // "side A"
std::string side_letter(v1::Side side);
v1::Side other_side(v1::Side side);

// Optio.
std::string optio_type_name(v1::optio::UnitType t);    // "heavy infantry"
std::string optio_type_abbrev(v1::optio::UnitType t);  // "HI"
std::string optio_terrain_name(v1::optio::Terrain t);
std::string optio_facing_name(int facing);  // "north"
std::string optio_phase_name(v1::optio::Phase p);
// The morale at or under which a unit of type t counts as shaken, from the rules' unit table
// (docs/rules/optio.md section 1). The projected state does not carry "shaken", so the client
// keeps this one column of the table to show it; see docs/client.md.
int optio_shaken_at(v1::optio::UnitType t);
bool optio_is_shaken(const v1::optio::Unit& u);

// STAND!.
std::string stand_troop_name(v1::stand::Troop t, int count);  // "3 cavalry"
std::string stand_terrain_name(v1::stand::Terrain t, v1::stand::Crossing c);
std::string stand_facing_name(int facing);  // "north-east"
std::string stand_phase_name(v1::stand::Phase p);
std::string stand_posture_name(v1::stand::Posture p);
std::string stand_figures_text(const v1::stand::Figures& f);  // "8 infantry, 4 archers"
int stand_figure_total(const v1::stand::Figures& f);

// The server's errors, in words a player understands (the code's meaning, then the server's
// own message when it adds something).
std::string describe_error(const v1::Error& e);
// A command the rules refused (CommandResult.error), with the rule it breaks.
std::string describe_refusal(const v1::RuleError& e);
std::string outcome_text(const v1::Outcome& o);
std::string end_reason_text(v1::EndReason r);

// Campaigns: "live"; a battle's result on the graph ("A won", "B won", "draw").
std::string campaign_status_word(v1::CampaignStatus s);
std::string campaign_result_word(v1::Outcome::Kind k);

// "3:05", "2d 4h", "--" for deadlines.
std::string format_remaining(std::int64_t ms);

// "1 square", "3 squares": a count with its noun in the right number.
std::string count_text(int n, const std::string& one, const std::string& many);

}  // namespace castra::client
