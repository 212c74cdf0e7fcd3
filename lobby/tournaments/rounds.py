"""Starting, pairing each round (games created and started in the same
transaction), recording results, finishing; the sweeper's due work."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import publish
from games.errors import GameError
from games.models import Game
from games.services.creating import game_create_many
from lobby.models import Tournament, TournamentPairing, TournamentPlayer
from lobby.pairing import NoPairing, Pairing, berger_rounds, pair_swiss, pair_tables
from lobby.selectors import tournaments as read

from .internal import deadlines, notices
from .internal.common import claim_due, each_due, locked_tournament, tell_lobby, tell_players
from .internal.eligibility import ineligible, record_no_show, seed_by_rating
from .internal.results import no_shows, seat_points
from .internal.standings import mark_standings_due, mark_withdrawn, store_standings

if TYPE_CHECKING:
    from games.users import Visitor

DUE_BATCH = 10
# Fields up to this size have round 1 paired in the start's own transaction
# (ARCHITECTURE.md's shape); bigger ones by the sweeper's tournament thread.
INLINE_FIELD = 200


def tournament_start(*, tournament_id: object, user: Visitor | None) -> Tournament:
    """The creator (or staff) starts an open tournament: round 1 is paired and
    its games started in this transaction, for a field of up to
    ``INLINE_FIELD``. A bigger one is handed to the sweeper's tournament
    thread (due now, as a timed start): the answer comes at once, saying
    ``pairing``, and the round follows within a sweep and its few seconds."""
    with publish.sending_together(), transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if (
            user is None
            or not user.is_authenticated
            or not (user.pk == tournament.creator_id or user.is_staff)
        ):
            raise GameError(
                "forbidden", gettext_noop("Only its creator starts a tournament."), status=403
            )
        if tournament.status != Tournament.Status.OPEN:
            raise GameError(
                "not_open", gettext_noop("This tournament has already started or ended.")
            )
        now = timezone.now()
        count = TournamentPlayer.objects.filter(tournament=tournament, withdrawn=False).count()
        if count > INLINE_FIELD:
            _refuse_field(tournament, count)  # the request's answer, not an empty end
            tournament.due = now
            tournament.save(update_fields=["due"])
            tell_lobby(tournament)
        else:
            _begin(tournament, now)
    return tournament


def _begin(tournament: Tournament, now: datetime) -> None:
    """Check the field (entry conditions again), fix the starting ranks and pair round 1."""
    _withdraw_ineligible(tournament)
    seed_by_rating(tournament)
    _refuse_field(tournament, len(read.active_ids(tournament)))
    if tournament.system == Tournament.System.ROUND_ROBIN:
        tournament.rounds = len(
            berger_rounds(read.active_ids(tournament), double=tournament.double)
        )
    tournament.status = Tournament.Status.RUNNING
    _pair_next(tournament, now)
    store_standings(tournament)  # the starting ranks, and round 1's byes


def _refuse_field(tournament: Tournament, count: int) -> None:
    """Too few players, or too many Swiss rounds for them."""
    needed = 3 if tournament.seat_count > 2 else 2
    if count < needed:
        raise GameError(
            "too_few_players",
            gettext_noop("A tournament needs at least %(n)s players to start."),
            n=needed,
        )
    if tournament.system == Tournament.System.SWISS and tournament.seat_count == 2:
        most = count if count % 2 else count - 1  # everyone meets everyone once, a bye each
        if tournament.rounds > most:
            raise GameError(
                "too_many_rounds",
                gettext_noop("%(players)s players allow at most %(n)s Swiss rounds."),
                players=count,
                n=most,
            )


def _withdraw_ineligible(tournament: Tournament) -> None:
    if not (tournament.min_games or tournament.min_rating):
        return
    for player in TournamentPlayer.objects.filter(tournament=tournament, withdrawn=False):
        if ineligible(tournament, player.user_id) is not None:
            player.delete()


def _pair_next(tournament: Tournament, now: datetime) -> None:
    """Pair and start the next round; a Swiss that cannot pair ends here."""
    number = tournament.current_round + 1
    try:
        games = _round_pairings(tournament, number)
    except NoPairing:
        _finish(tournament)
        return
    if TournamentPairing.objects.filter(tournament=tournament, round=number).exists():
        return  # paired already (the row lock makes this a safety net)
    tournament.current_round, tournament.due = number, None
    deadlines.set_round_deadline(tournament, now)
    tournament.save(update_fields=["status", "rounds", "current_round", "due", "round_deadline"])
    forfeits = set(
        TournamentPlayer.objects.filter(tournament=tournament, withdrawn=True).values_list(
            "user_id", flat=True
        )
    )
    _store_round(tournament, number, games, forfeits)
    tell_lobby(tournament)
    _advance(tournament, now)  # a round of byes and forfeits only is complete at once


def _round_pairings(tournament: Tournament, number: int) -> list[Pairing]:
    if tournament.system == Tournament.System.ROUND_ROBIN:
        everyone = [p.user_id for p in read.players_in_order(tournament)]
        return berger_rounds(everyone, double=tournament.double)[number - 1]
    entrants = read.entrants(tournament, read.active_ids(tournament))
    if tournament.seat_count > 2:
        return pair_tables(entrants, tournament.seat_count)
    return pair_swiss(entrants)


def _store_round(
    tournament: Tournament, number: int, pairings: list[Pairing], forfeits: set[int]
) -> None:
    """The round's games, created and started in bulk (``game_create_many``),
    linked to its pairings (byes too), and the players' notices."""
    points = [_fixed_points(p, forfeits) for p in pairings]
    if any(fixed is not None for fixed in points):
        mark_standings_due(tournament, timezone.now())
    seatings = [list(p.players) for p, fixed in zip(pairings, points, strict=True) if fixed is None]
    stored: list[TournamentPairing] = []

    def link(games: list[Game]) -> None:
        started = iter(games)
        stored.extend(
            TournamentPairing.objects.bulk_create(
                TournamentPairing(
                    tournament=tournament,
                    round=number,
                    board=board,
                    game=None if fixed is not None else next(started),
                    players=list(pairing.players),
                    bye=pairing.bye,
                    points=fixed,
                )
                for board, (pairing, fixed) in enumerate(zip(pairings, points, strict=True))
            )
        )

    game_create_many(
        ruleset=tournament.ruleset,
        options=tournament.options,
        clock=tournament.clock,
        rated=tournament.rated,
        seatings=seatings,
        link=link,
    )
    waiting = [(p.game, list(p.players)) for p in stored if p.game is not None]
    tell_players(tournament, number, [(game.pk, users) for game, users in waiting])
    byes = [p.players[0] for p in stored if p.bye and p.players[0] not in forfeits]
    notices.round_started(
        tournament, number, [g for g, _ in waiting], [u for _, u in waiting], byes
    )


def _fixed_points(pairing: Pairing, forfeits: set[int]) -> dict[str, float] | None:
    """A pairing's points known without a game: a bye (a withdrawn player's
    round-robin bye scores nothing), or a round-robin game against a
    withdrawn player; None: it is played."""
    players = list(pairing.players)
    if pairing.bye:
        return {str(players[0]): 0.0 if players[0] in forfeits else 1.0}
    if forfeits & set(players):
        return {str(u): 0.0 if u in forfeits else 1.0 for u in players}
    return None


def on_game_over(sender: object, game: Game, **kwargs: object) -> None:
    """A game ended (inside its transaction): record its tournament points;
    the last game of a round pairs the next (or schedules it)."""
    pairing = TournamentPairing.objects.filter(game_id=game.pk).only("tournament_id").first()
    if pairing is None:
        return
    tournament = locked_tournament(pairing.tournament_id)
    pairing = TournamentPairing.objects.get(pk=pairing.pk)
    if pairing.points is not None:
        return
    now = timezone.now()
    absent = no_shows(game)
    points = seat_points(game, absent)
    pairing.points = {str(uid): points[seat] for seat, uid in enumerate(pairing.players)}
    pairing.save(update_fields=["points"])
    mark_standings_due(tournament, now)
    for seat in absent:
        uid = pairing.players[seat]
        # A table's no-show was withdrawn and banned when a bot took the seat.
        if TournamentPlayer.objects.filter(
            tournament=tournament, user_id=uid, withdrawn=False
        ).update(withdrawn=True):
            record_no_show(uid, now)
            mark_withdrawn(tournament, uid)
    tell_lobby(tournament)
    _advance(tournament, now)


def _round_waits(tournament: Tournament) -> bool:
    """Whether a game of the current round has no result yet."""
    return TournamentPairing.objects.filter(
        tournament=tournament, round=tournament.current_round, points__isnull=True
    ).exists()


def _advance(tournament: Tournament, now: datetime) -> None:
    """After a result: finish, pair the next round now, or set when it is due."""
    if _round_waits(tournament):
        return
    if tournament.current_round >= tournament.rounds or len(read.active_ids(tournament)) < 2:
        _finish(tournament)
    elif tournament.round_pause_seconds == 0:
        _pair_next(tournament, now)
    else:
        tournament.due = now + timedelta(seconds=tournament.round_pause_seconds)
        tournament.save(update_fields=["due"])


def _finish(tournament: Tournament) -> None:
    """The last round is over: the standings are final, stored now (once)."""
    store_standings(tournament)
    tournament.status, tournament.due = Tournament.Status.FINISHED, None
    tournament.round_deadline = None
    tournament.save(update_fields=["status", "rounds", "due", "round_deadline"])
    tell_lobby(tournament)


def tournament_rounds_pair_due(now: datetime | None = None) -> int:
    """The sweeper's share: start tournaments whose time came, adjudicate the
    games of a correspondence round whose deadline passed, pair rounds whose
    pause is over. Reads only what is due (the partial index)."""
    return each_due("due", now or timezone.now(), DUE_BATCH, _deadline_or_due, "due work")


def _deadline_or_due(tournament_id: int, now: datetime) -> int:
    # A round's deadline first: game rows are locked before the tournament's.
    return deadlines.adjudicate_round(tournament_id, now) or _run_due(tournament_id, now)


def _run_due(tournament_id: int, now: datetime) -> int:
    with publish.sending_together(), transaction.atomic():
        tournament = claim_due(tournament_id, "due", now)
        if tournament is None:
            return 0  # another process has it, or it is done
        if tournament.status == Tournament.Status.OPEN:
            try:
                with transaction.atomic():
                    _begin(tournament, now)
            except GameError:  # too few players at the start time: it ends empty
                tournament.refresh_from_db()
                _finish(tournament)
        elif tournament.status == Tournament.Status.RUNNING:
            if not _round_waits(tournament):  # else: its deadline's adjudication retries
                _pair_next(tournament, now)
        else:
            tournament.due = None
            tournament.save(update_fields=["due"])
    return 1
