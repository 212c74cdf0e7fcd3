"""Hostile-input tests: shared markers."""

from __future__ import annotations


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fuzz: hypothesis-driven hostile-input tests (tests/security)"
    )
