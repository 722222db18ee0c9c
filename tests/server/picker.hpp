// A player who knows nothing of the rules, for the integration tests that play whole games
// through the server: it picks each command from the legal list the server sent.
#pragma once

#include <optional>
#include <set>

#include "common/rules/types.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::testing {

namespace v1 = castra::v1;

// A player who knows nothing of the rules: it picks from the legal list the server sent.
// It deploys everything, draws the shortest orders, attacks when it can, and otherwise ends
// its phase, so every game reaches its turn limit or a break.
struct Picker {
  std::set<int> deployed;
  std::set<int> placed;
  int orders_extra = 0;  // squares each orders path goes on past its start, zigzagging forward

  std::optional<v1::GameCommand> pick(const v1::GameLegal& legal, rules::Side side) {
    v1::GameCommand c;
    if (legal.has_optio()) {
      const auto& l = legal.optio();
      auto* oc = c.mutable_optio();
      for (const auto& u : l.units()) {
        if (u.placements_size() == 0 || !deployed.insert(u.unit()).second) continue;
        auto* d = oc->mutable_deploy();
        d->set_unit(u.unit());
        *d->mutable_at() = u.placements(0);
        d->set_facing(u.facings_size() > 0 ? u.facings(0) : 0);
        if (u.formations_size() > 0) d->set_formation(u.formations(0));
        return c;
      }
      for (const auto& ld : l.leaders()) {
        if (ld.place_on_size() == 0 || !placed.insert(ld.leader()).second) continue;
        oc->mutable_place_leader()->set_leader(ld.leader());
        oc->mutable_place_leader()->set_unit(ld.place_on(0));
        return c;
      }
      if (l.end_deployment()) {
        oc->mutable_end_deployment();
        return c;
      }
      if (l.orders().submit()) {
        for (const auto& start : l.orders().starts()) {
          auto* path = oc->mutable_submit_orders()->add_paths();
          *path = start;
          v1::Coord next = start.squares(0);
          for (int k = 0; k < orders_extra; ++k) {
            next.set_row(next.row() + (side == rules::Side::kA ? 1 : -1));
            next.set_col(next.col() + (k % 2 == 0 ? 1 : -1));
            *path->add_squares() = next;
          }
        }
        return c;
      }
      if (l.end_phase()) {
        oc->mutable_end_phase();
        return c;
      }
      return std::nullopt;
    }
    const auto& l = legal.stand();
    auto* sc = c.mutable_stand();
    if (l.deploy_size() > 0 && l.deploy(0).destinations_size() > 0) {
      const auto& g = l.deploy(0);
      const auto& dest = g.destinations(0);
      auto* d = sc->mutable_deploy();
      *d->mutable_hex() = dest.hex();
      // One type at a time: the most of the group's first type that fits.
      v1::stand::Figures f;
      switch (g.types(0)) {
        case v1::stand::TROOP_INFANTRY:
          f.set_infantry(dest.most().infantry());
          break;
        case v1::stand::TROOP_ARCHERS:
          f.set_archers(dest.most().archers());
          break;
        case v1::stand::TROOP_CAVALRY:
          f.set_cavalry(dest.most().cavalry());
          break;
        default:
          f.set_chariots(dest.most().chariots());
          break;
      }
      *d->mutable_figures() = f;
      return c;
    }
    if (l.attacks_size() > 0 && l.attacks(0).targets_size() > 0) {
      *sc->mutable_attack()->mutable_from() = l.attacks(0).from();
      *sc->mutable_attack()->mutable_target() = l.attacks(0).targets(0);
      return c;
    }
    if (l.end_phase()) {
      sc->mutable_end_phase();
      return c;
    }
    return std::nullopt;
  }
};

}  // namespace castra::testing
