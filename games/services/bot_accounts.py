"""Kept at this path for outside tools (ARCHITECTURE.md, "Entry points other
tools import"); the bot accounts live in accounts/services/internal/bot_accounts.py."""

from accounts.services.internal.bot_accounts import bot_user  # tree-move: keep

__all__ = ["bot_user"]
