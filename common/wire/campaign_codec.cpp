#include "common/wire/campaign_codec.hpp"

#include <string>

#include "common/wire/optio_codec.hpp"
#include "common/wire/stand_codec.hpp"

namespace castra::wire::campaign {

namespace {

namespace ro = castra::rules::optio;
namespace rs = castra::rules::stand;
using castra::rules::RuleError;

RuleError malformed(std::string message) {
  return castra::rules::refuse("campaign.form", std::move(message));
}

rs::Figures figures(const v1::stand::Figures& p) {
  rs::Figures f;
  f[rs::Troop::kInfantry] = p.infantry();
  f[rs::Troop::kArchers] = p.archers();
  f[rs::Troop::kCavalry] = p.cavalry();
  f[rs::Troop::kChariots] = p.chariots();
  return f;
}

// The proto's unit types count from 1 (0 is unspecified); the domain's from 0.
Checked<dom::OptioUnit> unit(const v1::RosterUnit& p) {
  const int type = static_cast<int>(p.type()) - 1;
  if (type < 0 || type >= ro::kUnitTypes) {
    return malformed("unit " + std::to_string(p.id()) + " has no known type");
  }
  return dom::OptioUnit{
      p.id(), static_cast<ro::UnitType>(type), p.bases(), p.command(), p.morale(), p.name()};
}

void put(const dom::OptioUnit& u, v1::RosterUnit* p) {
  p->set_id(u.id);
  p->set_type(static_cast<v1::optio::UnitType>(static_cast<int>(u.type) + 1));
  p->set_bases(u.bases);
  p->set_command(u.command);
  p->set_morale(u.morale);
  p->set_name(u.name);
}

dom::OptioLeader leader(const v1::RosterLeader& p) {
  return {p.id(), p.general(), p.command(), p.range(), p.name()};
}

void put(const dom::OptioLeader& l, v1::RosterLeader* p) {
  p->set_id(l.id);
  p->set_general(l.general);
  p->set_command(l.command);
  p->set_range(l.range);
  p->set_name(l.name);
}

Checked<dom::Reinforcement> reinforcement(const v1::Reinforcement& p) {
  dom::Reinforcement r;
  r.side = p.side() == v1::SIDE_B ? castra::rules::Side::kB : castra::rules::Side::kA;
  for (const v1::RosterUnit& u : p.units()) {
    auto d = unit(u);
    if (!d) return d.error();
    r.units.push_back(std::move(*d));
  }
  for (const v1::RosterLeader& l : p.leaders())
    r.leaders.push_back(leader(l));
  r.figures = figures(p.figures());
  return r;
}

Checked<dom::LeaderReplacement> replacement(const v1::LeaderReplacement& p) {
  using Kind = dom::LeaderReplacement::Kind;
  if (p.kind() != v1::LeaderReplacement::NONE && p.kind() != v1::LeaderReplacement::PROMOTED) {
    return malformed("unknown leader replacement kind");
  }
  const Kind kind = p.kind() == v1::LeaderReplacement::PROMOTED ? Kind::kPromoted : Kind::kNone;
  return dom::LeaderReplacement{kind, p.range(), p.name()};
}

}  // namespace

Checked<dom::Roster> to_domain(const v1::Roster& p) {
  dom::Roster r;
  r.army = p.army();
  if (p.has_optio()) {
    dom::OptioRoster o;
    for (const v1::RosterUnit& u : p.optio().units()) {
      auto d = unit(u);
      if (!d) return d.error();
      o.units.push_back(std::move(*d));
    }
    for (const v1::RosterLeader& l : p.optio().leaders())
      o.leaders.push_back(leader(l));
    r.game = std::move(o);
  } else if (p.has_stand()) {
    r.game = dom::StandRoster{figures(p.stand().figures())};
  } else {
    return malformed("a roster holds neither Optio units nor Ancient STAND! figures");
  }
  return r;
}

v1::Roster to_proto(const dom::Roster& r) {
  v1::Roster p;
  p.set_army(r.army);
  if (const dom::OptioRoster* o = r.optio()) {
    v1::OptioRoster* out = p.mutable_optio();
    for (const dom::OptioUnit& u : o->units)
      put(u, out->add_units());
    for (const dom::OptioLeader& l : o->leaders)
      put(l, out->add_leaders());
  } else {
    *p.mutable_stand()->mutable_figures() = to_proto(r.stand()->figures);
  }
  return p;
}

v1::stand::Figures to_proto(const rs::Figures& f) {
  v1::stand::Figures p;
  p.set_infantry(f[rs::Troop::kInfantry]);
  p.set_archers(f[rs::Troop::kArchers]);
  p.set_cavalry(f[rs::Troop::kCavalry]);
  p.set_chariots(f[rs::Troop::kChariots]);
  return p;
}

dom::Selection to_domain(const v1::Selection& p) {
  dom::Selection s;
  s.units.assign(p.units().begin(), p.units().end());
  s.leaders.assign(p.leaders().begin(), p.leaders().end());
  s.figures = figures(p.figures());
  return s;
}

v1::Selection to_proto(const dom::Selection& s) {
  v1::Selection p;
  for (int id : s.units)
    p.add_units(id);
  for (int id : s.leaders)
    p.add_leaders(id);
  if (!s.figures.empty()) *p.mutable_figures() = to_proto(s.figures);
  return p;
}

Checked<dom::Map> to_domain(const v1::ScenarioFile& p) {
  if (p.has_optio()) {
    auto sc = wire::optio::to_domain(p.optio());
    if (!sc) return sc.error();
    return dom::Map(std::move(*sc));
  }
  if (p.has_stand()) {
    auto sc = wire::stand::to_domain(p.stand());
    if (!sc) return sc.error();
    return dom::Map(std::move(*sc));
  }
  return malformed("a battle's map holds no scenario");
}

Checked<dom::BattleNode> to_domain(const v1::BattleNode& p) {
  dom::BattleNode b;
  b.id = p.id();
  b.name = p.name();
  // A map's Optio units are only places (id, side, square, facing, formation): the rosters
  // give everything else, so a place may leave its type unset. Its STAND! armies are the
  // fielded figures, so it need not name them.
  v1::ScenarioFile places = p.map();
  if (places.has_stand()) {
    places.mutable_stand()->mutable_side_a();
    places.mutable_stand()->mutable_side_b();
  }
  if (places.has_optio()) {
    for (v1::optio::ScenarioUnit& u : *places.mutable_optio()->mutable_units()) {
      if (u.type() == v1::optio::UNIT_TYPE_UNSPECIFIED)
        u.set_type(v1::optio::UNIT_TYPE_HEAVY_INFANTRY);
    }
  }
  auto m = to_domain(places);
  if (!m)
    return castra::rules::refuse(m.error().rule, "battle " + p.id() + ": " + m.error().message);
  b.map = std::move(*m);
  b.selection_limit = p.selection_limit();
  for (const v1::Reinforcement& r : p.reinforcements()) {
    auto d = reinforcement(r);
    if (!d)
      return castra::rules::refuse(d.error().rule, "battle " + p.id() + ": " + d.error().message);
    b.reinforcements.push_back(std::move(*d));
  }
  b.next = {p.on_a_wins(), p.on_b_wins(), p.on_draw()};
  return b;
}

Checked<dom::Definition> to_domain(const v1::CampaignDefinition& p) {
  dom::Definition d;
  d.name = p.name();
  if (p.ruleset() == "optio") {
    d.game = dom::Game::kOptio;
  } else if (p.ruleset() == "stand") {
    d.game = dom::Game::kStand;
  } else {
    return castra::rules::refuse("campaign.definition",
                                 "unknown rule set \"" + p.ruleset() + "\" (optio or stand)");
  }
  for (std::size_t i = 0; i < 2; ++i) {
    auto r = to_domain(i == 0 ? p.side_a() : p.side_b());
    if (!r) return r.error();
    d.rosters[i] = std::move(*r);
  }
  for (const v1::BattleNode& b : p.battles()) {
    auto node = to_domain(b);
    if (!node) return node.error();
    d.battles.push_back(std::move(*node));
  }
  d.first_battle = p.first_battle();
  switch (p.decided_by()) {
    case v1::DECIDED_BY_BATTLES_WON:
      d.decided_by = dom::Decision::kBattlesWon;
      break;
    case v1::DECIDED_BY_LAST_BATTLE:
      d.decided_by = dom::Decision::kLastBattle;
      break;
    default:
      return castra::rules::refuse("campaign.definition", "unknown decided_by");
  }
  d.optio.morale_recovery = p.optio_carry_over().morale_recovery();
  auto general = replacement(p.optio_carry_over().general_replacement());
  auto subcommander = replacement(p.optio_carry_over().subcommander_replacement());
  if (!general) return general.error();
  if (!subcommander) return subcommander.error();
  d.optio.general = std::move(*general);
  d.optio.subcommander = std::move(*subcommander);
  return d;
}

}  // namespace castra::wire::campaign
