"""Shared machinery for the browser tests: a live Daphne, one Chromium per class,
page helpers that read the game page's state and click moves like a player."""

from __future__ import annotations

import multiprocessing
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from channels.testing import ChannelsLiveServerTestCase
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from frontend.templatetags.importmap import MODULES
from games.models import Game
from games.services.play import game_act
from lobby.services import table_create, table_join, table_start
from tests.conftest import CHROMIUM, chromium_available, require_service
from tests.live_env import restore_env, server_database_env, set_env

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SHOTS = Path(settings.BASE_DIR) / "artifacts" / "screenshots"
# The ceiling of a wait for an event (a wait ends as soon as it comes): high
# enough for a page under a two-worker run on two cores (TEST_WORKERS=2),
# where one wait of 10 s ran out.
TIMEOUT_MS = 25_000
PASSWORD = "s3cret-pass-123"

# Reads what the page shows (DOM) and what it holds (window.__game.model).
PAGE_STATE_JS = """() => {
  const g = window.__game;
  const pieces = [[], []];
  for (const el of document.querySelectorAll("#board .piece")) {
    const seat = Number([...el.classList].find((c) => c.startsWith("seat-")).slice(5));
    (pieces[seat] ||= []).push(el.dataset.field);
  }
  pieces.forEach((list) => list.sort());
  return {
    version: g ? g.model.version : null,
    status: g && g.model.state ? g.model.state.status : null,
    seat: g ? g.model.seat : null,
    eventVersions: g ? g.model.events.map((e) => e.version) : [],
    pieces,
    moves: [...document.querySelectorAll("#moves li")].map((li) => li.textContent),
    moveVersions: [...document.querySelectorAll("#moves li")].map((li) => Number(li.dataset.version)),
    movable: document.querySelectorAll("#board .piece.movable").length,
    watchers: document.getElementById("watchers").textContent.trim(),
    conn: document.getElementById("conn").dataset.state,
    status_text: document.getElementById("status").textContent,
    banner: document.getElementById("banner").hidden ? null : document.getElementById("banner").textContent,
    // Really rendered, not just lacking the hidden attribute (CSS can override it).
    resignVisible: document.getElementById("resign-btn").checkVisibility(),
  };
}"""


# Dice have stopped rolling and every finite animation or transition (a glide,
# a pop) has ended; endless ones (a pulsing target) do not count.
SETTLED_JS = """() => !document.querySelector('.rolling') && document.getAnimations().every(
  (a) => a.effect?.getTiming().iterations === Infinity || a.playState !== 'running')"""


def settle(page) -> None:
    """Wait until the page has stopped moving, e.g. before a screenshot."""
    page.wait_for_function(SETTLED_JS)


def scroll_into_view(page, selector: str) -> None:
    """Scroll the first match of ``selector`` into the middle of the view, in
    one step in the page: a board drawn again between Playwright's finding
    the element and scrolling to it (any frame from the server redraws it)
    would leave it holding a detached element."""
    found = page.evaluate(
        "(sel) => { const el = document.querySelector(sel);"
        " el?.scrollIntoView({ block: 'center', inline: 'center' }); return !!el; }",
        selector,
    )
    assert found, f"nothing matches {selector}"


def key(field: list[int] | tuple[int, int]) -> str:
    return f"{field[0]},{field[1]}"


def off_loop(fn, *args, **kwargs) -> Any:
    """Run ORM/service code in a worker thread.

    The sync Playwright API keeps an asyncio loop marked running in the test
    thread, and the services publish through ``async_to_sync``, which refuses
    to run in a thread with a running loop. A worker thread has none.
    """

    def call():
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def started_table(ruleset: str, users, *, seed: int | None = None, **options) -> int:
    """A table of ``users`` (the first hosts) with its seed set to ``seed`` when
    given, started through the lobby's services (off the loop); its id."""

    def make():
        game = table_create(host=users[0], ruleset=ruleset, **options)
        for user in users[1:]:
            table_join(game_id=game.pk, user=user)
        if seed is not None:
            Game.objects.filter(pk=game.pk).update(seed=seed)
        table_start(game_id=game.pk, user=users[0])
        return game.pk

    return off_loop(make)


def play_scripted(game_id: int, users: dict, actions) -> int:
    """Scripted (seat, action) pairs through the services, as the players would
    send them (off the loop); returns the game's version after the last."""

    def run():
        version = Game.objects.get(pk=game_id).version
        for seat, action in actions:
            version = game_act(game_id=game_id, user=users[seat], version=version, action=action)
        return version

    return off_loop(run)


# The live server runs in a process of its own. Forked, it would inherit what
# earlier tests left in this one: asgiref's thread-sensitive executor whose
# worker thread does not survive a fork (every socket's login then waits for
# ever), open PostgreSQL connections that both processes would then read
# from. Started fresh ("spawn"), it inherits
# nothing; channels builds its arguments to be picklable for that.
multiprocessing.set_start_method("spawn", force=True)


class BrowserLiveTestCase(ChannelsLiveServerTestCase):
    """Daphne in a subprocess on the SQLite test file; Chromium launched once per class."""

    playwright = None
    browser = None
    # Static files come from WhiteNoise, as in production, out of the session's
    # collected STATIC_ROOT (tests/conftest.py): channels' own static handler looks
    # files up by their plain names and would not find the hashed ones.
    serve_static = False
    # Playwright's bypass_csp for this class's contexts: a test that injects a
    # script or style of its own (axe-core, a colour filter) needs it, since the
    # site's policy allows no inline ones. Off by default: the pages keep their
    # policy (tests/browser/test_csp.py checks it).
    bypass_csp = False
    # Settings the live server process starts with (read from its environment).
    SERVER_ENV: dict[str, str] = {}
    _saved_env: dict[str, str | None] = {}

    @classmethod
    def setUpClass(cls) -> None:
        require_service(chromium_available(), f"Chromium at {CHROMIUM} (apt-get install chromium)")
        # Moves a test makes through the services (in this process) reach the
        # live server's pages by their ping alone: the in-memory channel layer
        # is per process, so every such push is lost. The server answers those
        # pings from the database each time, as it did before pings were
        # answered from what a process knows (games/realtime/watch.py).
        # The live server is a spawned process: it reads SERVER_ENV afresh.
        # For the same reason no wake of a move made here reaches the live
        # server's background loops (games/wakeups.py): they look every
        # second instead of sleeping up to 30 s.
        cls._saved_env = set_env(
            {
                "PING_REFRESH_SECONDS": "0",
                "LOOP_IDLE_SECONDS": "1",
                **server_database_env(),
                **cls.SERVER_ENV,
            }
        )
        super().setUpClass()
        # The sync Playwright API keeps an event loop running in this thread; ORM
        # calls in the tests would otherwise raise SynchronousOnlyOperation.
        # Set for this class only (and after the server started), so the rest of
        # the suite and the server keep the check.
        cls._saved_env.update(set_env({"DJANGO_ALLOW_ASYNC_UNSAFE": "true"}))
        try:
            from playwright.sync_api import sync_playwright

            cls.playwright = sync_playwright().start()
            cls.browser = cls.playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        except BaseException:
            cls.tearDownClass()
            raise
        SHOTS.mkdir(parents=True, exist_ok=True)

    @classmethod
    def _stop_browser(cls) -> None:
        if cls.browser is not None:
            cls.browser.close()
            cls.browser = None
        if cls.playwright is not None:
            cls.playwright.stop()
            cls.playwright = None

    @classmethod
    def tearDownClass(cls) -> None:
        try:
            cls._stop_browser()
            super().tearDownClass()
        finally:
            restore_env(cls._saved_env)

    def setUp(self) -> None:
        super().setUp()
        self.page_errors: list[str] = []
        self.module_loads: list[tuple[str, int]] = []  # (URL, status) of every browser module
        self._contexts = []
        self.addCleanup(self._close_contexts)

    def _close_contexts(self) -> None:
        for ctx in self._contexts:
            ctx.close()

    @staticmethod
    def users(*names):
        """New users of these names (password ``PASSWORD``)."""
        User = get_user_model()
        return [User.objects.create_user(username=n, password=PASSWORD) for n in names]

    # -- pages -------------------------------------------------------------------
    def new_page(self, name: str, user=None):
        """A fresh browser context (own cookies) and page; ``user`` logs it in by cookie."""
        ctx = self.browser.new_context(
            viewport={"width": 1200, "height": 850}, bypass_csp=self.bypass_csp
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        self._contexts.append(ctx)
        if user is not None:
            client = Client()
            client.force_login(user)
            ctx.add_cookies(
                [
                    {
                        "name": settings.SESSION_COOKIE_NAME,
                        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                        "url": self.live_server_url,
                        "httpOnly": True,
                    }
                ]
            )
        page = ctx.new_page()
        page.on("pageerror", lambda exc: self.page_errors.append(f"{name}: {exc}"))
        page.on("response", self._note_module)
        return page

    def _note_module(self, response) -> None:
        path = urlsplit(response.url).path
        if path.startswith(settings.STATIC_URL + MODULES):
            self.module_loads.append((path, response.status))

    def assert_modules_hashed(self, *modules: str) -> None:
        """Every module the pages loaded came under its hashed name (the import map
        at work) and loaded; ``modules`` (e.g. "boards/halma.js") were among them."""
        self.assertTrue(self.module_loads)
        for path, status in self.module_loads:
            self.assertRegex(path, r"\.[0-9a-f]{12}\.js$", "a module loaded by its plain name")
            self.assertEqual(status, 200, path)
        loaded = {re.sub(r"\.[0-9a-f]{12}\.js$", ".js", path) for path, _ in self.module_loads}
        for module in modules:
            self.assertIn(settings.STATIC_URL + MODULES + module, loaded)

    def shot(self, page, name: str) -> None:
        safe = re.sub(r"[^\w.-]+", "_", f"{self._testMethodName}-{name}")
        page.screenshot(path=str(SHOTS / f"{safe}.png"))

    def signup(self, page, username: str) -> None:
        page.goto(f"{self.live_server_url}/accounts/signup/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        self.shot(page, f"signup-{username}")
        page.click("button[type=submit]")
        page.wait_for_url(f"{self.live_server_url}/")
        assert page.inner_text("[data-testid=me]") == username

    def open_table_by_hand(self, page) -> int:
        """Open a table from the lobby form as its host (seat 1), to be started
        with the Start button rather than automatically; returns the game id."""
        page.click("#more-table summary")
        page.select_option("#host-seat", "0")
        self.shot(page, "lobby-form")
        page.uncheck("[data-testid=auto-start]")
        page.click("[data-testid=create-table]")
        page.wait_for_url("**/g/*/")
        return int(page.url.rstrip("/").rsplit("/", 1)[1])

    # -- reading the game page -----------------------------------------------------
    @staticmethod
    def state(page) -> dict[str, Any]:
        return page.evaluate(PAGE_STATE_JS)

    @staticmethod
    def wait_connected(page) -> None:
        page.wait_for_function(
            "() => window.__game && document.getElementById('conn').dataset.state === 'open'"
            " && window.__game.model.state"
        )

    @staticmethod
    def wait_version(page, version: int) -> None:
        page.wait_for_function(
            "v => window.__game && window.__game.model.version >= v", arg=version
        )

    # -- playing -------------------------------------------------------------------
    def move(self, page, path: list[list[int]], shot: str | None = None) -> int:
        """Click a move the way a player does: the piece, then each landing.

        A chain is clicked landing by landing (``.target.jump``); a chain that
        could go on is ended with ``.target.stop``. Returns the new version.
        """
        before = page.evaluate("() => window.__game.model.version")
        legal = page.evaluate(
            "() => window.__game.model.state.legal.map((a) => JSON.stringify(a.path))"
        )
        assert _path_json(path) in legal, f"{path} is not among the page's legal moves"
        page.click(f'#board .piece.movable[data-field="{key(path[0])}"]')
        page.wait_for_selector(f'#board .piece.selected[data-field="{key(path[0])}"]')
        for i, land in enumerate(path[1:], start=1):
            last = i == len(path) - 1
            if len(path) == 2:
                selector = f'#board .target[data-target="{key(land)}"]'
            else:
                selector = f'#board .target.jump[data-target="{key(land)}"]'
            page.wait_for_selector(selector)
            if last and shot:
                self.shot(page, shot)
            page.click(selector)
            if not last:
                # The chain so far is drawn and the next landings are offered.
                page.wait_for_selector(f'#board .target.stop[data-target="{key(land)}"]')
        # Either the move went out, or the chain could go on and waits for "stop".
        final = key(path[-1])
        sent = page.wait_for_function(
            """([v, k]) => {
                const m = window.__game.model;
                if (m.version > v || m.pending) return "sent";
                return document.querySelector(`#board .target.stop[data-target="${k}"]`) ? "stop" : false;
            }""",
            arg=[before, final],
        ).json_value()
        if sent == "stop":
            if shot:
                self.shot(page, f"{shot}-stop")
            page.click(f'#board .target.stop[data-target="{final}"]')
        self.wait_version(page, before + 1)
        return before + 1

    def resign(self, page) -> None:
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("[data-testid=resign]")


class InstantBotsLiveTestCase(BrowserLiveTestCase):
    """The live server's bot worker moves at once, without its human-like pause."""

    SERVER_ENV = {"BOT_DELAY_MIN": "0", "BOT_DELAY_MAX": "0"}


def _path_json(path: list[list[int]]) -> str:
    return "[" + ",".join(f"[{r},{c}]" for r, c in path) + "]"
