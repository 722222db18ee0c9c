// Clients: what the server knows of each open connection (handshake, identity, the match
// rooms it has entered) and the indexes pushes need (connections of an account, members of
// a room). Service thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "proto/castra/v1/protocol.pb.h"
#include "server/net/connection.hpp"

namespace castra::dispatch {

enum class Identity { kNone, kGuest, kAccount };

struct Client {
  std::uint64_t id = 0;
  std::weak_ptr<net::Connection> connection;
  std::string address;
  bool secure = false;
  std::int64_t connected_ms = 0;
  bool greeted = false;
  std::string client_name;  // from Hello, for logs and the admin's list
  Identity identity = Identity::kNone;
  std::int64_t account_id = 0;  // kAccount only
  std::string name;             // account or guest name
  std::string token_hash;       // the session this connection signed in with
  bool auth_pending = false;    // a password operation is running for it
  std::set<std::string> rooms;  // subscribed match ids
};

struct RoomMember {
  castra::v1::Role role = castra::v1::ROLE_SPECTATOR;
  int side = -1;  // players only
};

class Clients {
 public:
  static constexpr std::size_t kMaxRoomsPerClient = 32;

  Client& add(std::uint64_t id, std::weak_ptr<net::Connection> connection, std::string address,
              bool secure, std::int64_t now_ms);
  void remove(std::uint64_t id);
  Client* find(std::uint64_t id);
  std::size_t size() const { return clients_.size(); }
  const std::map<std::uint64_t, Client>& all() const { return clients_; }

  void sign_in(Client& client, Identity identity, std::int64_t account_id, std::string name,
               std::string token_hash);
  void sign_out(Client& client);
  std::vector<Client*> of_account(std::int64_t account_id);

  void enter(Client& client, const std::string& match_id, RoomMember member);
  bool leave(Client& client, const std::string& match_id);
  // The members of a room, by client id; empty when nobody is in it.
  const std::map<std::uint64_t, RoomMember>& room(const std::string& match_id) const;
  std::optional<RoomMember> member(const Client& client, const std::string& match_id) const;

  // Sends a push (request_id 0) to one client.
  void push(const Client& client, const castra::v1::ServerEnvelope& envelope);

 private:
  std::map<std::uint64_t, Client> clients_;
  std::map<std::int64_t, std::set<std::uint64_t>> by_account_;
  std::map<std::string, std::map<std::uint64_t, RoomMember>> rooms_;
};

}  // namespace castra::dispatch
