"""The sockets (game, notifications, remis queue) and the background sweeper."""
