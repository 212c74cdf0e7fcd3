"""Browser tests get their own test database, so a live Daphne on it does not
collide with another pytest run using the default test database in the same
tree at the same time (SQLite: "disk I/O error" when one run deletes the file
the other uses)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    from django.conf import settings

    db = settings.DATABASES["default"]
    test = db.setdefault("TEST", {})
    if db["ENGINE"].endswith("sqlite3"):
        if not os.environ.get("SQLITE_TEST_PATH"):  # an explicit choice wins
            test["NAME"] = str(settings.BASE_DIR / "test_db_browser.sqlite3")
    elif test.get("NAME") and not test["NAME"].endswith("_browser"):
        test["NAME"] = f"{test['NAME']}_browser"
