"""What reads and background loops cost as the site fills (issue 31).

Run (PostgreSQL, a throwaway test database of its own):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres TEST_DATABASE_NAME=bench_scale \\
        .venv/bin/python bench/scale.py --levels 0 10000 100000

Level 0 is a database whose listed pages are full and nothing else stored:
200 rated players (the leaderboard's 100 rows), 1,000 running
correspondence games (the lobby's 20 live tables and its count up to 1,000,
TV's 20 candidates) with 1,000 waiting remis requests, 1,000 open
tournaments of 4 to 1,000 players (the list shows 100; one of 1,000 players
is shown on its own), a club of 5,000 members with 1,000 running games
among them (its answer shows a page of each), a player with 5,000 finished rated games
(My games, the profile, the completion rate's 500), 5,000 rating changes
and 500 notifications, and a running Halma game of 1,000 events. Each
further level adds that many running correspondence games and as many
finished ones (plus 1,000 bot games). So a read's figure at 100,000 against
level 0 is what storing more costs, not what showing more costs. The rows
are written with ``bulk_create`` in the stored format (cloned from games made
through the services: events, seats, clocks, deadlines, ratings; the due
columns derived by ``Game.mark_due``, the players listed on the game row and an
ended game's seats marked as the start and the end write them), so 100,000 games take minutes, not
hours. Then, for each level, it prints the wall time (fastest of 7), the
bytes and the PostgreSQL pages its reads touched (``pages``) of: one idle round of every background loop (its statements too), the lobby's
first frame, the bell's list, a 5,000-game profile (API and page, and the page as a first read: nothing
cached), My games,
a leaderboard page, the remis queue with 1,000 waiting requests, the
1,000-event game's ``GET /api/games/<id>/``, hello, position.svg and embed
page, TV (page and featured), the tournaments list (API and page), and a
1,000-player tournament's API and page, open and in its round 4, and the 5,000-member club's API (its
first page, its members' page 100) and the clubs list.

``--keep`` keeps the database (named by TEST_DATABASE_NAME); run again with
``--keep`` on a database that holds a run's data, it migrates it, runs
``VACUUM ANALYZE`` and measures it again without generating anything (to
try an index on the 100,000 level). ``--only WORD ...`` measures just the
reads whose names hold a word; ``BENCH_EXPLAIN=1`` prints the plan of each
statement touching more than ``BENCH_EXPLAIN_OVER`` (100) pages.

With ``--idle SECONDS`` (PostgreSQL only) it also starts, at each level,
one Daphne process and then four on the same database (production-like: DEBUG
off, the Redis channel layer, every background loop on, no clients) and
prints their CPU (utime + stime from /proc, % of a core, all processes
together) and the database's transactions per second (``pg_stat_database``)
over SECONDS, after a 10 s warm-up. bench/idle.py measures open sockets.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SQLITE_TEST_PATH", "/tmp/bench_scale.sqlite3")
os.environ["GAME_SWEEPER"] = "false"

import django

django.setup()

from django.conf import settings  # noqa: E402

# Pages render without collected static files (names unhashed): the figures
# are the views' own work.
settings.STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

BATCH = 2000
PROFILE_GAMES = 5000
EVENTS = 1000
BOT_GAMES = 1000
# Level 0 fills every listed page as full as at 100,000: running games to the
# lobby's count cap (its 20 live tables, TV's candidates, the remis queue's
# 1,000 waiting), 200 rated players (leaderboard: 100 rows), 300 tournaments
# (the list: 100), the busy player's 5,000 games (My games, profile).
BASE_RUNNING = 1000
TOURNAMENTS = 1000  # open Swiss events of 4 to 1,000 players (the list shows the newest 100)
FIELDS = (4, 8, 16, 64, 256, 1000)  # their sizes, drawn in turn
REMIS = 1000
CLUB_MEMBERS = 5000  # a club this big, with CLUB_GAMES running games among its members
CLUB_GAMES = 1000
CLUB_NAME = "Scale club"


def _copy(template: Any, **changes: Any) -> Any:
    """An unsaved copy of a stored row (a template made through the services)."""
    model = type(template)
    values = {
        f.attname: getattr(template, f.attname)
        for f in model._meta.concrete_fields
        if not f.primary_key
    }
    values.update(changes)
    if "invite_code" in values:
        from games.models import new_invite_code

        values["invite_code"] = new_invite_code()
    return model(**values)


def _mark_due(game: Any) -> None:
    """The due columns as a save would derive them (``bulk_create`` saves
    nothing); a checkout from before them has none (to measure it too)."""
    if hasattr(game, "mark_due"):
        game.mark_due()


def _listed(game: Any, holders: list[Any]) -> None:
    """``Game.listed_players`` as the start writes it; a checkout from before
    it has none (to measure it too)."""
    if hasattr(game, "listed_players"):
        game.listed_players = [[u.pk, u.username, bool(u.is_bot)] for u in holders]


def _ended_mark(finished: bool) -> dict[str, bool]:
    """A finished game's seats as its ending marks them (``Seat.game_ended``);
    a checkout from before the mark has none (to measure it too)."""
    from games.models import Seat

    has_mark = any(f.name == "game_ended" for f in Seat._meta.concrete_fields)
    return {"game_ended": finished} if has_mark else {}


class Store:
    """Rows written in bulk, cloned from a running and a finished game made
    through the services."""

    def __init__(self) -> None:
        from games.services.endings import game_resign
        from tests.factories import make_user, started_game

        self.users: list[Any] = []
        self.add_users(200)
        running = started_game("halma", players=self.users[:2])
        ended = started_game("halma", players=self.users[2:4])
        game_resign(game_id=ended.pk, user=self.users[2])
        from games.models import Event, Game

        self.running = Game.objects.get(pk=running.pk)
        self.ended = Game.objects.get(pk=ended.pk)
        self.running_events = list(Event.objects.filter(game=running))
        self.ended_events = list(Event.objects.filter(game=ended))
        self.make_user = make_user

    def add_users(self, count: int) -> None:
        from django.contrib.auth import get_user_model

        User = get_user_model()
        start = User.objects.count()
        made = User.objects.bulk_create(
            User(username=f"scale{start + n}", password="!") for n in range(count)
        )
        self.users += made

    def games(
        self, count: int, *, finished: bool, bots: bool = False, first: Any = None
    ) -> list[Any]:
        """``first``: the holder of every game's first seat (else drawn)."""
        from games.models import Event, Game, Seat

        template = self.ended if finished else self.running
        events = self.ended_events if finished else self.running_events
        now, rng = timezone.now(), random.Random(count)
        made = []
        for start in range(0, count, BATCH):
            batch = []
            for _ in range(min(BATCH, count - start)):
                game = _copy(template)
                if finished:  # resigned before any move: aborted; stored as a finished game
                    game.status = Game.Status.FINISHED
                    game.result = {"winners": [1], "draw": False, "reason": "resigned"}
                else:
                    game.deadline = now + timedelta(seconds=rng.randint(3600, 3 * 86400))
                if bots:
                    game.bots, game.has_bots, game.rated = {"1": "easy"}, True, False
                _mark_due(game)
                batch.append(game)
            holders = [self._holders(rng, bots, first) for _ in batch]
            for game, users in zip(batch, holders, strict=True):
                _listed(game, users)
            batch = Game.objects.bulk_create(batch)
            Seat.objects.bulk_create(
                Seat(game=g, index=i, user=user, joined=now, **_ended_mark(finished))
                for g, users in zip(batch, holders, strict=True)
                for i, user in enumerate(users)
            )
            Event.objects.bulk_create(_copy(e, game_id=g.pk) for g in batch for e in events)
            made += batch
        return made

    def _holders(self, rng: random.Random, bots: bool, first: Any) -> list[Any]:
        """A game's seated players: two drawn (a bot game's second seat is
        free), ``first`` in the first seat when given."""
        users = rng.sample(self.users, 2)
        if first is not None:
            users[0] = first
        return users[:1] if bots else users

    def tournaments(self, count: int) -> int:
        """Open Swiss events of 4 to 1,000 players (``FIELDS`` in turn), from
        1,000 entrants of their own: the list pages every status. Returns
        the newest 1,000-player one (its page and API are measured)."""
        from django.contrib.auth import get_user_model

        from lobby.models import Tournament, TournamentPlayer

        User = get_user_model()
        entrants = User.objects.bulk_create(
            User(username=f"entrant{n}", password="!") for n in range(max(FIELDS))
        )
        made = Tournament.objects.bulk_create(
            Tournament(name=f"Scale {n}", ruleset="halma", system="swiss", rounds=5)
            for n in range(count)
        )
        for start in range(0, count, 50):
            TournamentPlayer.objects.bulk_create(
                TournamentPlayer(tournament=t, user=user)
                for t in made[start : start + 50]
                for user in entrants[: FIELDS[t.pk % len(FIELDS)]]
            )
        return max(
            (t.pk for t in made if FIELDS[t.pk % len(FIELDS)] == max(FIELDS)), default=made[-1].pk
        )

    def club(self) -> int:
        """A club of ``CLUB_MEMBERS`` members of their own (one admin in ten,
        rated in two games) and ``CLUB_GAMES`` running games between them,
        cloned as ``games`` clones them."""
        from django.contrib.auth import get_user_model

        from games.models import Event, Game, Rating, Seat
        from lobby.models import Club, ClubGame, ClubMember

        User = get_user_model()
        members = User.objects.bulk_create(
            (User(username=f"clubber{n}", password="!") for n in range(CLUB_MEMBERS)),
            batch_size=BATCH,
        )
        club = Club.objects.create(name=CLUB_NAME, open=False, invite="x" * 16)
        ClubMember.objects.bulk_create(
            (
                ClubMember(club=club, user=u, role=0 if n == 0 else 1 if n % 10 == 0 else 2)
                for n, u in enumerate(members)
            ),
            batch_size=BATCH,
        )
        Rating.objects.bulk_create(
            (
                Rating(user=u, ruleset=rs, speed="correspondence", mu=25, sigma=8, display=1500)
                for u in members
                for rs in ("halma", "malefiz")
            ),
            batch_size=BATCH,
        )
        now = timezone.now()
        games = []
        for n in range(CLUB_GAMES):
            game = _copy(self.running)
            game.deadline = now + timedelta(days=2)
            _listed(game, [members[(2 * n + i) % CLUB_MEMBERS] for i in range(2)])
            _mark_due(game)
            games.append(game)
        games = Game.objects.bulk_create(games)
        Seat.objects.bulk_create(
            Seat(game=g, index=i, user=members[(2 * n + i) % CLUB_MEMBERS], joined=now)
            for n, g in enumerate(games)
            for i in range(2)
        )
        Event.objects.bulk_create(
            (_copy(e, game_id=g.pk) for g in games for e in self.running_events),
            batch_size=BATCH,
        )
        # As the games' start lists them (lobby/clubs/live_games.py).
        ClubGame.objects.bulk_create(ClubGame(club=club, game=g) for g in games)
        return club.pk

    def busy_player(self) -> Any:
        """A player with 5,000 finished rated games, their rating changes and
        500 notifications (the kept history)."""
        from games.models import Notification, Rating, RatingChange

        busy = self.make_user("busy")
        games = self.games(PROFILE_GAMES, finished=True, first=busy)
        start = timezone.now() - timedelta(days=PROFILE_GAMES)
        RatingChange.objects.bulk_create(
            RatingChange(
                user=busy,
                game=g,
                ruleset="halma",
                speed="correspondence",
                place=1,
                before=1500,
                after=1501,
                mu=25,
                sigma=8,
                created=start + timedelta(days=n),
            )
            for n, g in enumerate(games)
        )
        Rating.objects.create(
            user=busy,
            ruleset="halma",
            speed="correspondence",
            mu=25,
            sigma=8,
            display=1500,
            games=PROFILE_GAMES,
        )
        Notification.objects.bulk_create(
            Notification(user=busy, kind="your_turn", game=games[n], params={"game": games[n].pk})
            for n in range(500)
        )
        return busy

    def long_game(self) -> tuple[int, Any]:
        """A running Halma game of 1,000 events. Halma ends long before 1,000
        plies, so the moves of a game the easy bot plays (still running) are
        stored again and again up to 1,000 versions: the first frame and the
        game's GET read stored items and the state, no replay."""
        from games.bots import get_bot
        from games.models import Event, Game, Seat
        from games.rules import get_ruleset

        rs, bot = get_ruleset("halma"), get_bot("halma", "easy")
        game = _copy(self.running, version=1)
        state = rs.decode(game.state)
        played = []
        for n in range(120):
            seat = rs.to_act(state)[0]
            action = bot.choose(state, seat, seed=n)
            after, items = rs.apply(state, seat, action)
            if not rs.to_act(after):
                break
            state = after
            played.append((seat, action, items))
        events = [_copy(self.running_events[0])]
        while len(events) < EVENTS:
            seat, action, items = played[(len(events) - 1) % len(played)]
            version = len(events) + 1
            events.append(Event(version=version, seat=seat, kind="act", action=action))
            events[-1].events = items
        game.version, game.state, game.to_act = EVENTS, rs.encode(state), rs.to_act(state)
        _listed(game, self.users[:2])
        game.save()
        Seat.objects.bulk_create(Seat(game=game, index=i, user=self.users[i]) for i in range(2))
        for event in events:
            event.game_id = game.pk
        Event.objects.bulk_create(events, batch_size=BATCH)
        assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
        return game.pk, self.users[0]

    def ratings(self) -> None:
        from games.models import Rating

        have = set(Rating.objects.values_list("user_id", flat=True))
        rng = random.Random(len(self.users))
        Rating.objects.bulk_create(
            (
                Rating(
                    user=u,
                    ruleset="halma",
                    speed="correspondence",
                    mu=25,
                    sigma=8,
                    display=rng.randint(900, 2100),
                    games=rng.randint(1, 200),
                )
                for u in self.users
                if u.pk not in have
            ),
            batch_size=BATCH,
        )

    def remis_requests(self, games: list[Any]) -> None:
        from games.models import RemisRequest

        RemisRequest.objects.bulk_create(
            RemisRequest(game=g, seat=0, requested_by=self.users[0], kind="deadlock")
            for g in games[:REMIS]
        )


def timed(call: Callable[[], Any]) -> tuple[float, int, int]:
    """The fastest of 7 calls' wall time (after one warm-up) in ms, and the
    bytes of the answer: the machine is shared, so the least disturbed call
    is the call's own cost."""
    from games.selectors.frames import dumps

    answer = call()
    walls = []
    for _ in range(7):
        start = time.perf_counter()
        answer = call()
        walls.append(time.perf_counter() - start)
    size = len(answer.content) if hasattr(answer, "content") else len(dumps(answer))
    return min(walls) * 1000, size, pages(call)


def idle_round() -> int:
    from games.realtime.sweeper import build_replays, sweep_once
    from games.services import bots, import_jobs, mail, push

    sweep_once()
    bots.bot_turns_due()
    mail.mail_send_due()
    push.pushes_send_due()
    import_jobs.imports_run()
    build_replays()
    return 0


def statements(call: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def pages(call: Callable[[], Any]) -> int:
    """The 8 kB pages PostgreSQL touched for the call's reads (``EXPLAIN
    (ANALYZE, BUFFERS)`` of each SELECT it sent): the figure that grows with
    what a query walks, untouched by how busy the machine is. -1 on SQLite."""
    if connection.vendor != "postgresql":
        return -1
    with CaptureQueriesContext(connection) as queries:
        call()
    touched = 0
    with connection.cursor() as cursor:
        for query in queries.captured_queries:
            sql = query["sql"]
            if not sql.lstrip().upper().startswith("SELECT") or "FOR UPDATE" in sql:
                continue
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)
            plan = cursor.fetchone()[0][0]["Plan"]
            blocks = plan.get("Shared Hit Blocks", 0) + plan.get("Shared Read Blocks", 0)
            touched += blocks
            if os.environ.get("BENCH_EXPLAIN") and blocks > EXPLAIN_OVER:  # what walks that much
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
                print(f"-- {blocks} pages: {sql[:300]}")
                print("\n".join(line for (line,) in cursor.fetchall()))
    return touched


# BENCH_EXPLAIN=1 prints the plan of each statement touching more pages than this.
EXPLAIN_OVER = int(os.environ.get("BENCH_EXPLAIN_OVER", "100"))
# --only: measure just the reads whose names hold one of these words.
ONLY: list[str] = []
TOURNAMENT: list[int] = []  # the 1,000-player tournaments measured: open, running
CLUB: list[int] = []  # the 5,000-member club


def first_read(client: Client, user: Any) -> Any:
    from django.core.cache import cache

    cache.delete(f"completion-ended:{user.pk}")  # what a checkout before the seat mark kept
    return client.get(f"/players/{user.username}/")


def measure(busy: Any, long_game: int, player: Any) -> dict[str, tuple[float, int, int]]:
    from games.selectors import notifications, remis
    from games.selectors.frames import hello_frame
    from games.selectors.tables import lobby_snapshot
    from lobby.models import ClubMember

    anon, mine, seated, owner = Client(), Client(), Client(), Client()
    mine.force_login(busy)
    seated.force_login(player)
    owner.force_login(ClubMember.objects.get(club_id=CLUB[0], role=0).user)
    reads: dict[str, Callable[[], Any]] = {
        "lobby first frame": lambda: {"type": "tables", **lobby_snapshot()},
        "bell list (500 kept)": lambda: notifications.unread(busy),
        "profile API, 5,000 games": lambda: anon.get("/api/players/busy/"),
        "player page, 5,000 games": lambda: anon.get("/players/busy/"),
        # The first view after a week away: nothing of this player cached
        # (the completion rate's cache before 2026-11-29, issue 54 item 3).
        "player page, 5,000 games, first read": lambda: first_read(anon, busy),
        "My games, 5,000 games": lambda: mine.get("/my/games/"),
        "leaderboard API": lambda: anon.get("/api/leaderboard/halma/"),
        "remis queue page": lambda: remis.queue_page(),
        "GET /api/games/<1,000 events>/": lambda: seated.get(f"/api/games/{long_game}/"),
        "hello, 1,000 events": lambda: hello_frame(long_game, player),
        "TV page": lambda: anon.get("/tv/"),
        "TV featured (JSON)": lambda: anon.get("/tv/featured/"),
        "tournaments API (open)": lambda: anon.get("/api/tournaments/?status=open"),
        "tournaments page": lambda: anon.get("/tournaments/"),
        "tournament API, 1,000 players": lambda: anon.get(f"/api/tournaments/{TOURNAMENT[0]}/"),
        "tournament page, 1,000 players": lambda: anon.get(f"/tournaments/{TOURNAMENT[0]}/"),
        "tournament API, 1,000 players, round 4": lambda: anon.get(
            f"/api/tournaments/{TOURNAMENT[1]}/"
        ),
        "tournament API, 1,000 players, ?round=4": lambda: anon.get(
            f"/api/tournaments/{TOURNAMENT[1]}/?round=4"
        ),
        "tournament page, 1,000 players, round 4": lambda: anon.get(
            f"/tournaments/{TOURNAMENT[1]}/"
        ),
        "club API, 5,000 members, 1,000 games": lambda: anon.get(f"/api/clubs/{CLUB[0]}/"),
        "club API, its owner": lambda: owner.get(f"/api/clubs/{CLUB[0]}/"),
        "club API, 5,000 members, members page 100": lambda: anon.get(
            f"/api/clubs/{CLUB[0]}/?members_page=100"
        ),
        "clubs list API": lambda: anon.get("/api/clubs/"),
        "position.svg, 1,000 events": lambda: anon.get(f"/g/{long_game}/position.svg"),
        "embed page, 1,000 events": lambda: anon.get(f"/embed/{long_game}/"),
    }
    rows: dict[str, tuple[float, int, int]] = {}
    if not ONLY:
        wall, _, touched = timed(idle_round)
        rows["idle round of every loop"] = (wall, statements(idle_round), touched)
    for name, read in reads.items():
        if not ONLY or any(word in name for word in ONLY):
            rows[name] = timed(read)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[0, 10000])
    parser.add_argument("--idle", type=float, default=0, help="seconds of idle Daphne CPU")
    parser.add_argument("--only", nargs="*", default=[], help="measure just these reads")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the database (TEST_DATABASE_NAME); when it already holds a run's "
        "data, migrate it, VACUUM ANALYZE and measure it again as the highest level",
    )
    args = parser.parse_args()
    ONLY.extend(args.only)
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=args.keep)
    try:
        if args.keep and reuse(max(args.levels), args.idle):
            return
        run(sorted(args.levels), args.idle)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=args.keep)


RUNNING_NAME = "Scale running"


def running_tournament(open_id: int) -> int:
    """A running Swiss of the 1,000 players of ``open_id``: rounds 1 to 3
    decided, round 4 paired (its games being played), as pairings stored:
    the page and API of a big field under way (made once, kept with --keep)."""
    from lobby.models import Tournament, TournamentPairing, TournamentPlayer

    found = Tournament.objects.filter(name=RUNNING_NAME).values_list("pk", flat=True).first()
    if found is not None:
        return found
    ids = list(
        TournamentPlayer.objects.filter(tournament_id=open_id)
        .order_by("pk")
        .values_list("user_id", flat=True)
    )
    t = Tournament.objects.create(
        name=RUNNING_NAME, ruleset="halma", system="swiss", rounds=5, status="running"
    )
    t.current_round = 4
    t.save(update_fields=["current_round"])
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=t, user_id=uid, seed=n) for n, uid in enumerate(ids)
    )
    rng = random.Random(4)
    boards = []
    for number in range(1, 5):
        order = ids[:]
        rng.shuffle(order)
        for board in range(len(order) // 2):
            a, b = order[2 * board], order[2 * board + 1]
            points = {str(a): 1.0, str(b): 0.0} if number < 4 else None
            boards.append(
                TournamentPairing(
                    tournament=t, round=number, board=board + 1, players=[a, b], points=points
                )
            )
    TournamentPairing.objects.bulk_create(boards, batch_size=1000)
    stored_standings(t.pk)
    return t.pk


def stored_standings(tournament_id: int) -> None:
    """The stored standings of a tournament made with ``bulk_create``, as the
    services keep them (a kept database's: its migration computed them)."""
    from django.db import transaction

    from lobby.models import Tournament
    from lobby.tournaments.internal.standings import store_standings

    with transaction.atomic():
        store_standings(Tournament.objects.select_for_update().get(pk=tournament_id))


def reuse(level: int, idle: float = 0) -> bool:
    """Measure a kept database again (after a migration, say): no generation."""
    from django.contrib.auth import get_user_model

    from games.models import Game

    User = get_user_model()
    busy = User.objects.filter(username="busy").first()
    if busy is None:
        return False
    long_game = Game.objects.get(version=EVENTS, status=Game.Status.ACTIVE).pk
    player = User.objects.get(username="scale0")
    from django.db.models import Count

    from lobby.models import Tournament

    biggest = Tournament.objects.annotate(n=Count("players")).order_by("-n", "-pk")
    TOURNAMENT.append(biggest.exclude(name=RUNNING_NAME).values_list("pk", flat=True).first() or 0)
    TOURNAMENT.append(running_tournament(TOURNAMENT[0]))
    from lobby.models import Club

    found = Club.objects.filter(name=CLUB_NAME).values_list("pk", flat=True).first()
    if found is None:
        print("# kept database without the club: run again without --keep")
        return False
    CLUB.append(found)
    _clocks_as_made(Game)
    vacuum()
    print(f"# kept database, level {level}: {Game.objects.count()} games stored")
    print_table([level], {level: measure(busy, long_game, player)})
    print_idle(level, idle)
    return True


def _clocks_as_made(game_model: Any) -> None:
    """Move a kept database's running clocks forward as if it had just been
    made (the nearest deadline an hour away): clocks that ran out while it
    was kept would end games in the idle measurement, work a fresh run has
    not got."""
    from django.db.models import F, Min

    running = game_model.objects.filter(status="active", deadline__isnull=False)
    nearest = running.aggregate(Min("deadline"))["deadline__min"]
    if nearest is not None:
        running.update(deadline=F("deadline") + (timezone.now() + timedelta(hours=1) - nearest))


def vacuum() -> None:
    if connection.vendor == "postgresql":  # as autovacuum leaves a table
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def run(levels: list[int], idle: float = 0) -> None:
    from games.models import Game

    started = time.perf_counter()
    store = Store()
    busy = store.busy_player()
    long_game, player = store.long_game()
    store.ratings()
    TOURNAMENT.append(store.tournaments(TOURNAMENTS))
    stored_standings(TOURNAMENT[0])
    TOURNAMENT.append(running_tournament(TOURNAMENT[0]))
    CLUB.append(store.club())
    store.remis_requests(store.games(BASE_RUNNING, finished=False))
    print(f"# fixtures in {time.perf_counter() - started:.0f} s ({connection.vendor})")
    results: dict[int, dict[str, tuple[float, int, int]]] = {}
    stored = 0
    for level in levels:
        started = time.perf_counter()
        if level > stored:
            store.add_users((level - stored) // 5)
            store.games(level - stored, finished=False)
            store.games(level - stored, finished=True)
            if stored == 0:
                store.games(BOT_GAMES, finished=False, bots=True)
            store.ratings()
            stored = level
        vacuum()
        games = Game.objects.count()
        print(f"# level {level}: {games} games stored in {time.perf_counter() - started:.0f} s")
        results[level] = measure(busy, long_game, player)
        print_idle(level, idle)
    print_table(levels, results)


def print_idle(level: int, seconds: float) -> None:
    """One idle Daphne, then four: their CPU and the database's transactions."""
    if seconds > 0 and connection.vendor == "postgresql":
        for processes in (1, 4):
            cpu, tps = idle_servers(processes, seconds)
            print(
                f"# level {level}: {processes} idle Daphne: {cpu:.1f}% of a core, "
                f"{tps:.1f} database transactions/s"
            )


def idle_servers(count: int, seconds: float) -> tuple[float, float]:
    """CPU (% of a core, all ``count`` processes) and database transactions per
    second of ``count`` Daphne processes serving nobody, after a warm-up."""
    from bench.bars import free_port, wait_port
    from bench.idle import Transactions, proc_cpu

    name = connection.settings_dict["NAME"]
    url = f"postgres://postgres@127.0.0.1:5432/{name}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "false",
        "GAME_SWEEPER": "true",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "CHANNEL_PREFIX": f"scale{os.getpid()}",
    }
    daphne = str(Path(__file__).resolve().parent.parent / ".venv" / "bin" / "daphne")
    procs: list[subprocess.Popen[bytes]] = []
    log = open(Path(tempfile.gettempdir()) / f"scale-idle-{os.getpid()}.log", "a")  # noqa: SIM115
    try:
        for _ in range(count):
            port = free_port()
            cmd = [daphne, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
            procs.append(subprocess.Popen(cmd, env=env, stdout=log, stderr=log))
            wait_port(port, timeout=60)
            # The loops start with a process's first request (Daphne has no
            # lifespan events): one API read, then no client at all.
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets/", timeout=60).read()
        time.sleep(10)  # warm-up: imports, first sweeps
        xacts = Transactions(url)
        cpu0, tx0, t0 = sum(proc_cpu(p.pid) for p in procs), xacts.read(), time.monotonic()
        time.sleep(seconds)
        cpu1, tx1, t1 = sum(proc_cpu(p.pid) for p in procs), xacts.read(), time.monotonic()
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()
    return 100 * (cpu1 - cpu0) / (t1 - t0), (tx1 - tx0) / (t1 - t0)


def print_table(levels: list[int], results: dict[int, dict[str, tuple[float, int, int]]]) -> None:
    names = [f"+{n:,} running, {n:,} finished" if n else "full pages only" for n in levels]
    head = "| what | " + " | ".join(names) + " |"
    print(head)
    print("|---|" + "---|" * len(levels))
    for name in results[levels[0]]:
        cells = []
        for level in levels:
            wall, size, touched = results[level][name]
            unit = "statements" if name.startswith("idle") else "B"
            cells.append(f"{wall:.1f} ms, {size:,} {unit}, {touched:,} pages")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
