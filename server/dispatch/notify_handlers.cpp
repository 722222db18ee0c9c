// SetNotifications: where the account's deadline reminders go outside the client. The
// dispatcher has checked both targets (server/notify/targets.hpp); this stores them and answers
// Done after the commit. Service thread.
#include "server/dispatch/handlers.hpp"

#include <spdlog/spdlog.h>

#include "server/notify/targets.hpp"

namespace castra::dispatch {

namespace v1 = castra::v1;
using server::fail;

void Handlers::set_notifications(Call& call) {
  if (s_.notification_targets == nullptr) {
    return call.reply.fail(fail(v1::ERROR_NOT_IMPLEMENTED, "this server sends no reminders"));
  }
  const auto& r = call.request.set_notifications();
  const notify::Targets targets{r.webhook_url(), r.email()};
  const std::int64_t account = call.client.account_id;
  s_.notification_targets->set(
      account, targets, s_.clock.now_ms(), [account, targets, reply = call.reply](store::Status s) {
        if (store::is_queue_full(s)) {
          return reply.fail(fail(v1::ERROR_SERVER_BUSY, "the server is busy; try again", 1000));
        }
        if (!s.ok()) {
          spdlog::error("event=storage_failed request=set_notifications error=\"{}\"", s.message);
          return reply.fail(fail(v1::ERROR_INTERNAL, "the server could not store this; try again"));
        }
        // The address and the URL (which may hold the webhook's secret) stay out of the log.
        spdlog::info("event=notifications_set account={} webhook={} email={}", account,
                     targets.webhook_url.empty() ? "off" : notify::host_of(targets.webhook_url),
                     targets.email.empty() ? "off" : "on");
        v1::ServerEnvelope e;
        e.mutable_done();
        reply.ok(std::move(e));
      });
}

}  // namespace castra::dispatch
