"""Helpers the club services share (nothing outside the service layer calls them)."""
