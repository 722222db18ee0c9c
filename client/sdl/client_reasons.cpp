// Client::reasons: GetReasons for the board on screen, one request per piece and board. The
// client never works out a reason itself; it shows what the server's engine said.
#include <string>

#include "client/sdl/client.hpp"

namespace castra::client {

const v1::PieceReasons* Client::reasons(const v1::Piece& piece) {
  MatchData& m = match_;
  if (m.offline || m.role != v1::ROLE_PLAYER || !m.snapshot || m.id.empty()) return nullptr;
  const std::uint64_t events = m.snapshot->event_count();
  if (events != m.reasons_for_events) {
    // A new board: every answer held is for an older one.
    m.reasons.clear();
    m.reasons_for_events = events;
  }
  const std::string key = piece.SerializeAsString();
  if (auto it = m.reasons.find(key); it != m.reasons.end()) return &it->second;
  if (!online() || m.reasons_asked.count(key) != 0) return nullptr;
  m.reasons_asked.insert(key);
  v1::ClientEnvelope e;
  e.mutable_get_reasons()->set_match_id(m.id);
  if (piece.kind_case() != v1::Piece::KIND_NOT_SET)
    *e.mutable_get_reasons()->mutable_piece() = piece;
  const std::string id = m.id;
  session_.request(std::move(e), [this, id, key, events](const v1::ServerEnvelope& r) {
    if (match_.id != id) return;
    match_.reasons_asked.erase(key);
    // An answer for a board that is gone is dropped: the next frame asks again. A refusal is
    // kept as an empty answer, so that it is not asked for again on this board.
    if (events != match_.reasons_for_events) return;
    if (r.has_reasons()) {
      match_.reasons[key] = r.reasons();
    } else if (r.has_error() && r.error().code() != v1::ERROR_UNSPECIFIED) {
      match_.reasons[key] = v1::PieceReasons();
    }
  });
  return nullptr;
}

}  // namespace castra::client
