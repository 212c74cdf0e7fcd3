"""Account services: guests, deleting an account, blocks and follows, bot
accounts. One transaction each, as the games' services."""
