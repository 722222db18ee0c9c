// AdminCommands: the operators' commands that arrive on the local admin socket (ban, unban,
// end-match, connections, test-reminder, help; docs/operations.md). One text line in, text out: the
// first line "ok ..." or "error ...", then key=value lines. Service thread only.
#pragma once

#include <functional>
#include <string>

#include "server/accounts/accounts.hpp"
#include "server/dispatch/clients.hpp"
#include "server/dispatch/handlers.hpp"
#include "server/lobby/lobby.hpp"
#include "server/notify/notifier.hpp"

namespace castra::admin {

class AdminCommands {
 public:
  AdminCommands(dispatch::Clients& clients, accounts::Accounts& accounts, lobby::Lobby& lobby,
                dispatch::Handlers& handlers, notify::Notifier& notifier,
                const server::Clock& clock)
      : clients_(clients),
        accounts_(accounts),
        lobby_(lobby),
        handlers_(handlers),
        notifier_(notifier),
        clock_(clock) {}

  void run(const std::string& line, std::function<void(std::string)> reply);

 private:
  dispatch::Clients& clients_;
  accounts::Accounts& accounts_;
  lobby::Lobby& lobby_;
  dispatch::Handlers& handlers_;
  notify::Notifier& notifier_;
  const server::Clock& clock_;
};

}  // namespace castra::admin
