"""Moderation's helpers other services call inside their own transaction:
play-bans, refunds, the site's own reports."""
