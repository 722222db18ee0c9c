#include "server/dispatch/clients.hpp"

#include "server/dispatch/reply.hpp"

namespace castra::dispatch {

Client& Clients::add(std::uint64_t id, std::weak_ptr<net::Connection> connection,
                     std::string address, bool secure, std::int64_t now_ms) {
  Client& c = clients_[id];
  c.id = id;
  c.connection = std::move(connection);
  c.address = std::move(address);
  c.secure = secure;
  c.connected_ms = now_ms;
  return c;
}

void Clients::remove(std::uint64_t id) {
  auto it = clients_.find(id);
  if (it == clients_.end()) return;
  sign_out(it->second);
  clients_.erase(it);
}

Client* Clients::find(std::uint64_t id) {
  auto it = clients_.find(id);
  return it == clients_.end() ? nullptr : &it->second;
}

void Clients::sign_in(Client& client, Identity identity, std::int64_t account_id, std::string name,
                      std::string token_hash) {
  sign_out(client);
  client.identity = identity;
  client.account_id = account_id;
  client.name = std::move(name);
  client.token_hash = std::move(token_hash);
  if (identity == Identity::kAccount) by_account_[account_id].insert(client.id);
}

void Clients::sign_out(Client& client) {
  // Rooms were entered under the old identity (a role, a side): leave them all.
  for (const auto& match_id : std::set<std::string>(client.rooms))
    leave(client, match_id);
  if (client.identity == Identity::kAccount) {
    auto it = by_account_.find(client.account_id);
    if (it != by_account_.end()) {
      it->second.erase(client.id);
      if (it->second.empty()) by_account_.erase(it);
    }
  }
  client.identity = Identity::kNone;
  client.account_id = 0;
  client.name.clear();
  client.token_hash.clear();
}

std::vector<Client*> Clients::of_account(std::int64_t account_id) {
  std::vector<Client*> out;
  auto it = by_account_.find(account_id);
  if (it == by_account_.end()) return out;
  for (auto id : it->second) {
    if (Client* c = find(id)) out.push_back(c);
  }
  return out;
}

void Clients::enter(Client& client, const std::string& match_id, RoomMember member) {
  client.rooms.insert(match_id);
  rooms_[match_id][client.id] = member;
}

bool Clients::leave(Client& client, const std::string& match_id) {
  if (client.rooms.erase(match_id) == 0) return false;
  auto it = rooms_.find(match_id);
  if (it != rooms_.end()) {
    it->second.erase(client.id);
    if (it->second.empty()) rooms_.erase(it);
  }
  return true;
}

const std::map<std::uint64_t, RoomMember>& Clients::room(const std::string& match_id) const {
  static const std::map<std::uint64_t, RoomMember> kEmpty;
  auto it = rooms_.find(match_id);
  return it == rooms_.end() ? kEmpty : it->second;
}

std::optional<RoomMember> Clients::member(const Client& client, const std::string& match_id) const {
  const auto& r = room(match_id);
  auto it = r.find(client.id);
  if (it == r.end()) return std::nullopt;
  return it->second;
}

void Clients::push(const Client& client, const castra::v1::ServerEnvelope& envelope) {
  if (auto c = client.connection.lock()) c->send(frame_of(envelope, c->encoding()));
}

}  // namespace castra::dispatch
