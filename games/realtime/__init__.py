"""The sockets (game, notifications, remis queue), presence and the background sweeper."""
