// Toy matches through the store, for the store's tests, crash child and benchmark: the toy
// rule set's scenario, entries and states as blobs (a private little format; the server will
// use protobuf), the AppendRequests a server writes for them, and the replay check that
// start-up recovery needs. Pure functions; any thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/match/match.hpp"
#include "server/store/match_store.hpp"
#include "tests/match/toy_game.hpp"

namespace castra::toy_store {

using Game = toy::Game;
using ToyMatch = match::Match<Game>;
using ToyEntry = match::Entry<Game>;
using rules::Side;

// Reads what rules::ByteWriter wrote; any read past the end makes ok() false.
class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool done() const { return ok_ && at_ == in_.size(); }
  std::uint64_t fixed(int n) {
    if (!ok_ || in_.size() - at_ < static_cast<std::size_t>(n)) {
      ok_ = false;
      return 0;
    }
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= std::uint64_t{static_cast<unsigned char>(in_[at_ + i])} << (8 * i);
    at_ += static_cast<std::size_t>(n);
    return v;
  }
  std::uint8_t u8() { return static_cast<std::uint8_t>(fixed(1)); }
  bool boolean() { return u8() != 0; }
  std::uint32_t u32() { return static_cast<std::uint32_t>(fixed(4)); }
  std::uint64_t u64() { return fixed(8); }
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  std::string str() {
    const std::uint32_t n = u32();
    if (!ok_ || in_.size() - at_ < n) {
      ok_ = false;
      return {};
    }
    std::string s(in_.substr(at_, n));
    at_ += n;
    return s;
  }
  std::string bytes(std::size_t n) {
    if (!ok_ || in_.size() - at_ < n) {
      ok_ = false;
      return {};
    }
    std::string s(in_.substr(at_, n));
    at_ += n;
    return s;
  }

 private:
  std::string_view in_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

inline Side side_of(int i) {
  return i == 0 ? Side::kA : Side::kB;
}

inline std::string encode_scenario(const toy::Scenario& sc) {
  rules::ByteWriter w;
  w.i32(sc.goal);
  return w.take();
}

inline std::optional<toy::Scenario> decode_scenario(std::string_view in) {
  ByteReader r(in);
  toy::Scenario sc;
  sc.goal = r.i32();
  if (!r.done()) return std::nullopt;
  return sc;
}

// The whole state, hidden parts included: a snapshot is for the server only.
inline std::string encode_state(const toy::State& s) {
  rules::ByteWriter w;
  Game::encode(s, w);
  return w.take();
}

inline std::optional<toy::State> decode_state(std::string_view in) {
  ByteReader r(in);
  toy::State s;
  s.version = r.str();
  s.goal = r.i32();
  for (int i = 0; i < 2; ++i) {
    s.pos[i] = r.i32();
    s.secret_set[i] = r.boolean();
    s.secret[i] = r.str();
    const std::uint32_t notes = r.u32();
    for (std::uint32_t k = 0; r.ok() && k < notes; ++k)
      s.notes[i].push_back(r.str());
  }
  s.phase = r.i32();
  s.turn = side_of(r.u8());
  if (!r.done()) return std::nullopt;
  return s;
}

inline void encode_command(const toy::Command& c, rules::ByteWriter& w) {
  if (const auto* set = std::get_if<toy::SetSecret>(&c)) {
    w.tag('S');
    w.str(set->text);
  } else if (const auto* note = std::get_if<toy::Note>(&c)) {
    w.tag('N');
    w.str(note->text);
  } else {
    w.tag('A');
  }
}

inline std::optional<toy::Command> decode_command(ByteReader& r) {
  switch (r.u8()) {
    case 'S':
      return toy::Command{toy::SetSecret{r.str()}};
    case 'N':
      return toy::Command{toy::Note{r.str()}};
    case 'A':
      return toy::Command{toy::Advance{}};
    default:
      return std::nullopt;
  }
}

inline std::optional<toy::Command> decode_command_bytes(std::string_view in) {
  ByteReader r(in);
  auto c = decode_command(r);
  if (!r.done()) return std::nullopt;
  return c;
}

inline void encode_event(const toy::Event& e, rules::ByteWriter& w) {
  if (const auto* r = std::get_if<toy::RolledOff>(&e)) {
    w.tag('R');
    w.i32(r->a);
    w.i32(r->b);
  } else if (const auto* set = std::get_if<toy::SecretSet>(&e)) {
    w.tag('S');
    w.u8(static_cast<std::uint8_t>(set->side));
    w.str(set->text);
  } else if (const auto* m = std::get_if<toy::Moved>(&e)) {
    w.tag('M');
    w.u8(static_cast<std::uint8_t>(m->side));
    w.i32(m->face);
    w.i32(m->to);
  } else {
    const auto& n = std::get<toy::Noted>(e);
    w.tag('N');
    w.u8(static_cast<std::uint8_t>(n.side));
    w.str(n.text);
  }
}

inline std::optional<toy::Event> decode_event(ByteReader& r) {
  switch (r.u8()) {
    case 'R': {
      toy::RolledOff e;
      e.a = r.i32();
      e.b = r.i32();
      return toy::Event{e};
    }
    case 'S': {
      toy::SecretSet e;
      e.side = side_of(r.u8());
      e.text = r.str();
      return toy::Event{e};
    }
    case 'M': {
      toy::Moved e;
      e.side = side_of(r.u8());
      e.face = r.i32();
      e.to = r.i32();
      return toy::Event{e};
    }
    case 'N': {
      toy::Noted e;
      e.side = side_of(r.u8());
      e.text = r.str();
      return toy::Event{e};
    }
    default:
      return std::nullopt;
  }
}

// An entry as the log keeps it, with the client_seq of the command that made it (so a test
// can see that no command was applied twice). Seal salts are secrets: they go to
// LogRow::salts, never into these bytes. kEnd entries are not used by these tests.
struct StoredEntry {
  ToyEntry entry;
  std::optional<std::int64_t> client_seq;
};

inline std::string encode_entry(const ToyEntry& e, std::optional<std::int64_t> client_seq) {
  rules::ByteWriter w;
  w.u8(static_cast<std::uint8_t>(e.kind));
  w.u8(static_cast<std::uint8_t>(e.side));
  w.boolean(client_seq.has_value());
  w.u64(static_cast<std::uint64_t>(client_seq.value_or(0)));
  w.boolean(e.command.has_value());
  if (e.command) encode_command(*e.command, w);
  w.u64(e.first_event);
  w.u32(static_cast<std::uint32_t>(e.events.size()));
  for (const auto& ev : e.events)
    encode_event(ev, w);
  w.u32(static_cast<std::uint32_t>(e.rolls.size()));
  for (const auto& roll : e.rolls) {
    w.u64(roll.number);
    w.u8(static_cast<std::uint8_t>(roll.die));
    w.i32(roll.face);
  }
  w.u32(static_cast<std::uint32_t>(e.seals.size()));
  for (const auto& seal : e.seals) {
    w.u32(seal.event_index);
    for (std::uint8_t b : seal.commitment)
      w.u8(b);
  }
  return w.take();
}

inline std::optional<StoredEntry> decode_entry(std::string_view in,
                                               const std::vector<store::SealSalt>& salts) {
  ByteReader r(in);
  StoredEntry out;
  ToyEntry& e = out.entry;
  e.kind = static_cast<match::EntryKind>(r.u8());
  e.side = side_of(r.u8());
  const bool has_seq = r.boolean();
  const auto seq = static_cast<std::int64_t>(r.u64());
  if (has_seq) out.client_seq = seq;
  if (r.boolean()) {
    e.command = decode_command(r);
    if (!e.command) return std::nullopt;
  }
  e.first_event = r.u64();
  const std::uint32_t events = r.u32();
  for (std::uint32_t i = 0; r.ok() && i < events; ++i) {
    auto ev = decode_event(r);
    if (!ev) return std::nullopt;
    e.events.push_back(*ev);
  }
  const std::uint32_t rolls = r.u32();
  for (std::uint32_t i = 0; r.ok() && i < rolls; ++i) {
    match::Roll roll;
    roll.number = r.u64();
    roll.die = static_cast<rules::Die>(r.u8());
    roll.face = r.i32();
    e.rolls.push_back(roll);
  }
  const std::uint32_t seals = r.u32();
  for (std::uint32_t i = 0; r.ok() && i < seals; ++i) {
    match::Seal seal;
    seal.event_index = r.u32();
    for (auto& b : seal.commitment)
      b = r.u8();
    e.seals.push_back(seal);
  }
  if (!r.done() || salts.size() != e.seals.size()) return std::nullopt;
  for (std::size_t i = 0; i < salts.size(); ++i) {
    if (salts[i].event_index != e.seals[i].event_index || salts[i].salt.size() != 32) {
      return std::nullopt;
    }
    std::memcpy(e.seals[i].salt.data(), salts[i].salt.data(), 32);
  }
  return out;
}

inline std::string as_string(const match::Bytes32& b) {
  return std::string(match::as_view(b));
}

// The log row for entry `index` of `m`.
inline store::LogRow log_row(const ToyMatch& m, std::size_t index,
                             std::optional<std::int64_t> client_seq) {
  const ToyEntry& e = m.log()[index];
  store::LogRow row;
  row.entry_index = static_cast<std::uint32_t>(index);
  row.kind = static_cast<int>(e.kind);
  row.side = rules::index(e.side);
  row.first_event = e.first_event;
  row.event_count = static_cast<std::uint32_t>(e.events.size());
  row.entry = encode_entry(e, client_seq);
  for (const auto& seal : e.seals)
    row.salts.push_back({seal.event_index, as_string(seal.salt)});
  return row;
}

inline store::Snapshot snapshot_of(const ToyMatch& m) {
  return store::Snapshot{static_cast<std::uint32_t>(m.log().size()), m.event_count(),
                         encode_state(m.state()), as_string(m.full_state_hash())};
}

// The row of a new toy match, before anyone is seated.
inline store::MatchRow new_match_row(const ToyMatch& m, std::int64_t now_ms) {
  store::MatchRow row;
  row.id = m.id();
  row.ruleset = "toy";
  row.rules_version = m.rules_version();
  row.scenario_name = "toy/race";
  row.scenario = encode_scenario(m.scenario());
  row.status = store::MatchStatus::kOpen;
  row.dice_commitment = as_string(m.dice_commitment_value());
  row.created_ms = now_ms;
  row.updated_ms = now_ms;
  return row;
}

// The row's columns that follow the match: status, whose turn, outcome.
inline store::MatchRow updated_row(store::MatchRow row, const ToyMatch& m, std::int64_t now_ms) {
  const rules::Acting acting = m.acting();
  row.to_act = std::string(acting.a ? "A" : "") + (acting.b ? "B" : "");
  if (auto o = m.outcome()) {
    row.status = store::MatchStatus::kFinished;
    row.outcome = std::string(1, static_cast<char>(o->kind)) + o->reason;
  } else if (m.started()) {
    row.status = store::MatchStatus::kLive;
  }
  row.updated_ms = now_ms;
  return row;
}

// A deterministic seed for tests (a server draws it from the OS CSPRNG).
inline match::Bytes32 test_seed(std::string_view id) {
  return match::sha256(id);
}

inline ToyMatch new_toy_match(const std::string& id, int goal, const match::Bytes32& seed) {
  auto m = ToyMatch::create({id, toy::Scenario{goal}, "", seed});
  return std::move(*m);
}

// Seats both players (accounts 1 and 2): their entropy, the opening entry, the row going live.
inline store::AppendRequest seat_both(ToyMatch& m, store::MatchRow& row, const std::string& a,
                                      const std::string& b, std::int64_t now_ms) {
  m.seat(Side::kA, a);
  m.seat(Side::kB, b);
  store::AppendRequest request;
  request.match_id = m.id();
  request.secrets_update = store::Secrets{"", a, b};
  request.entry = log_row(m, 0, std::nullopt);
  row.player_a = 1;
  row.player_b = 2;
  row = updated_row(row, m, now_ms);
  request.match_update = row;
  return request;
}

// One command from `side` under its client sequence number, as the server's runtime will do
// it: through the rules (applied to `m` if accepted), then the request that records it: the
// entry, the reply, the row, and a snapshot every `snapshot_every` entries.
inline store::AppendRequest command_request(ToyMatch& m, store::MatchRow& row, Side side,
                                            std::int64_t client_seq, const toy::Command& command,
                                            std::uint32_t snapshot_every, std::int64_t now_ms,
                                            const match::Bytes32& salt) {
  store::AppendRequest request;
  request.match_id = m.id();
  request.side = rules::index(side);
  request.client_seq = client_seq;
  auto done = m.submit(side, command, salt);
  if (!done) {
    request.reply = "refused " + done.error().rule;
    return request;
  }
  request.entry = log_row(m, *done, client_seq);
  request.reply = "ok " + std::to_string(*done);
  row = updated_row(row, m, now_ms);
  request.match_update = row;
  if (snapshot_every > 0 && m.log().size() % snapshot_every == 0) request.snapshot = snapshot_of(m);
  return request;
}

// What a player sends next: its secret first, then mostly advances, now and then a private
// note, and now and then a late secret the rules refuse.
inline toy::Command next_command(const ToyMatch& m, std::int64_t client_seq) {
  if (m.state().phase == 0) return toy::SetSecret{"secret " + std::to_string(client_seq)};
  if (client_seq % 7 == 3) return toy::Note{"note " + std::to_string(client_seq)};
  if (client_seq % 11 == 5) return toy::SetSecret{"too late"};
  return toy::Advance{};
}

// The side that acts now: A first when both must.
inline Side acting_side(const ToyMatch& m) {
  return m.acting().a ? Side::kA : Side::kB;
}

// A match rebuilt from the store: created from its row and secrets, seated, every command
// replayed through the rules, each stored entry compared with the replay's, then compared
// with the fast load (latest snapshot plus the entries after it). Why it failed otherwise.
struct Replayed {
  std::optional<ToyMatch> match;
  std::string why;  // empty when the match replays and agrees with what was stored
  std::vector<std::optional<std::int64_t>> client_seqs;  // per entry
};

inline Replayed replay(const store::MatchRow& row, const store::Secrets& secrets,
                       const std::optional<store::Snapshot>& snapshot,
                       const std::vector<store::LogRow>& log) {
  Replayed out;
  auto fail = [&](std::string why) {
    out.match.reset();
    out.why = std::move(why);
    return out;
  };
  const auto scenario = decode_scenario(row.scenario);
  if (!scenario || secrets.server_seed.size() != 32) return fail("unreadable scenario or seed");
  match::Bytes32 seed{};
  std::memcpy(seed.data(), secrets.server_seed.data(), 32);
  auto created = ToyMatch::create({row.id, *scenario, row.rules_version, seed});
  if (!created) return fail("create: " + created.error().message);
  ToyMatch m = std::move(*created);
  if (secrets.entropy_a) m.seat(Side::kA, *secrets.entropy_a);
  if (secrets.entropy_b) m.seat(Side::kB, *secrets.entropy_b);

  std::optional<std::string> hash_at_snapshot;
  if (snapshot && snapshot->entry_count == 0) hash_at_snapshot = as_string(m.full_state_hash());
  for (std::size_t i = 0; i < log.size(); ++i) {
    const std::string step = "entry " + std::to_string(i);
    if (log[i].entry_index != i) return fail(step + ": missing from the log");
    auto stored = decode_entry(log[i].entry, log[i].salts);
    if (!stored) return fail(step + ": unreadable");
    const ToyEntry& want = stored->entry;
    if (want.kind == match::EntryKind::kCommand) {
      auto done = m.submit(want.side, *want.command, match::Bytes32{});
      if (!done) return fail(step + ": the rules refuse it: " + done.error().message);
    }
    if (m.log().size() != i + 1) return fail(step + ": the replay has no such entry");
    const ToyEntry& got = m.log()[i];
    if (got.kind != want.kind || got.events != want.events || got.rolls != want.rolls ||
        got.first_event != want.first_event || log[i].first_event != want.first_event ||
        log[i].event_count != want.events.size()) {
      return fail(step + ": the replay's events differ from the stored ones");
    }
    for (const auto& seal : want.seals) {
      if (seal.event_index >= want.events.size() ||
          match::sealed_commitment(seal.salt, Game::sealed_bytes(want.events[seal.event_index])) !=
              seal.commitment) {
        return fail(step + ": a sealed event does not match its commitment");
      }
    }
    out.client_seqs.push_back(stored->client_seq);
    if (snapshot && snapshot->entry_count == i + 1)
      hash_at_snapshot = as_string(m.full_state_hash());
  }

  if (snapshot) {
    if (!hash_at_snapshot || *hash_at_snapshot != snapshot->state_hash) {
      return fail("the snapshot's hash is not the replay's");
    }
    // The fast load a server does: the snapshot, then the events of the entries after it.
    auto state = decode_state(snapshot->state);
    if (!state || as_string(match::state_hash<Game>(*state)) != snapshot->state_hash) {
      return fail("the snapshot's state does not match its hash");
    }
    for (std::size_t i = snapshot->entry_count; i < log.size(); ++i) {
      for (const auto& ev : m.log()[i].events)
        Game::apply(*state, ev);
    }
    if (match::state_hash<Game>(*state) != m.full_state_hash()) {
      return fail("snapshot plus later entries do not give the replay's state");
    }
  }
  out.match = std::move(m);
  return out;
}

}  // namespace castra::toy_store
