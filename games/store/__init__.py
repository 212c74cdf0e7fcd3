"""The hot path's SQL (one statement to lock, one to write) and the async move path's connections."""
