// MatchAdapter<W>: AnyMatch over Match<W::Game>, converting with the rule set's codec W (see
// WireCodec below). Only common/wire/any_match.cpp instantiates it. Same threading as Match.
#pragma once

#include <algorithm>
#include <concepts>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/match/record.hpp"
#include "common/wire/any_match.hpp"
#include "common/wire/reasons_codec.hpp"

namespace castra::wire {

// What a rule set's codec provides: the proto types, where they sit in the match.proto
// wrappers, and conversions both ways. Decoding checks form and gives a RuleError.
template <typename W>
concept WireCodec = rules::RuleSet<typename W::Game> &&
    requires(const v1::ScenarioFile& sf, const v1::GameCommand& gc, v1::GameCommand* mgc,
             const v1::GameEvent& ge, v1::GameEvent* mge, const v1::GameState& gs,
             v1::GameState* mgs, v1::GameLegal* mgl, const typename W::Game::Command& c,
             const typename W::Game::Event& e, const typename W::Game::State& s,
             const typename W::Game::Legal& l) {
  { W::kName } -> std::convertible_to<std::string_view>;
  { W::scenario(sf) } -> std::same_as<Checked<typename W::Game::Scenario>>;
  { W::command(gc) } -> std::same_as<Checked<typename W::Game::Command>>;
  { W::encode_command(c, mgc) } -> std::same_as<void>;
  { W::event(ge) } -> std::same_as<Checked<typename W::Game::Event>>;
  { W::encode_event(e, mge) } -> std::same_as<void>;
  { W::state(gs) } -> std::same_as<Checked<typename W::Game::State>>;
  { W::encode_state(s, mgs) } -> std::same_as<void>;
  // The list with its forecasts, both worked out on the requester's own view of the state.
  { W::encode_legal(s, l, mgl) } -> std::same_as<void>;
};

template <WireCodec W>
class MatchAdapter final : public AnyMatch {
 public:
  using G = typename W::Game;

  MatchAdapter(match::Match<G> m, v1::ScenarioFile scenario)
      : m_(std::move(m)), scenario_(std::move(scenario)) {}

  std::string ruleset() const override { return std::string(W::kName); }
  const std::string& id() const override { return m_.id(); }
  const std::string& rules_version() const override { return m_.rules_version(); }
  const v1::ScenarioFile& scenario() const override { return scenario_; }
  Bytes32 dice_commitment() const override { return m_.dice_commitment_value(); }
  const match::DiceInputs& secrets() const override { return m_.dice_inputs(); }

  std::optional<RuleError> seat(Side side, std::string entropy) override {
    return m_.seat(side, std::move(entropy));
  }
  bool seated(Side side) const override { return m_.seated(side); }

  Checked<std::size_t> submit(Side side, const v1::GameCommand& command,
                              const Bytes32& command_salt) override {
    auto decoded = W::command(command);
    if (!decoded) return decoded.error();
    return m_.submit(side, *decoded, command_salt);
  }

  std::optional<RuleError> end(match::EndReason reason, Side side, Outcome outcome) override {
    return m_.end(reason, side, std::move(outcome));
  }
  void force_rolls(std::vector<int> faces) override { m_.force_rolls(std::move(faces)); }

  rules::Acting acting() const override { return m_.acting(); }
  std::optional<Outcome> outcome() const override { return m_.outcome(); }
  std::size_t entry_count() const override { return m_.log().size(); }
  std::uint64_t event_count() const override { return m_.event_count(); }

  std::vector<v1::ViewEvent> events_for(Viewer v, std::uint64_t from) const override {
    std::vector<v1::ViewEvent> out;
    // Each event's words are worked out on the state just before it, as v sees it: `before`
    // runs along the log from the entry of the first event sent. A rule set that hides
    // nothing is read as it stands, without a projection's copy per event.
    const Viewer seen_as = m_.effective(v);
    std::optional<typename G::State> before;
    std::optional<typename G::State> viewed;
    std::size_t at_entry = 0;
    std::size_t at_event = 0;
    const auto state_before = [&](std::uint32_t entry,
                                  std::uint64_t number) -> const typename G::State& {
      if (!before) {
        before = m_.position_after(entry)->state;
        at_entry = entry;
      }
      const auto& log = m_.log();
      while (at_entry < log.size()) {
        const auto& entry = log[at_entry];
        if (at_event == entry.events.size()) {
          ++at_entry;
          at_event = 0;
        } else if (entry.first_event + at_event < number) {
          G::apply(*before, entry.events[at_event++]);
        } else {
          break;
        }
      }
      if constexpr (!G::kHidesInformation) {
        return *before;
      } else {
        viewed = G::project(*before, seen_as);
        return *viewed;
      }
    };
    for (const auto& ve : m_.events_for(v, from)) {
      v1::ViewEvent& p = out.emplace_back();
      p.set_number(ve.number);
      p.set_entry(ve.entry);
      p.set_visibility(static_cast<v1::Visibility>(static_cast<int>(ve.visibility.kind)));
      p.set_owner(side_to_proto(ve.visibility.owner));
      if (ve.event) {
        W::encode_event(*ve.event, p.mutable_event());
        p.set_text(G::describe(state_before(ve.entry, ve.number), *ve.event));
      }
      if (ve.commitment) p.set_commitment(match::to_hex(*ve.commitment));
    }
    return out;
  }

  v1::Snapshot snapshot(Viewer v) const override { return picture(m_.position(), v); }

  Checked<v1::Snapshot> snapshot_after(std::size_t entries, Viewer v) const override {
    auto past = m_.position_after(entries);
    if (!past) return past.error();
    return picture(*past, v);
  }

  Checked<v1::Snapshot> snapshot_after_events(std::uint64_t events, Viewer v) const override {
    auto past = m_.position_after_events(events);
    if (!past) return past.error();
    return picture(*past, v);
  }

  v1::GameLegal legal(Side side) const override {
    v1::GameLegal out;
    // On the side's own projection: a list or a forecast may use only what that side sees.
    const typename G::State own_view = G::project(m_.state(), rules::viewer_of(side));
    W::encode_legal(own_view, G::legal(own_view, side), &out);
    return out;
  }

  v1::PieceReasons reasons(Side side, const v1::Piece& piece) const override {
    return piece_reasons(G::project(m_.state(), rules::viewer_of(side)), side, piece);
  }

  v1::LogEntry log_entry(std::size_t i) const override {
    return entry_to_proto(m_.log()[i], false);
  }

  std::vector<SealSalt> salts(std::size_t i) const override {
    std::vector<SealSalt> out;
    for (const auto& seal : m_.log()[i].seals)
      out.push_back({seal.event_index, seal.salt});
    return out;
  }

  std::optional<std::string> replay(const v1::LogEntry& entry,
                                    const std::vector<SealSalt>& salts) override {
    auto decoded = stored_entry(entry, salts);
    if (!decoded) return decoded.error().message;
    return match::replay_entry(m_, *decoded, place_of(*decoded));
  }

  std::optional<std::string> adopt(const v1::LogEntry& entry,
                                   const std::vector<SealSalt>& salts) override {
    auto decoded = stored_entry(entry, salts);
    if (!decoded) return decoded.error().message;
    const std::size_t place = place_of(*decoded);
    return match::adopt_entry(m_, std::move(*decoded), place);
  }

  Bytes32 full_state_hash() const override { return m_.full_state_hash(); }
  std::optional<std::string> check() const override { return G::check(m_.state()); }

  std::optional<std::string> verify_from_start() const override {
    return match::verify_from_start(m_);
  }

  std::function<std::optional<std::string>()> verifier() const override {
    return [record = match::audit_record_of(m_)] { return match::verify(record); };
  }

  std::optional<v1::MatchRecord> record() const override {
    auto r = match::record_of(m_);
    if (!r) return std::nullopt;
    v1::MatchRecord out;
    out.set_format("castra-match-record/1");
    out.set_match_id(r->match_id);
    out.set_ruleset(std::string(W::kName));
    out.set_rules_version(r->rules_version);
    *out.mutable_scenario() = scenario_;
    out.set_dice_commitment(match::to_hex(r->dice_commitment));
    out.set_server_seed(match::to_hex(r->server_seed));
    out.set_entropy_a(match::to_hex(r->entropy_a));
    out.set_entropy_b(match::to_hex(r->entropy_b));
    for (const auto& e : r->entries)
      *out.add_entries() = entry_to_proto(e, true);
    if (r->outcome) outcome_to_proto(*r->outcome, out.mutable_outcome());
    out.set_final_state_hash(match::to_hex(r->final_state_hash));
    return out;
  }

  // The domain record of an exported one, or what is malformed in it.
  static Checked<match::Record<G>> record_from_proto(const v1::MatchRecord& in) {
    auto bad = [](const std::string& what) { return rules::refuse("record.form", what); };
    match::Record<G> r;
    r.match_id = in.match_id();
    r.rules_version = in.rules_version();
    auto scenario = W::scenario(in.scenario());
    if (!scenario) return scenario.error();
    r.scenario = std::move(*scenario);
    auto commitment = match::bytes32_from_hex(in.dice_commitment());
    auto seed = match::bytes32_from_hex(in.server_seed());
    auto ea = match::bytes_from_hex(in.entropy_a());
    auto eb = match::bytes_from_hex(in.entropy_b());
    auto final_hash = match::bytes32_from_hex(in.final_state_hash());
    if (!commitment || !seed || !ea || !eb || !final_hash) {
      return bad("the record's dice commitment, seed, entropy or final hash is not hex");
    }
    r.dice_commitment = *commitment;
    r.server_seed = *seed;
    r.entropy_a = *ea;
    r.entropy_b = *eb;
    r.final_state_hash = *final_hash;
    for (int i = 0; i < in.entries_size(); ++i) {
      auto e = entry_from_proto(in.entries(i), /*with_salts=*/true);
      if (!e) return bad("entry " + std::to_string(i) + ": " + e.error().message);
      r.entries.push_back(std::move(*e));
    }
    if (in.has_outcome()) r.outcome = outcome_from_proto(in.outcome());
    return r;
  }

 private:
  // What viewer v is shown of position p: the state projected as then, its hash, the counts,
  // who acts and how it ended. The one builder of a Snapshot, for now and for the past.
  v1::Snapshot picture(const match::Position<G>& p, Viewer v) const {
    v1::Snapshot s;
    s.set_match_id(m_.id());
    s.set_event_count(p.events);
    s.set_entry_count(static_cast<std::uint32_t>(p.entries));
    p.seen_by(v, [&](const typename G::State& seen) {
      W::encode_state(seen, s.mutable_state());
      s.set_state_hash(match::to_hex(match::state_hash<G>(seen)));
    });
    const rules::Acting now = p.acting();
    s.set_phase(now.phase);
    s.set_a_to_act(now.a);
    s.set_b_to_act(now.b);
    s.set_turn(now.turn);
    if (auto o = p.outcome()) {
      s.set_ended(true);
      outcome_to_proto(*o, s.mutable_outcome());
    }
    return s;
  }

  // A stored entry (kept without salts) with its salts, stored apart, put back in place.
  static Checked<match::Entry<G>> stored_entry(const v1::LogEntry& entry,
                                               const std::vector<SealSalt>& salts) {
    auto decoded = entry_from_proto(entry, /*with_salts=*/false);
    if (!decoded) return decoded;
    for (auto& seal : decoded->seals) {
      for (const auto& s : salts) {
        if (s.event_index == seal.event_index) seal.salt = s.salt;
      }
    }
    return decoded;
  }

  // Where a stored entry goes: seating both sides re-made the opening entry, which is then
  // checked in place; every other entry comes next.
  std::size_t place_of(const match::Entry<G>& e) const {
    return e.kind == match::EntryKind::kStart ? 0 : m_.log().size();
  }

  static v1::LogEntry entry_to_proto(const match::Entry<G>& e, bool with_salts) {
    v1::LogEntry p;
    p.set_kind(static_cast<v1::EntryKind>(static_cast<int>(e.kind)));
    p.set_side(side_to_proto(e.side));
    if (e.command) W::encode_command(*e.command, p.mutable_command());
    for (const auto& ev : e.events)
      W::encode_event(ev, p.add_events());
    p.set_first_event(e.first_event);
    for (const auto& roll : e.rolls) {
      v1::Roll* r = p.add_rolls();
      r->set_number(roll.number);
      r->set_faces(static_cast<std::uint32_t>(roll.die));
      r->set_face(static_cast<std::uint32_t>(roll.face));
    }
    for (const auto& seal : e.seals) {
      v1::Seal* s = p.add_seals();
      s->set_event_index(seal.event_index);
      s->set_commitment(match::to_hex(seal.commitment));
      if (with_salts) s->set_salt(match::to_hex(seal.salt));
    }
    if (e.outcome) outcome_to_proto(*e.outcome, p.mutable_outcome());
    p.set_end_reason(static_cast<v1::EndReason>(static_cast<int>(e.end_reason)));
    return p;
  }

  static Checked<match::Entry<G>> entry_from_proto(const v1::LogEntry& p, bool with_salts) {
    auto bad = [](const std::string& what) { return rules::refuse("record.form", what); };
    match::Entry<G> e;
    if (p.kind() < v1::ENTRY_START || p.kind() > v1::ENTRY_END) return bad("unknown entry kind");
    e.kind = static_cast<match::EntryKind>(static_cast<int>(p.kind()));
    e.side = side_from_proto(p.side());
    if (p.has_command()) {
      auto c = W::command(p.command());
      if (!c) return c.error();
      e.command = std::move(*c);
    }
    for (const auto& pe : p.events()) {
      auto ev = W::event(pe);
      if (!ev) return ev.error();
      e.events.push_back(std::move(*ev));
    }
    e.first_event = p.first_event();
    for (const auto& pr : p.rolls()) {
      if (pr.faces() != 6 && pr.faces() != 10) return bad("a roll of an unknown die");
      e.rolls.push_back(
          {pr.number(), static_cast<rules::Die>(pr.faces()), static_cast<int>(pr.face())});
    }
    for (const auto& ps : p.seals()) {
      match::Seal seal;
      seal.event_index = ps.event_index();
      auto commitment = match::bytes32_from_hex(ps.commitment());
      if (!commitment) return bad("a seal's commitment is not 64 hex digits");
      seal.commitment = *commitment;
      if (with_salts) {
        auto salt = match::bytes32_from_hex(ps.salt());
        if (!salt) return bad("a seal's salt is not 64 hex digits");
        seal.salt = *salt;
      }
      e.seals.push_back(seal);
    }
    if (p.has_outcome()) e.outcome = outcome_from_proto(p.outcome());
    if (p.end_reason() < v1::END_RESIGNED || p.end_reason() > v1::END_ABORTED) {
      return bad("unknown end reason");
    }
    e.end_reason = static_cast<match::EndReason>(static_cast<int>(p.end_reason()));
    return e;
  }

  match::Match<G> m_;
  v1::ScenarioFile scenario_;
};

// Creates the adapter for codec W, or the rule the scenario breaks.
template <WireCodec W>
Checked<std::unique_ptr<AnyMatch>> make_adapter(const MatchSetup& setup) {
  auto scenario = W::scenario(setup.scenario);
  if (!scenario) return scenario.error();
  auto m = match::Match<typename W::Game>::create(
      {setup.match_id, std::move(*scenario), setup.rules_version, setup.server_seed});
  if (!m) return m.error();
  return std::unique_ptr<AnyMatch>(
      std::make_unique<MatchAdapter<W>>(std::move(*m), setup.scenario));
}

template <WireCodec W>
std::optional<std::string> verify_with(const v1::MatchRecord& record) {
  auto r = MatchAdapter<W>::record_from_proto(record);
  if (!r) return "the record is malformed: " + r.error().message;
  return match::verify(*r);
}

}  // namespace castra::wire
