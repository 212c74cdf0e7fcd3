"""Fixtures shared by the games tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.games.push_endpoint import PushService


@pytest.fixture
def service() -> Iterator[PushService]:
    """A push service on 127.0.0.1 that records what the site sends it."""
    with PushService() as running:
        yield running
