"""The hot path's SQL (one statement to lock, one to write), the async move
path's connections, and who has a game open (presence)."""
