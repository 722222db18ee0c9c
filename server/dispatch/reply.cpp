#include "server/dispatch/reply.hpp"

#include <spdlog/spdlog.h>

#include <cassert>

namespace castra::dispatch {

std::shared_ptr<const std::string> frame_of(const castra::v1::ServerEnvelope& envelope,
                                            server::Encoding encoding) {
  return std::make_shared<const std::string>(server::encode(envelope, encoding));
}

std::shared_ptr<const server::Frames> frames_of(castra::v1::ServerEnvelope envelope) {
  return std::make_shared<const server::Frames>(
      std::make_shared<const castra::v1::ServerEnvelope>(std::move(envelope)));
}

castra::v1::ServerEnvelope error_envelope(std::uint64_t request_id, const server::Failure& f) {
  castra::v1::ServerEnvelope envelope;
  envelope.set_request_id(request_id);
  auto* error = envelope.mutable_error();
  error->set_code(static_cast<castra::v1::ErrorCode>(f.code));
  error->set_message(f.message);
  error->set_retry_after_ms(f.retry_after_ms);
  error->set_owner_url(f.owner_url);
  return envelope;
}

struct Reply::State {
  std::weak_ptr<net::Connection> connection;
  std::uint64_t request_id = 0;
  std::size_t kind = 0;
  Clock::time_point received;
  server::Metrics* metrics = nullptr;
  bool answered = false;

  void send(castra::v1::ServerEnvelope envelope, std::optional<net::CloseCode> close) {
    assert(!answered && "a request answered twice");
    if (answered) return;
    answered = true;
    envelope.set_request_id(request_id);
    if (metrics != nullptr) {
      metrics->request(kind, std::chrono::duration<double>(Clock::now() - received).count());
      if (envelope.has_error()) metrics->error(envelope.error().code());
    }
    auto c = connection.lock();
    if (!c) return;  // the client left before its answer
    if (close) {
      c->close(*close, envelope.error().message(), frame_of(envelope, c->encoding()));
    } else {
      c->send(frame_of(envelope, c->encoding()));
    }
  }

  ~State() {
    if (!answered) {
      spdlog::error("event=unanswered_request request={} kind={}", request_id, kind);
      send(error_envelope(request_id,
                          server::fail(v1::ERROR_INTERNAL, "the server lost this request")),
           std::nullopt);
    }
  }
};

Reply::Reply(std::weak_ptr<net::Connection> connection, std::uint64_t request_id, std::size_t kind,
             Clock::time_point received, server::Metrics* metrics)
    : state_(std::make_shared<State>()) {
  state_->connection = std::move(connection);
  state_->request_id = request_id;
  state_->kind = kind;
  state_->received = received;
  state_->metrics = metrics;
}

void Reply::ok(castra::v1::ServerEnvelope envelope) const {
  state_->send(std::move(envelope), std::nullopt);
}

void Reply::fail(const server::Failure& failure) const {
  state_->send(error_envelope(0, failure), std::nullopt);
}

void Reply::fail_and_close(const server::Failure& failure, net::CloseCode code) const {
  state_->send(error_envelope(0, failure), code);
}

std::uint64_t Reply::request_id() const {
  return state_->request_id;
}

}  // namespace castra::dispatch
