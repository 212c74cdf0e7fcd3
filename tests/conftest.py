"""Suite-wide settings: hypothesis profiles and service detection."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=500,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# --- real services: fail under CI, skip loudly elsewhere ----------------------
import collections  # noqa: E402
import inspect  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

IN_CI = os.environ.get("CI", "").lower() == "true"
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
CHROMIUM = "/usr/bin/chromium"


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def require_service(available: bool, what: str) -> None:
    """Under CI a missing service fails the test; locally it skips, loudly."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{what} is required under CI=true but is not available", pytrace=False)
    print(f"\n*** SKIPPED: {what} is not available on this machine ***", file=sys.stderr)
    pytest.skip(f"{what} not available")


def redis_available() -> bool:
    return _port_open(REDIS_HOST, REDIS_PORT)


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) or shutil.which("chromium") is not None


@pytest.fixture
def redis_url() -> str:
    require_service(redis_available(), "Redis on 127.0.0.1:6379")
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/0"


@pytest.fixture
def chromium_path() -> str:
    require_service(chromium_available(), f"Chromium at {CHROMIUM} (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture(scope="session", autouse=True)
def collected_static(tmp_path_factory):
    """The static files as the site serves them: collected once per session into a
    temporary STATIC_ROOT, under hashed names with their manifest (without DEBUG a
    page cannot be rendered without it). The browser tests' live servers are
    spawned processes: they find the same STATIC_ROOT in the environment."""
    from django.core.management import call_command
    from django.test import override_settings

    root = str(tmp_path_factory.mktemp("static"))
    before = os.environ.get("STATIC_ROOT")
    os.environ["STATIC_ROOT"] = root
    try:
        with override_settings(STATIC_ROOT=root):
            call_command("collectstatic", "--noinput", "-v0")
            yield root
    finally:
        if before is None:
            os.environ.pop("STATIC_ROOT", None)
        else:
            os.environ["STATIC_ROOT"] = before


@pytest.fixture(autouse=True)
def _no_sweeper_in_the_test_process(settings):
    """The deadline sweeper belongs to server processes: tests call sweep_once()
    themselves with a controllable clock. Live servers (subprocesses started
    in setUpClass, before this fixture) keep their own sweeper."""
    settings.GAME_SWEEPER = False


def clear_local_cache() -> None:
    """Forget per-user rate limits and django-axes' login failures, which live
    in the cache (the in-process one here: bin/test runs the suite without
    REDIS_URL). A Redis cache is never cleared: clear() empties the whole
    shared Redis database."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for alias in ("default", "pictures"):
        if isinstance(caches[alias], LocMemCache):
            caches[alias].clear()


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """User ids and the test client's address repeat across tests."""
    clear_local_cache()


@pytest.fixture(autouse=True)
def _default_language():
    """Django's LocaleMiddleware activates a request's language in the thread
    and leaves it active: a test that asked for a German page would make the
    messages of the next test on its worker German."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_process_knowledge():
    """What the process knows of games, the lobby and notifications
    (games/realtime/watch.py) belongs to one database: each test has its own."""
    from games.realtime import socket_cap, watch

    watch.forget()
    socket_cap.forget()  # the sockets counted per address (tests' have no address)


@pytest.fixture(autouse=True)
def _close_loop_connections():
    """Moves on PostgreSQL keep connections per event loop (games/store/loop_pool.py);
    each test's loop ends with the test, and so do its connections, or the
    test database could not be dropped."""
    yield
    from games.store import loop_pool

    loop_pool.close_all()


@pytest.fixture
async def _loop_clients_closed():
    yield
    from tests.loops import close_loop_clients

    await close_loop_clients()


@pytest.fixture(autouse=True)
def _close_loop_clients(request):
    """With REDIS_URL the presence store and the rate limits keep an asyncio
    client per event loop (games/redis_clients.py), and on PostgreSQL moves
    keep a connection pool per loop (games/store/loop_pool.py); an async
    test's loop ends with the test, and both are closed on it first. (Only
    async tests: a sync one may run a loop of its own, Playwright's, which an
    async fixture cannot share; a sync test that runs a coroutine itself uses
    tests.loops.run_on_own_loop.)"""
    if inspect.iscoroutinefunction(getattr(request, "function", None)):
        request.getfixturevalue("_loop_clients_closed")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's database, and at the end on PostgreSQL the sessions
    that worker threads of async tests left open ended first, so the test
    database can be dropped (Django's connections are per thread, and those
    threads are gone)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    """pytest-xdist (bin/test's workers) schedules tests by node id: tests
    sharing one would run as one, silently. Such a collection stops the run
    instead; bin/test runs their module in one process."""
    counts = collections.Counter(ids)
    shared = sorted(nodeid for nodeid, n in counts.items() if n > 1)
    if shared:
        raise pytest.UsageError(
            f"several tests share the node id {shared[0]} (and {len(shared) - 1} more): "
            "pytest-xdist would run one of them; run their module without workers (-n 0)"
        )
