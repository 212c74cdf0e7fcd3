"""Clients cannot choose their own address: Daphne started with the flags
docs/deploy.md documents, clients forging X-Forwarded-For, X-Real-IP and
X-Forwarded-Proto. Before (``--proxy-headers`` in the docs) forged addresses
passed 5/5 extra sign-ups, 27 of 30 sprayed guesses and 130/130 throttled
reads. And the cap on sockets per address holds across two processes."""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import re
import shlex
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.security.test_hardening import PRODUCTION

from .cluster import DAPHNE, ROOT, Daphne, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]

SIGNUPS = 5  # SIGNUPS_PER_HOUR of these servers
FAILURES = 10  # LOGIN_FAILURE_LIMIT
READS = 120  # REST_FRAMEWORK's "reads" rate, a minute


def documented_flags() -> list[str]:
    """The flags every Daphne command in docs/deploy.md gives, less where it
    listens (-b/-p/-u) and the application: one set-up, so one set of flags."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    found = set()
    for line in re.findall(r"daphne (.*?config\.asgi:application)", text):
        words = shlex.split(line.replace("$port", "0"))[:-1]
        flags, skip = [], False
        for word in words:
            if skip:
                skip = False
            elif word in ("-b", "-p", "-u"):
                skip = True
            else:
                flags.append(word)
        found.add(tuple(flags))
    assert len(found) == 1, f"docs/deploy.md starts Daphne in different ways: {found}"
    return list(found.pop())


async def documented_daphne(cluster, name: str, **extra: str) -> Daphne:
    server = Daphne(name, cluster.env(**extra), cluster.log_dir)
    server.cmd = [DAPHNE, "-b", "127.0.0.1", "-p", str(server.port), *documented_flags()]
    server.cmd.append("config.asgi:application")
    cluster.processes.append(server)
    server.start()
    await server.ready()
    return server


def forged(i: int) -> dict[str, str]:
    """What a client writes to pass for somebody else each time."""
    return {"X-Forwarded-For": f"10.{i // 250}.{i % 250}.7", "X-Real-IP": f"10.1.{i % 250}.8"}


def call(url: str, data: bytes | None = None, headers=None, opener=None) -> int:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=30) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def signup(server: Daphne, i: int, proxy_entry: str | None = None) -> int:
    """One sign-up through the page (CSRF and all), the address forged."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    headers = forged(i)
    if proxy_entry:  # the entry nginx appends, after what the client wrote
        headers["X-Forwarded-For"] += f", {proxy_entry}"
    with opener.open(
        urllib.request.Request(server.http + "/accounts/signup/", headers=headers)
    ) as r:
        page = r.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    name = f"forger{int(time.time() * 1000) % 10**9}x{i}"
    body = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": name,
            "password1": "xk-29-long-pass",
            "password2": "xk-29-long-pass",
        }
    ).encode()
    return call(server.http + "/accounts/signup/", body, headers, opener)


def guess(server: Daphne, i: int) -> int:
    body = f'{{"username": "nobody{i}", "password": "wrong"}}'.encode()
    headers = {"Content-Type": "application/json", **forged(i)}
    return call(server.http + "/api/token/", body, headers)


def read(server: Daphne, i: int) -> int:
    return call(server.http + "/api/games/999999/records/", headers=forged(i))


async def test_without_a_proxy_forged_forwarded_headers_change_no_count(cluster):
    server = await documented_daphne(cluster, "daphne", SIGNUPS_PER_HOUR=str(SIGNUPS))
    signups = [await asyncio.to_thread(signup, server, i) for i in range(2 * SIGNUPS)]
    guesses = [await asyncio.to_thread(guess, server, i) for i in range(30)]
    reads = [await asyncio.to_thread(read, server, i) for i in range(130)]
    through = {
        "extra sign-ups": sum(s == 302 for s in signups) - SIGNUPS,
        "guesses": sum(g != 429 for g in guesses),
        "reads": sum(r != 429 for r in reads),
    }
    print(f"\nforged addresses got through: {through}")
    assert through == {"extra sign-ups": 0, "guesses": FAILURES - 1, "reads": READS}


async def test_x_forwarded_proto_is_believed_only_from_a_trusted_proxy(cluster):
    production = {**PRODUCTION, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
    direct = Daphne("direct", cluster.env(**production), cluster.log_dir)
    proxied = Daphne("proxied", cluster.env(TRUSTED_PROXY_COUNT="1", **production), cluster.log_dir)
    for server in (direct, proxied):
        server.cmd = [DAPHNE, "-b", "127.0.0.1", "-p", str(server.port), *documented_flags()]
        server.cmd.append("config.asgi:application")
        cluster.processes.append(server)
        server.start()

    def answer(server: Daphne) -> int | None:
        headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.3"}
        opener = urllib.request.build_opener(NoRedirect)
        with contextlib.suppress(OSError):
            return call(server.http + "/api/rulesets/", headers=headers, opener=opener)
        return None

    answers: dict[str, int | None] = {}

    def both_answer() -> bool:
        answers.update(direct=answer(direct), proxied=answer(proxied))
        return None not in answers.values()

    await wait_until(both_answer, 30, "both servers to answer")
    # Plain http claiming https: redirected to https, unless nginx said so.
    assert answers == {"direct": 301, "proxied": 200}


async def test_behind_the_proxy_only_its_entry_counts(cluster):
    server = await documented_daphne(
        cluster, "daphne", SIGNUPS_PER_HOUR=str(SIGNUPS), TRUSTED_PROXY_COUNT="1"
    )
    answers = [
        await asyncio.to_thread(signup, server, i, "198.51.100.20") for i in range(SIGNUPS + 2)
    ]
    assert [a == 302 for a in answers] == [True] * SIGNUPS + [False] * 2
    assert await asyncio.to_thread(signup, server, 99, "198.51.100.21") == 302


# --- the cap on sockets per address, shared ------------------------------------------------


async def open_socket(server: Daphne):
    """A lobby socket from 127.0.0.1: (the socket, None) once its snapshot
    came, or (None, (close code, what the error frame said)) when refused."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    ws = await connect(server.ws + "/ws/lobby/", origin="http://localhost", open_timeout=10)
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    if first["type"] != "error":
        return ws, None
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    return None, (closed.value.rcvd.code, first["message"])


async def test_the_socket_cap_is_shared_by_processes_and_survives_a_killed_one(cluster):
    a, b = await cluster.daphnes(
        "daphne-a", "daphne-b", SOCKETS_PER_ADDRESS="4", SOCKET_COUNT_SECONDS="3"
    )
    held = [(await open_socket(server))[0] for server in (a, a, b, b)]
    assert all(held)
    for server in (a, b):
        ws, refusal = await open_socket(server)
        assert ws is None and refusal[0] == 4429, refusal
        assert "Too many open connections" in refusal[1]
    await held.pop().close()  # one of b's: its place is free, on a too

    async def reopened(server: Daphne) -> None:
        until = time.monotonic() + 10
        while time.monotonic() < until:
            ws, _ = await open_socket(server)
            if ws is not None:
                held.append(ws)
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"no place freed on {server.name}")

    await reopened(a)
    assert (await open_socket(a))[0] is None
    # b dies with its socket still counted: it expires, and a has room again.
    b.kill()
    await reopened(a)
    for ws in held:
        with contextlib.suppress(Exception):
            await ws.close()
