#include "tools/load/peer.hpp"

#include <google/protobuf/util/json_util.h>

namespace castra::load {

Peer::~Peer() {
  close();
}

void Peer::open(const Target& target, const boost::asio::ip::address& source,
                std::function<void(const std::string&)> done) {
  conn_ = WsConnection::create(ioc_, json_ ? "castra.v1.json" : "");
  conn_->open(
      target, source, [this](std::string_view frame) { on_frame(frame); },
      [this](const std::string& why) {
        conn_.reset();
        fail_pending(why);
        if (closed_) closed_(why);
      },
      [this, done = std::move(done)](const std::string& error) {
        if (!error.empty()) {
          conn_.reset();
          return done(error);
        }
        v1::ClientEnvelope hello;
        hello.mutable_hello()->set_major(v1::PROTOCOL_MAJOR);
        hello.mutable_hello()->set_minor(v1::PROTOCOL_MINOR);
        hello.mutable_hello()->set_client("castra-load");
        request(std::move(hello), [done](const v1::ServerEnvelope& e) {
          done(e.has_hello() ? "" : "hello: " + e.ShortDebugString());
        });
      });
}

namespace {

// The answer a request gets when its connection is gone: an Error without a code.
v1::ServerEnvelope disconnected(const std::string& why) {
  v1::ServerEnvelope gone;
  gone.mutable_error()->set_code(v1::ERROR_UNSPECIFIED);
  gone.mutable_error()->set_message(why);
  return gone;
}

}  // namespace

void Peer::fail_pending(const std::string& why) {
  auto replies = std::move(replies_);
  replies_.clear();
  const v1::ServerEnvelope gone = disconnected(why);
  for (auto& [id, reply] : replies)
    reply(gone);
}

std::size_t Peer::request(v1::ClientEnvelope request, Reply reply) {
  if (!conn_) {
    reply(disconnected("not connected"));
    return 0;
  }
  const std::uint64_t id = next_id_++;
  request.set_request_id(id);
  replies_.emplace(id, std::move(reply));
  std::string frame;
  if (json_) {
    google::protobuf::util::MessageToJsonString(request, &frame);
  } else {
    frame = request.SerializeAsString();
  }
  const std::size_t bytes = frame.size();
  conn_->send(std::move(frame));
  return bytes;
}

void Peer::close() {
  if (!conn_) return;
  conn_->close();
  conn_.reset();
  replies_.clear();
}

void Peer::on_frame(std::string_view frame) {
  arrived_ = Clock::now();
  if (json_) {
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = true;
    envelope_.Clear();
    const google::protobuf::StringPiece text(frame.data(), frame.size());
    if (!google::protobuf::util::JsonStringToMessage(text, &envelope_, options).ok()) return;
  } else if (!envelope_.ParseFromArray(frame.data(), static_cast<int>(frame.size()))) {
    return;
  }
  const std::uint64_t id = envelope_.request_id();
  if (id == 0) {
    if (push_) push_(envelope_);
    return;
  }
  if (envelope_.has_match_update_first()) {
    // The mover's update, in the frame of its CommandResult: handled as the push it stands
    // for, first, with the same arrival time.
    first_.Clear();
    first_.mutable_match_update()->Swap(envelope_.mutable_match_update_first());
    envelope_.clear_match_update_first();
    if (push_) push_(first_);
  }
  auto it = replies_.find(id);
  if (it == replies_.end()) return;
  Reply reply = std::move(it->second);
  replies_.erase(it);
  reply(envelope_);
}

}  // namespace castra::load
