// The promises of docs/protocol.md and docs/operations.md that issue 16 found broken from the
// outside, one test each, through the real server: client_seq's rule, MatchEnded, a delayed
// spectator's view, who may read a match's past, error codes, HTTP refusals, SIGTERM, and the
// per-address limit counted from the accept. The protocol's cases run in both encodings
// (CASTRA_ENCODED_TEST: JsonProtocol.ProtocolPromises_*); the HTTP and TCP ones once, as they
// have no encoding.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

v1::ClientEnvelope ping(std::uint64_t nonce) {
  v1::ClientEnvelope e;
  e.mutable_ping()->set_nonce(nonce);
  return e;
}

v1::ClientEnvelope with_delay(v1::ClientEnvelope create, std::uint32_t delay) {
  create.mutable_create_match()->mutable_settings()->set_spectator_delay_turns(delay);
  return create;
}

// Alice creates `create` and sits as side A; bob joins (with the code of a private match).
std::string started(Player& alice, Player& bob, const v1::ClientEnvelope& create) {
  auto created = call(*alice.client, create);
  EXPECT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  const auto joined = call(*bob.client, req::join_match(id, client_entropy(),
                                                        created.match_created().invitation_code()));
  EXPECT_TRUE(joined.has_match_joined()) << joined.DebugString();
  return id;
}

std::string started(Player& alice, Player& bob) {
  return started(alice, bob, req::create_match("optio/test", true));
}

// The pushes `c` has already received: a ping's answer comes after every frame the server
// queued for `c` before it, so nothing is waited for but that answer.
std::vector<v1::ServerEnvelope> pushes_so_far(client::ProtocolClient& c) {
  EXPECT_TRUE(call(c, ping(7)).has_pong());
  std::vector<v1::ServerEnvelope> out;
  std::string error;
  while (auto p = c.next_push(0ms, &error))
    out.push_back(std::move(*p));
  return out;
}

// The first push of `c` that is a MatchEnded, waiting for it.
std::optional<v1::MatchEnded> match_ended(client::ProtocolClient& c) {
  std::string error;
  while (auto p = c.next_push(5s, &error)) {
    if (p->has_match_ended()) return p->match_ended();
  }
  ADD_FAILURE() << "no MatchEnded: " << error;
  return std::nullopt;
}

// --- 1 ---------------------------------------------------------------------------------

CASTRA_ENCODED_TEST(ProtocolPromises,
                    ClientSeqIsStrictlyIncreasingPerSideAndARepeatMustBeTheSameCommand) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id = started(alice, bob);
  Picker picker;
  auto legal = call(*alice.client, get_legal(id));
  const auto first_cmd = picker.pick(legal.legal().legal(), rules::Side::kA);
  ASSERT_TRUE(first_cmd);
  const auto first = call(*alice.client, submit(id, 10, *first_cmd));
  ASSERT_TRUE(first.command_result().accepted()) << first.DebugString();
  legal = call(*alice.client, get_legal(id));
  const auto second_cmd = picker.pick(legal.legal().legal(), rules::Side::kA);
  ASSERT_TRUE(second_cmd);
  // Below the last one and unknown: refused, not applied.
  const auto lower = call(*alice.client, submit(id, 5, *second_cmd));
  EXPECT_EQ(error_of(lower), v1::ERROR_SEQUENCE_GAP) << lower.DebugString();
  // A known one with another command: said so, not the old answer.
  const auto reused = call(*alice.client, submit(id, 10, *second_cmd));
  EXPECT_EQ(error_of(reused), v1::ERROR_SEQUENCE_GAP) << reused.DebugString();
  EXPECT_NE(reused.error().message().find("another command"), std::string::npos);
  // A known one with its own command: the first answer.
  const auto repeat = call(*alice.client, submit(id, 10, *first_cmd));
  EXPECT_EQ(repeat.command_result().SerializeAsString(),
            first.command_result().SerializeAsString());
  // 2^64-1 does not fit the stored number (it would wrap below every other).
  EXPECT_EQ(error_of(call(*alice.client, submit(id, UINT64_MAX, *second_cmd))),
            v1::ERROR_INVALID_REQUEST);
  // The numbering is per side: bob's first command may be 1 (here out of turn: refused by
  // the turn rule, not by the numbering).
  const auto bobs = call(*bob.client, submit(id, 1, *second_cmd));
  EXPECT_EQ(bobs.command_result().error().rule(), "match.turn") << bobs.DebugString();
  const auto next = call(*alice.client, submit(id, 11, *second_cmd));
  EXPECT_TRUE(next.command_result().accepted()) << next.DebugString();
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
  const auto record = call(*alice.client, export_record(id));
  ASSERT_TRUE(record.has_record()) << record.DebugString();
  int commands = 0;
  for (const auto& e : record.record().entries())
    commands += e.kind() == v1::ENTRY_COMMAND;
  EXPECT_EQ(commands, 2);
}

// --- 2 ---------------------------------------------------------------------------------

CASTRA_ENCODED_TEST(ProtocolPromises, MatchEndedIsPushedToPlayersAndSpectatorsAtEveryDelay) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  for (std::uint32_t delay : {0u, 1u, 2u}) {
    SCOPED_TRACE("spectator_delay_turns " + std::to_string(delay));
    const std::string id =
        started(alice, bob, with_delay(req::create_match("optio/test", true), delay));
    ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
    ASSERT_TRUE(call(*carol.client, req::subscribe(id)).has_subscribed());
    ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
    const auto record = call(*alice.client, export_record(id));
    ASSERT_TRUE(record.has_record());
    for (client::ProtocolClient* c : {alice.client.get(), carol.client.get()}) {
      const auto ended = match_ended(*c);
      ASSERT_TRUE(ended);
      EXPECT_EQ(ended->match_id(), id);
      EXPECT_EQ(ended->status(), v1::MATCH_FINISHED);
      EXPECT_EQ(ended->reason(), v1::END_RESIGNED);
      EXPECT_EQ(ended->outcome().kind(), v1::Outcome::WIN_A);
      EXPECT_EQ(ended->server_seed().size(), 64u);
      EXPECT_EQ(ended->server_seed(), record.record().server_seed());
    }
    v1::ClientEnvelope leave;
    leave.mutable_unsubscribe_match()->set_match_id(id);
    call(*alice.client, leave);
    call(*carol.client, leave);
  }
}

// --- 3 ---------------------------------------------------------------------------------

// What a spectator `delay` turns behind is sent, command by command of a whole game: an
// update exactly when the live turn moves on, showing the board `delay` turns back, with
// every event up to it once and in order; at the end, the record and MatchEnded.
void expect_delayed_view(std::uint32_t delay) {
  SCOPED_TRACE("spectator_delay_turns " + std::to_string(delay));
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  auto created = call(*alice.client, with_delay(req::create_match("optio/test", true), delay));
  const std::string id = created.match_created().match().match_id();
  ASSERT_FALSE(error_of(call(*alice.client, sit(id))));
  ASSERT_TRUE(call(*carol.client, req::subscribe(id)).has_subscribed());
  ASSERT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());

  std::uint64_t carol_events = 0;  // the events carol has been sent
  int carol_turn = -1;
  std::optional<v1::MatchEnded> ended_push;
  auto take = [&](const std::vector<v1::ServerEnvelope>& pushes, int live_turn, bool ended) {
    int updates = 0;
    for (const auto& p : pushes) {
      if (p.has_match_ended()) ended_push = p.match_ended();
      if (!p.has_match_update() || !p.match_update().has_snapshot()) continue;
      const auto& u = p.match_update();
      ++updates;
      for (const auto& e : u.events())
        EXPECT_EQ(e.number(), carol_events++) << "an event missed or sent twice";
      EXPECT_EQ(u.snapshot().event_count(), carol_events);
      carol_turn = u.snapshot().turn();
      if (!ended) {
        EXPECT_EQ(carol_turn, std::max(live_turn - static_cast<int>(delay), 0));
        EXPECT_FALSE(u.has_record());
      }
    }
    return updates;
  };
  take(pushes_so_far(*carol.client), 0, false);

  Picker pickers[2];
  std::uint64_t seq[2] = {0, 0};
  Player* players[2] = {&alice, &bob};
  int live_turn = 0;
  int turns_seen = 0;
  bool over = false;
  for (int round = 0; round < 2000 && !over; ++round) {
    bool moved = false;
    for (int p = 0; p < 2 && !over; ++p) {
      const rules::Side side = p == 0 ? rules::Side::kA : rules::Side::kB;
      auto legal = call(*players[p]->client, get_legal(id));
      auto cmd = pickers[p].pick(legal.legal().legal(), side);
      if (!cmd) continue;
      auto result = call(*players[p]->client, submit(id, ++seq[p], *cmd));
      if (!result.command_result().accepted()) continue;
      moved = true;
      // The live turn after the command, as its player was shown it.
      auto now =
          call(*players[p]->client, req::get_snapshot(id, result.command_result().entry() + 1));
      over = now.snapshot().ended();
      const int turn = now.snapshot().turn();
      const int updates = take(pushes_so_far(*carol.client), turn, over);
      if (!over) {
        // Carol's view moves when (and only when) the frontier `delay` turns back does.
        const bool frontier_moved = turn != live_turn && turn >= static_cast<int>(delay);
        EXPECT_EQ(updates, frontier_moved ? 1 : 0) << "live turn " << live_turn << " -> " << turn;
        turns_seen += frontier_moved;
      }
      live_turn = turn;
    }
    ASSERT_TRUE(moved) << "nobody could move at round " << round;
  }
  ASSERT_TRUE(over);
  EXPECT_GT(turns_seen, 2) << "a game of a few turns only";
  // At the end the spectator is sent everything, then MatchEnded.
  const auto record = call(*alice.client, export_record(id));
  ASSERT_TRUE(record.has_record());
  std::uint64_t all_events = 0;
  for (const auto& e : record.record().entries())
    all_events += static_cast<std::uint64_t>(e.events_size());
  EXPECT_EQ(carol_events, all_events);
  EXPECT_EQ(carol_turn, live_turn);
  if (!ended_push) ended_push = match_ended(*carol.client);
  ASSERT_TRUE(ended_push);
  EXPECT_EQ(ended_push->server_seed(), record.record().server_seed());
}

CASTRA_ENCODED_TEST(ProtocolPromises, ADelayedSpectatorSeesEachTurnAsTheLiveTurnMovesOn) {
  expect_delayed_view(1);
  expect_delayed_view(2);
}

// --- 4 ---------------------------------------------------------------------------------

CASTRA_ENCODED_TEST(ProtocolPromises, AFinishedMatchsPastIsReadUnderTheRuleOfWatchingIt) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player dave = registered(server.ws_url(), "dave");
  struct Case {
    bool is_private;
    bool spectators;
    v1::ErrorCode stranger;  // what dave, who has only the id, is answered
  };
  for (const Case k : {Case{true, false, v1::ERROR_SPECTATORS_NOT_ALLOWED},
                       Case{true, true, v1::ERROR_BAD_INVITATION},
                       Case{false, false, v1::ERROR_SPECTATORS_NOT_ALLOWED},
                       Case{false, true, v1::ERROR_UNSPECIFIED}}) {
    SCOPED_TRACE(std::string(k.is_private ? "private" : "public") +
                 (k.spectators ? ", spectators" : ", no spectators"));
    auto create = req::create_match("optio/test", k.spectators, k.is_private);
    const std::string id = started(alice, bob, create);
    ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
    EXPECT_TRUE(call(*alice.client, export_record(id)).has_record());
    EXPECT_TRUE(call(*bob.client, req::get_snapshot(id, 1)).has_snapshot());
    const auto watched = call(*dave.client, req::subscribe(id));
    const auto exported = call(*dave.client, export_record(id));
    const auto snapshot = call(*dave.client, req::get_snapshot(id, 1));
    EXPECT_EQ(error_of(watched), k.stranger) << watched.DebugString();
    EXPECT_EQ(error_of(exported), k.stranger) << exported.DebugString();
    EXPECT_EQ(error_of(snapshot), k.stranger) << snapshot.DebugString();
  }
}

// --- 5 ---------------------------------------------------------------------------------

CASTRA_ENCODED_TEST(ProtocolPromises, ErrorCodesAreTheDocumentedOnes) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player dave = registered(server.ws_url(), "dave");
  // After the end, every match act is ERROR_MATCH_NOT_LIVE.
  const std::string id = started(alice, bob);
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
  v1::ClientEnvelope offer;
  offer.mutable_offer_draw()->set_match_id(id);
  EXPECT_EQ(error_of(call(*alice.client, offer)), v1::ERROR_MATCH_NOT_LIVE);
  v1::ClientEnvelope answer;
  answer.mutable_answer_draw()->set_match_id(id);
  answer.mutable_answer_draw()->set_accept(true);
  EXPECT_EQ(error_of(call(*alice.client, answer)), v1::ERROR_MATCH_NOT_LIVE);
  answer.mutable_answer_draw()->set_accept(false);
  EXPECT_EQ(error_of(call(*alice.client, answer)), v1::ERROR_MATCH_NOT_LIVE);

  // A malformed match id is refused by its form, as GetSnapshot's is, and not echoed.
  v1::GameCommand cmd;
  cmd.mutable_optio()->mutable_end_phase();
  const auto long_id = call(*alice.client, submit(std::string(10000, 'a'), 1, cmd));
  EXPECT_EQ(error_of(long_id), v1::ERROR_INVALID_REQUEST);
  EXPECT_LT(long_id.ByteSizeLong(), 1000u);
  EXPECT_EQ(error_of(call(*alice.client, req::get_snapshot(std::string(10000, 'a'), 0))),
            v1::ERROR_INVALID_REQUEST);

  // A ping without request_id: ERROR_INVALID_REQUEST with id 0, in both encodings.
  std::string error;
  ASSERT_TRUE(send_raw(*alice.client, ping(3), &error)) << error;
  auto reply = alice.client->next_frame(5s, &error);
  ASSERT_TRUE(reply) << error;
  EXPECT_EQ(reply->request_id(), 0u);
  EXPECT_EQ(error_of(*reply), v1::ERROR_INVALID_REQUEST) << reply->DebugString();

  // Binary framing only (a JSON text frame that is not UTF-8 is closed with 1007, and an empty
  // one is ERROR_MALFORMED: docs/protocol.md, "Encodings", and JsonProtocol's own cases).
  if (encoding() == Encoding::kBinary) {
    // Invalid UTF-8 in a string field: ERROR_MALFORMED, with the request's id.
    v1::ClientEnvelope sub = req::subscribe("QQQQ");
    sub.set_request_id(55);
    std::string bytes = sub.SerializeAsString();
    bytes.replace(bytes.find("QQQQ"), 4, "\xff\xfe\xfd\xfc");
    ASSERT_TRUE(alice.client->socket().send(bytes, 2s, &error));
    reply = alice.client->next_frame(5s, &error);
    ASSERT_TRUE(reply) << error;
    EXPECT_EQ(reply->request_id(), 55u);
    EXPECT_EQ(error_of(*reply), v1::ERROR_MALFORMED);
    // What protobuf says of it goes to the server's log at debug level, not to its stderr.
    EXPECT_EQ(server.log().find("[libprotobuf"), std::string::npos) << server.log();

    // An empty frame is a request without request_id, as a ping without one is.
    ASSERT_TRUE(alice.client->socket().send(std::string(), 2s, &error));
    reply = alice.client->next_frame(5s, &error);
    ASSERT_TRUE(reply) << error;
    EXPECT_EQ(reply->request_id(), 0u);
    EXPECT_EQ(error_of(*reply), v1::ERROR_INVALID_REQUEST) << reply->DebugString();
  }

  // The past of a match that has not started is its players', in words that fit it.
  auto open = call(*alice.client, req::create_match("optio/test", false, /*is_private=*/true));
  const std::string open_id = open.match_created().match().match_id();
  const auto refused = call(*dave.client, req::get_snapshot(open_id, 0));
  EXPECT_EQ(error_of(refused), v1::ERROR_NOT_SEATED);
  EXPECT_EQ(refused.error().message().find("running"), std::string::npos)
      << refused.error().message();
}

// --- 6 ---------------------------------------------------------------------------------

// A TCP connection to the server on 127.0.0.1, or -1.
int connect_to(std::uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  return fd;
}

// Everything the server sends on `fd` until it closes (or 5 s of silence).
std::string read_all(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return out;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

// Sends `request` (as much as the server takes) and returns the status line's code.
int http_status(std::uint16_t port, const std::string& request) {
  const int fd = connect_to(port);
  if (fd < 0) return -1;
  std::size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server answered and closed before taking it all
    sent += static_cast<std::size_t>(n);
  }
  const std::string reply = read_all(fd);
  close(fd);
  if (reply.rfind("HTTP/1.1 ", 0) != 0) return 0;
  return std::stoi(reply.substr(9, 3));
}

TEST(ProtocolPromises, HttpRequestsThatDoNotParseGetTheirStatus) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const std::uint16_t port = server.port();
  const std::string big =
      "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(100 * 1024, 'a') + "\r\n\r\n";
  EXPECT_EQ(http_status(port, big), 431);
  std::string many = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 2000; ++i)
    many += "X-H" + std::to_string(i) + ": v\r\n";
  many += "\r\n";
  EXPECT_EQ(http_status(port, many), 431);
  EXPECT_EQ(http_status(port, "\x01\x02 garbage !!\r\n\r\n"), 400);
  EXPECT_EQ(http_status(
                port, "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n"),
            413);
  EXPECT_EQ(http_status(port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
            200);
  EXPECT_TRUE(server_alive(server));
}

// --- 7 ---------------------------------------------------------------------------------

// SIGTERM while a command is in flight: the command is carried out and stored; its answer
// comes if it was ready before the close, and a connection is closed 1001 either way. A
// client that resends it after the restart gets the first answer, and it is applied once.
// That the bytes left the client does not mean the server read them before the signal: a
// frame it reads after the signal is answered ERROR_SHUTTING_DOWN and not applied, and then
// the resend is the first time it is applied. Both are the promise; the test cannot choose.
CASTRA_ENCODED_TEST(ProtocolPromises,
                    SigtermCarriesOutARequestInFlightAndItsRepeatIsAnsweredAfterTheRestart) {
  const std::string dir = make_temp_dir("castra-sigterm-in-flight");
  std::string id;
  v1::GameCommand cmd;
  {
    ServerProcess server(play_flags(), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = registered(server.ws_url(), "alice");
    Player bob = registered(server.ws_url(), "bob");
    id = started(alice, bob);
    Picker picker;
    auto legal = call(*alice.client, get_legal(id));
    cmd = *picker.pick(legal.legal().legal(), rules::Side::kA);
    std::string error;
    auto sent = alice.client->send(submit(id, 1, cmd), &error);
    ASSERT_TRUE(sent) << error;
    server.signal(SIGTERM);
    // Whatever comes before the close answers the command (accepted, or refused because it
    // was read after the signal) or is a push.
    while (auto frame = alice.client->next_frame(10s, &error)) {
      if (frame->request_id() != *sent) continue;
      EXPECT_TRUE(frame->command_result().accepted() || error_of(*frame) == v1::ERROR_SHUTTING_DOWN)
          << frame->DebugString();
    }
    EXPECT_EQ(alice.client->socket().close_code(), 1001);
    const int status = server.wait(15s);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << server.log();
  }
  ServerProcess again(play_flags(), dir);
  ASSERT_TRUE(again.started()) << again.log();
  Player alice{greeted_client(again.ws_url()), "alice", ""};
  ASSERT_TRUE(call(*alice.client, req::login("alice", "alice-password")).has_session());
  Player bob{greeted_client(again.ws_url()), "bob", ""};
  ASSERT_TRUE(call(*bob.client, req::login("bob", "bob-password")).has_session());
  const auto repeat = call(*alice.client, submit(id, 1, cmd));
  EXPECT_TRUE(repeat.command_result().accepted()) << repeat.DebugString();
  EXPECT_EQ(repeat.command_result().entry(), 1u);
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
  const auto record = call(*alice.client, export_record(id));
  int commands = 0;
  for (const auto& e : record.record().entries())
    commands += e.kind() == v1::ENTRY_COMMAND;
  EXPECT_EQ(commands, 1);
}

// --- 8 ---------------------------------------------------------------------------------

// Whether the server closes a fresh TCP connection at once, without a byte.
bool refused_at_accept(std::uint16_t port) {
  const int fd = connect_to(port);
  if (fd < 0) return true;
  char c = 0;
  const ssize_t n = recv(fd, &c, 1, 0);  // the server sends nothing first: EOF or timeout
  close(fd);
  return n == 0;
}

TEST(ProtocolPromises, ConnectionsPerAddressAreCountedFromTheAcceptExceptATrustedProxys) {
  {
    ServerProcess server(play_flags({"--max-connections-per-address", "2"}));
    ASSERT_TRUE(server.started()) << server.log();
    // Two connections that never finish a handshake fill the address's places.
    const int a = connect_to(server.port());
    const int b = connect_to(server.port());
    ASSERT_GE(a, 0);
    ASSERT_GE(b, 0);
    EXPECT_TRUE(refused_at_accept(server.port()));
    EXPECT_EQ(http_get(server.port(), "/healthz").status, 0);
    std::string error;
    EXPECT_FALSE(client::ProtocolClient::connect(server.ws_url(), 5s, &error));
    // One leaves: its place is free again (the server notices the close when it reads).
    close(a);
    int status = 0;
    for (int i = 0; i < 100 && status != 200; ++i)
      status = http_get(server.port(), "/healthz").status;
    EXPECT_EQ(status, 200);
    close(b);
  }
  {
    // A trusted proxy's connections are counted by the address each forwards, not by its own.
    ServerProcess server(
        play_flags({"--max-connections-per-address", "2", "--trusted-proxy", "127.0.0.1"}));
    ASSERT_TRUE(server.started()) << server.log();
    const int a = connect_to(server.port());
    const int b = connect_to(server.port());
    const int c = connect_to(server.port());
    EXPECT_EQ(http_get(server.port(), "/healthz").status, 200);
    for (int fd : {a, b, c})
      close(fd);
  }
}

}  // namespace
}  // namespace castra::testing
