"""Reads: what a seat, a spectator, the lobby or an admin may see. No writes."""
