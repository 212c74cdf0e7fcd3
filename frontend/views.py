"""Page shells; everything live comes over the sockets and the API."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from games.errors import GameError
from games.models import Game
from games.rules import RULESETS
from games.selectors import players, ratings
from games.selectors.frames import result_text
from games.selectors.players import MY_GAMES_PAGE, games_of
from games.selectors.relations import friends_playing, relation_to
from games.selectors.seats import game_with_seats, seat_list, seat_of, table_by_invite
from games.services.continuing import CONTINUABLE
from games.users import is_bot
from lobby.selectors.clubs import clubs_of
from lobby.services import table_join_by_invite
from moderation import roles, standing

from .budget import write_budget
from .charts import rating_chart, summary


def has_board(slug: str) -> bool:
    """Whether the browser has a board module for this game yet."""
    return finders.find(f"frontend/js/boards/{slug}.js") is not None


def _ruleset_catalog() -> list[dict]:
    return [
        {
            "slug": rs.slug,
            "title": gettext(rs.title),
            "min_seats": rs.min_seats,
            "max_seats": rs.max_seats,
            # Seats that run the game (a game master): a bot takes them when one plays the computer.
            "referees": [i for i in range(rs.max_seats) if rs.is_referee(i)],
            "seat_names": {
                n: [gettext(name) for name in rs.seat_names(n)]
                for n in range(rs.min_seats, rs.max_seats + 1)
            },
            "options": [
                {
                    **field,
                    "label": gettext(field["label"]),
                    "help": gettext(field["help"]) if field.get("help") else "",
                    "choices": [
                        [value, gettext(label)] for value, label in field.get("choices", [])
                    ],
                }
                for field in rs.option_fields()
            ],
        }
        for rs in RULESETS.values()
        if has_board(rs.slug)
    ]


@require_safe
def lobby(request):
    context = {
        "catalog": _ruleset_catalog(),
        "friends_playing": _friends_playing(request.user),
        "playban": _playban_text(request.user),
    }
    return render(request, "frontend/lobby.html", context)


def _friends_playing(user) -> list[dict]:
    """Followed players' live games, read once on page load (the lobby socket's
    snapshot stays the same for everybody)."""
    games = friends_playing(user)
    for game in games:
        game["title"] = gettext(RULESETS[game["ruleset"]].title)
    return games


@require_safe
def game_page(request, game_id: int):
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist:
        raise Http404(gettext("There is no such game.")) from None
    rs = RULESETS[game.ruleset]
    context = {
        "game": game,
        "title": gettext(rs.title),
        "seat": seat_of(game, request.user),
        "has_board": has_board(game.ruleset),
        # Decided here, at render time: the chat box says so before they type.
        "muted_until": _until_text(standing.muted_until(getattr(request.user, "pk", None))),
        "invite_url": request.build_absolute_uri(f"/t/{game.invite_code}/")
        if game.host_id == getattr(request.user, "pk", None)
        else "",
        **_share_context(request, game),
    }
    return render(request, "frontend/game.html", context)


def _until_text(until: datetime | None) -> str:
    return until.strftime(standing.UNTIL_FORMAT) if until else ""


def _playban_text(user) -> str:
    """A play-ban in force, told at the lobby's seek buttons with its end time."""
    notice = standing.playban_notice(getattr(user, "pk", None))
    return gettext(notice["template"]) % {"until": notice["until_text"]} if notice else ""


def _share_context(request, game: Game) -> dict:
    """What links to the game unfurl into (Open Graph: the position's picture,
    of the version the page was loaded at) and the embed code."""
    if game.state is None:
        return {}
    players = [s.user.username for s in game.seats.all() if s.user]
    descriptions: dict[str, str] = {
        Game.Status.ACTIVE: gettext("Live: %(players)s"),
        Game.Status.FINISHED: gettext("Finished: %(players)s"),
    }
    description = descriptions.get(game.status, gettext("Players: %(players)s")) % {
        "players": ", ".join(players)
    }
    if game.result:
        description += f" · {result_text(game.result)}"
    return {
        "page_url": request.build_absolute_uri(f"/g/{game.pk}/"),
        "picture_url": request.build_absolute_uri(f"/g/{game.pk}/position.png?v={game.version}"),
        "og_description": description,
        "embed_url": request.build_absolute_uri(f"/embed/{game.pk}/"),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@write_budget("tables")  # the API's table join
def invite(request, code: str):
    """An invitation: GET shows the table and a Join button; only the POST
    (CSRF-checked) takes a seat, so following a link never seats anyone."""
    try:
        game = table_by_invite(code)
    except GameError as exc:
        raise Http404(exc.message) from None
    if request.method != "POST":
        return render(request, "frontend/invite.html", _invite_context(request, game))
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        table_join_by_invite(code=code, user=request.user)
    except GameError as exc:
        if exc.code == "not_found":
            raise Http404(exc.message) from None
        context = _invite_context(request, table_by_invite(code), error=exc.message)
        return render(request, "frontend/invite.html", context, status=exc.status)
    return redirect("game", game_id=game.pk)


def _invite_context(request, game: Game, error: str = "") -> dict:
    rs = RULESETS[game.ruleset]
    return {
        "game": game,
        "title": gettext(rs.title),
        "seats": seat_list(game),
        "clock_text": clock_text(game.clock),
        "options": _chosen_options(rs, game.options),
        "state": _invite_state(game, request.user),
        "error": error,
    }


def _invite_state(game: Game, user) -> str:
    """What the visitor can do with this invitation."""
    if seat_of(game, user) is not None:
        return "seated"
    if game.status == Game.Status.ACTIVE:
        return "started"
    if game.status != Game.Status.OPEN:
        return game.status  # finished or aborted
    if game.challenged_id and getattr(user, "pk", None) not in (game.challenged_id, game.host_id):
        return "reserved"
    if all(seat.user_id for seat in game.seats.all()):
        return "full"
    return "join" if user.is_authenticated else "login"


def clock_text(clock: dict) -> str:
    """A table's time control in words."""
    kind = clock.get("kind")
    if kind == "correspondence":
        days = clock.get("days", 0)
        text = ngettext("%(days)s day per move", "%(days)s days per move", days) % {"days": days}
        bank = clock.get("bank", 0)
        if bank:
            text += " " + ngettext(
                "plus a bank of %(bank)s day", "plus a bank of %(bank)s days", bank
            ) % {"bank": bank}
        return text
    if kind == "realtime":
        return gettext("%(minutes)s min per player + %(increment)s s per move") % {
            "minutes": clock.get("minutes", 0),
            "increment": clock.get("increment", 0),
        }
    return gettext("No time limit")


def _chosen_options(rs, options: dict) -> list[dict]:
    """The options that differ from the game's defaults, labelled for people."""
    chosen = []
    for field in rs.option_fields():
        value = options.get(field["name"], field["default"])
        if value == field["default"]:
            continue
        labels = {v: gettext(label) for v, label in field.get("choices", [])}
        chosen.append(
            {
                "label": gettext(field["label"]),
                "value": labels.get(value, value),
                "bool": field["kind"] == "bool",
            }
        )
    return chosen


@require_safe
@login_required
def my_games(request):
    """My games, a page at a time, newest first; ``?before=<game id>`` pages back."""
    before = _whole_number(request.GET.get("before"))
    games = games_of(request.user, before=before)
    for game in games:
        game.title = gettext(RULESETS[game.ruleset].title)  # type: ignore[attr-defined]  # for the page
    running = [g for g in games if g.status in (Game.Status.OPEN, Game.Status.ACTIVE)]
    finished = [g for g in games if g.status == Game.Status.FINISHED]
    for game in finished:  # the viewer's own result, and how the game ended
        mine = next(s.index for s in game.listed if s.user_id == request.user.pk)  # type: ignore[attr-defined]
        game.outcome = ratings.outcome_for(game, mine)  # type: ignore[attr-defined]  # for the page
        game.result_text = result_text(game.result)  # type: ignore[attr-defined]  # for the page
    older = games[-1].pk if len(games) == MY_GAMES_PAGE else None
    context = {"running": running, "finished": finished, "older": older, "paged": before}
    return render(request, "frontend/my_games.html", context)


def _whole_number(text: str | None) -> int | None:
    """A page's cursor from the query string; anything else is the first page."""
    return int(text) if text and text.isdigit() and len(text) < 19 else None


def _moment(text: str | None) -> datetime | None:
    """An ISO date-time cursor from the query string, else None (the newest)."""
    try:
        found = datetime.fromisoformat(text or "")
    except ValueError:
        return None
    return found if found.tzinfo is not None else None


@require_safe
def replay_page(request, game_id: int):
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist:
        raise Http404(gettext("There is no such game.")) from None
    rs = RULESETS[game.ruleset]
    names = rs.seat_names(game.seat_count)
    context = {
        "game": game,
        "title": gettext(rs.title),
        # "Continue from here against the computer" (services/continuing.py)
        "continuable": game.status == Game.Status.FINISHED and game.ruleset in CONTINUABLE,
        "seat_names": [
            gettext(names[i]) if i < len(names) else gettext("Seat %(n)s") % {"n": i + 1}
            for i in range(game.seat_count)
        ],
    }
    return render(request, "frontend/replay.html", context)


@require_safe
def remis_queue(request):
    """The admins' remis queue (the data comes over /ws/remis/ and /api/remis/)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not roles.is_arbiter(request.user):
        return HttpResponseForbidden(gettext("Only admins may see the remis queue."))
    return render(request, "frontend/remis_queue.html")


def _ruleset_title(slug: str) -> str:
    rs = RULESETS.get(slug)
    return gettext(rs.title) if rs else slug


@require_safe
def player_page(request, username: str):
    """A player's profile: ratings with their history charts, recent games,
    and the head-to-head record with the viewer."""
    try:
        player = players.player_by_name(username)
    except GameError:
        raise Http404(gettext("There is no such player.")) from None
    before = _moment(request.GET.get("before"))
    history = ratings.history_of(player, before=before)
    cards = []
    for row in ratings.ratings_of(player):
        key = (row["ruleset"], row["speed"])
        points = history.get(key, [])
        values = [points[0]["before"], *(p["rating"] for p in points)] if points else []
        title = f"{_ruleset_title(row['ruleset'])} · {ratings.speed_label(row['speed'])}"
        cards.append(
            {
                **row,
                "title": title,
                "chart": rating_chart(values, title, f"chart-{row['ruleset']}-{row['speed']}"),
                "summary": summary(values),
            }
        )
    viewer = request.user if request.user.is_authenticated else None
    other = viewer is not None and viewer != player
    context = {
        "player": player,
        "bot": is_bot(player),
        "cards": cards,
        "recent": players.recent_games(player),
        "clubs": clubs_of(player.pk),
        "versus": ratings.head_to_head(viewer, player) if other else None,
        "older": ratings.older_history(history),
        "paged": before,
        "relation": relation_to(viewer, player) if other and not is_bot(player) else None,
        "games": [{"slug": s, "title": _ruleset_title(s)} for s in RULESETS if has_board(s)],
    }
    return render(request, "frontend/player.html", context)


@require_safe
def leaderboard_page(request, ruleset: str):
    if ruleset not in RULESETS:
        raise Http404(gettext("There is no such game."))
    speed = request.GET.get("speed") or ratings.speed_of(None)
    if speed not in ratings.SPEEDS:
        speed = ratings.speed_of(None)
    tabs = [
        {"speed": s, "label": ratings.speed_label(s), "current": s == speed} for s in ratings.SPEEDS
    ]
    context = {
        "ruleset": ruleset,
        "title": _ruleset_title(ruleset),
        "tabs": tabs,
        "rows": ratings.leaderboard(ruleset, speed),
        "games": [{"slug": s, "title": _ruleset_title(s)} for s in RULESETS],
    }
    return render(request, "frontend/leaderboard.html", context)
