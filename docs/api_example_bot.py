"""A small, complete bot for this site's API: it plays Halma.

It listens to its account's event stream, accepts Halma challenges (and
declines the rest), and plays every game it starts from that game's stream:
whenever its seat is to act it picks, among the legal moves the stream
sends it, the one that brings a piece furthest towards the opposite house.
With ``--versus easy`` it also opens one game against the site's own bot.

    pip install requests
    BSP_URL=https://example.org BSP_TOKEN=bsp_... python api_example_bot.py [--versus easy] [--games 1]

The token needs the scopes ``read`` and ``play`` (``challenge`` to
challenge people); make it on the settings page. See docs/api.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import requests


class Site:
    """The site's API with one personal token."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"

    def lines(self, path: str) -> Iterator[dict[str, Any] | None]:
        """A stream's JSON lines until the server ends it; None for an empty
        line (the first one says the stream is open, the others keep it alive)."""
        with self.http.get(self.url + path, stream=True, timeout=(10, 30)) as answer:
            answer.raise_for_status()
            for line in answer.iter_lines(chunk_size=None):
                yield json.loads(line) if line.strip() else None

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST, waiting and trying again while the site says 429 (one write
        at a time per token, and per-account budgets)."""
        while True:
            answer = self.http.post(self.url + path, json=body or {}, timeout=30)
            if answer.status_code != 429:
                return {"status": answer.status_code, **(answer.json() if answer.content else {})}
            time.sleep(float(answer.json().get("retry_after", 1)))


def far_corner(houses: list[list[list[int]]], seat: int) -> tuple[float, float]:
    """The field of the opposite house furthest from our own house."""
    own, target = houses[seat], houses[1 - seat]
    r0 = sum(r for r, _ in own) / len(own)
    c0 = sum(c for _, c in own) / len(own)
    return max(((r, c) for r, c in target), key=lambda f: (f[0] - r0) ** 2 + (f[1] - c0) ** 2)


def best_move(legal: list[dict[str, Any]], corner: tuple[float, float], goal: set, rng) -> dict:
    """The legal move that gains the most ground towards ``corner``; a piece
    home stays home; ties broken at random."""

    def distance(field: list[int]) -> float:
        return ((field[0] - corner[0]) ** 2 + (field[1] - corner[1]) ** 2) ** 0.5

    def gain(move: dict[str, Any]) -> float:
        start, end = move["path"][0], move["path"][-1]
        score = distance(start) - distance(end)
        if tuple(start) in goal and tuple(end) not in goal:
            score -= 10
        return score + rng.random() / 100

    return max(legal, key=gain)


def play(site: Site, game_id: int, rng: random.Random) -> dict[str, Any]:
    """Play one game from its stream to the end; the last state seen."""
    seat, corner, goal, state = None, (0.0, 0.0), set(), {}
    for line in site.lines(f"/api/stream/games/{game_id}/"):
        if line is None:
            continue
        if line["type"] == "full":
            seat, state = line["seat"], line["state"]
            houses = state["view"]["board"]["houses"]
            if seat is not None:
                corner = far_corner(houses, seat)
                goal = {tuple(f) for f in houses[1 - seat]}
        elif line["type"] == "event":
            state = line["state"]
        else:
            continue  # chat, rematch offers
        if state["status"] == "active" and seat in state["to_act"] and state["legal"]:
            move = best_move(state["legal"], corner, goal, rng)
            site.post(f"/api/games/{game_id}/act/", {"version": state["version"], "action": move})
    return state


def run(site: Site, *, versus: str | None = None, games: int | None = None, seed: int = 0) -> list:
    """Answer the account's events; return after ``games`` games ended (None: never)."""
    rng, finished, players = random.Random(seed), [], []
    opened = versus is None
    for event in site.lines("/api/stream/events/"):
        if not opened:  # the stream is open: nothing it should hear can be missed now
            table = {"ruleset": "halma", "bot": {"level": versus}, "clock": {"kind": "none"}}
            site.post("/api/tables/", table)
            opened = True
        if event is None:
            continue
        kind = event["type"]
        if kind == "challenge":
            table = event["table"]
            answer = "join" if table["ruleset"] == "halma" else "decline"
            site.post(f"/api/tables/{table['id']}/{answer}/")
        elif kind == "game_start" and event["game"]["ruleset"] == "halma":
            game_id = event["game"]["id"]
            player = threading.Thread(
                target=lambda g=game_id: finished.append((g, play(site, g, rng))), daemon=True
            )
            players.append(player)
            player.start()
        elif kind == "game_finish" and games is not None:
            for player in players:
                player.join(timeout=30)
            if len(finished) >= games:
                return finished
    return finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versus", choices=["easy", "medium", "strong"], default=None)
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    args = parser.parse_args()
    site = Site(os.environ["BSP_URL"], os.environ["BSP_TOKEN"])
    for game_id, state in run(site, versus=args.versus, games=args.games):
        print(f"game {game_id}: {state.get('result_text') or state.get('status')}")


if __name__ == "__main__":
    main()
