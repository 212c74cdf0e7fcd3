"""Helpers the services of several apps share about accounts."""
