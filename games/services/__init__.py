"""The only code that changes a game: transaction, row lock, version check, one Event."""
