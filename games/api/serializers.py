"""What the API reads and answers, as DRF serializers.

Input serializers check and parse a request body before a service is called;
output serializers describe the answers (drf-spectacular puts them in
``/api/schema/``, schemathesis checks every answer against them). The answers
themselves are built by the selectors (the same shapes the sockets send).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ..rules import RULESETS

# Input


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false only: DRF's own also takes "yes", 1 or "on"."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class RulesetField(serializers.ChoiceField):
    """A registered ruleset's slug, checked against ``RULESETS`` when a request
    comes (the schema lists those of start-up): a game registered later is
    accepted like the others."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=sorted(RULESETS), **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or data not in RULESETS:
            self.fail("invalid_choice", input=data)
        return data


class CreateTableIn(serializers.Serializer):
    ruleset = RulesetField()
    options = serializers.DictField(required=False, default=dict)
    seat_count = serializers.IntegerField(required=False, min_value=1, max_value=64)
    # Checked by the service, with its own codes (bad_request, bad_clock).
    host_seat = serializers.JSONField(
        required=False,
        default=0,  # type: ignore[arg-type]  # any JSON value is a JSONField's default
        help_text='a seat index, or "random"',
    )
    challenge = serializers.CharField(required=False, allow_blank=True, max_length=150)
    clock = serializers.JSONField(
        required=False, help_text='{"kind": "none" | "correspondence" | "realtime", ...}'
    )
    auto_start = serializers.BooleanField(required=False, default=True)
    bot = serializers.JSONField(
        required=False,
        help_text='play the computer: {"level": "easy" | "medium" | "strong"}; '
        'staff: {"levels": [...]} puts one bot per level in every seat',
    )
    rated = StrictBooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="rated or casual; absent: rated between people, casual with a bot",
    )


class QuickplayIn(serializers.Serializer):
    ruleset = RulesetField()
    options = serializers.DictField(required=False, default=dict)
    seat_count = serializers.IntegerField(required=False, min_value=1, max_value=64)
    clock = serializers.JSONField(required=False)


class JoinIn(serializers.Serializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=64)


class BotInviteIn(serializers.Serializer):
    level = serializers.ChoiceField(choices=["easy", "medium", "strong"])
    seat = serializers.IntegerField(required=False, min_value=0, max_value=64)


class HandoverIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=64)
    agree = StrictBooleanField(
        required=False, default=True
    )  # false: decline (a leaver's seat leaves)


class ActIn(serializers.Serializer):
    version = serializers.IntegerField(min_value=0)
    action = serializers.DictField()


class ChatIn(serializers.Serializer):
    text = serializers.CharField(max_length=2000, allow_blank=True, trim_whitespace=False)


class ReadIn(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False)


class RemisIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["repetition", "deadlock"])
    action = serializers.DictField(required=False)
    move_numbers = serializers.ListField(child=serializers.IntegerField(), required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class DecideIn(serializers.Serializer):
    approve = serializers.BooleanField()
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


# Errors


class ErrorOut(serializers.Serializer):
    """Every refusal: a stable ``code`` and a message in the reader's language."""

    code = serializers.CharField()
    message = serializers.CharField()
    version = serializers.IntegerField(
        required=False, help_text="the game's current version, where that helps"
    )
    retry_after = serializers.IntegerField(required=False, help_text="seconds to wait")
    # The error shape's own field, named as clients read it (it hides Serializer.fields
    # on this output-only serializer, which is built from a dict and never validates).
    fields = serializers.JSONField(  # type: ignore[assignment]
        required=False, help_text="what is wrong with each field"
    )


# The refusals any endpoint may answer (the API's one error shape).
ERRORS = {status: ErrorOut for status in (400, 401, 403, 404, 409, 413, 429)}


def answers(ok: dict[int, object]) -> dict[int, object]:
    """An operation's responses: its successes and the error shape."""
    return {**ok, **ERRORS}


# Output: lobby


class OptionFieldOut(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.CharField(help_text="bool, int, choice or text")
    label = serializers.CharField()  # type: ignore[assignment]  # the option's label, not the field's
    default = serializers.JSONField()
    help = serializers.CharField(required=False)
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)
    max_length = serializers.IntegerField(required=False)
    choices = serializers.ListField(
        child=serializers.ListField(child=serializers.JSONField()), required=False
    )


class RulesetOut(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    min_seats = serializers.IntegerField()
    max_seats = serializers.IntegerField()
    options = OptionFieldOut(many=True)


class TableOut(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    title = serializers.CharField()
    options = serializers.DictField()
    status = serializers.CharField()
    seat_count = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField(allow_null=True))
    taken = serializers.IntegerField()
    bots = serializers.ListField(
        child=serializers.IntegerField(), help_text="the seats that bots hold"
    )
    host = serializers.CharField()
    challenged = serializers.CharField(allow_null=True)
    quickplay = serializers.BooleanField()
    auto_start = serializers.BooleanField()
    clock = serializers.JSONField()
    rated = serializers.BooleanField(help_text="whether the game will be rated")
    bots_welcome = serializers.BooleanField(
        help_text="whether a bot may be invited (false for a table chosen rated)"
    )
    created = serializers.DateTimeField()
    started = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()


# Output: games


class AckOut(serializers.Serializer):
    version = serializers.IntegerField()


class SeatOut(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    bot = serializers.BooleanField(help_text="a bot holds this seat")


class StateOut(serializers.Serializer):
    """The uniform game state one seat (or a spectator) sees, for every ruleset."""

    version = serializers.IntegerField()
    status = serializers.CharField()
    to_act = serializers.ListField(child=serializers.IntegerField())
    result = serializers.JSONField(help_text="null until the game is over")
    result_text = serializers.CharField(allow_blank=True)
    view = serializers.JSONField(help_text="the ruleset's view for this seat")
    legal = serializers.ListField(child=serializers.JSONField())
    clock = serializers.JSONField()
    draw_offers = serializers.ListField(child=serializers.IntegerField())
    left = serializers.ListField(child=serializers.IntegerField())
    paused = serializers.BooleanField()
    remis = serializers.JSONField(help_text="the remis request waiting for an admin, or null")
    remis_allowed = serializers.ListField(child=serializers.CharField())
    handover = serializers.JSONField(
        help_text='seats offered to a bot: {"<seat>": {"votes": [seats], "move": null | n}}'
    )


class EventOut(serializers.Serializer):
    """One stored event as a seat may see it."""

    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    kind = serializers.CharField()
    events = serializers.ListField(child=serializers.JSONField())
    time = serializers.DateTimeField()


class ChatMessageOut(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    spectator = serializers.BooleanField()
    text = serializers.CharField(allow_blank=True)
    time = serializers.DateTimeField()


class GameOut(serializers.Serializer):
    """Everything a freshly opened game page needs (the socket's hello)."""

    game = serializers.IntegerField()
    ruleset = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    seats = SeatOut(many=True)
    table = TableOut()
    state = StateOut()
    chat = ChatMessageOut(many=True)
    since = serializers.IntegerField()
    events = EventOut(many=True)
    rematch = serializers.JSONField(
        allow_null=True, help_text="a finished game's rematch offer (docs/protocol.md)"
    )


class RematchOut(serializers.Serializer):
    """A finished game's rematch offer (games/services/rematch.py)."""

    game = serializers.IntegerField()
    status = serializers.ChoiceField(["pending", "declined", "accepted"])
    accepted = serializers.ListField(child=serializers.IntegerField(), help_text="seats")
    declined_by = serializers.IntegerField(allow_null=True, help_text="a seat")
    new_game = serializers.IntegerField(allow_null=True)


class NamesOut(serializers.Serializer):
    """The users the caller blocks or follows."""

    users = serializers.ListField(child=serializers.CharField())


class SyncOut(serializers.Serializer):
    """The events after the client's version and the current state (the socket's sync)."""

    game = serializers.IntegerField()
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    seats = SeatOut(many=True)
    table = TableOut()
    events = EventOut(many=True)
    state = StateOut()
    rematch = serializers.JSONField(
        allow_null=True, help_text="a finished game's rematch offer (docs/protocol.md)"
    )


# Output: replays, exports, records


class ReplayFrameOut(serializers.Serializer):
    version = serializers.IntegerField()
    event = EventOut()
    view = serializers.JSONField(required=False, help_text="absent when views=0")


class ReplayOut(serializers.Serializer):
    game = serializers.IntegerField()
    ruleset = serializers.CharField()
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    seats = SeatOut(many=True)
    result = serializers.JSONField()
    result_text = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    frames = ReplayFrameOut(many=True)
    next = serializers.URLField(allow_null=True)


class LoggedEventOut(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    kind = serializers.CharField()
    action = serializers.JSONField()
    events = serializers.ListField(child=serializers.JSONField())


class ExportOut(serializers.Serializer):
    """A finished game as a file (what the import reads back)."""

    format = serializers.CharField()
    ruleset = serializers.CharField()
    options = serializers.DictField()
    seat_count = serializers.IntegerField()
    seed = serializers.IntegerField()
    result = serializers.JSONField()
    log = LoggedEventOut(many=True)
    final_state = serializers.JSONField()


class ImportErrorOut(serializers.Serializer):
    code = serializers.CharField(help_text="bad_export, too_costly, bad_request, server_error")
    message = serializers.CharField()


class ImportJobOut(serializers.Serializer):
    """An import in progress: follow it until ``status`` is done or failed."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "done", "failed"])
    game = serializers.IntegerField(allow_null=True, help_text="the imported game, once done")
    error = ImportErrorOut(allow_null=True, help_text="why it failed")


class RecordOut(serializers.Serializer):
    """A record's version and index, and its summary (or with ``full``, its data):
    the ruleset's own keys, passed on as they are stored."""

    version = serializers.IntegerField()
    index = serializers.IntegerField()

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        return {**instance, **super().to_representation(instance)}


class RecordPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RecordOut(many=True)


# Output: notifications


class NotificationOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()
    read = serializers.BooleanField()
    created = serializers.DateTimeField()


class MarkedOut(serializers.Serializer):
    marked = serializers.IntegerField(help_text="how many notifications were marked read")


# Output: remis requests


class RemisRequestOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    requested_by = serializers.CharField()
    kind = serializers.CharField()
    move_numbers = serializers.ListField(child=serializers.IntegerField())
    path = serializers.JSONField(help_text="the repeating move's path, or null")
    reason = serializers.CharField(allow_blank=True)
    evidence = serializers.JSONField()
    status = serializers.CharField()
    realtime = serializers.BooleanField()
    created = serializers.DateTimeField()
    waited = serializers.IntegerField(help_text="seconds waited for a decision")
    decided_by = serializers.CharField(allow_null=True)
    decided = serializers.DateTimeField(allow_null=True)
    decision_reason = serializers.CharField(allow_blank=True)


class MoveOut(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    events = serializers.ListField(child=serializers.JSONField())


class RemisDetailOut(RemisRequestOut):
    seats = SeatOut(many=True)
    moves = MoveOut(many=True)


class RemisQueueOut(serializers.Serializer):
    total = serializers.IntegerField(help_text="waiting requests, counted up to 1000")
    total_capped = serializers.BooleanField(help_text="more wait than total says")
    page = serializers.IntegerField(help_text="the client's page number, shown back")
    per_page = serializers.IntegerField()
    next = serializers.IntegerField(
        allow_null=True, help_text="pass as after= for the next page; null on the last"
    )
    items = RemisRequestOut(many=True)


class CandidateOut(serializers.Serializer):
    """A move that would repeat a position a third time, and the move numbers to cite."""

    action = serializers.DictField()
    move_numbers = serializers.ListField(child=serializers.IntegerField())


class CandidatesOut(serializers.Serializer):
    candidates = CandidateOut(many=True)


# Output: players and ratings


class PlayerRatingOut(serializers.Serializer):
    ruleset = serializers.CharField()
    speed = serializers.ChoiceField(choices=["realtime", "correspondence"])
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class RecentGameOut(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    title = serializers.CharField()
    speed = serializers.ChoiceField(choices=["realtime", "correspondence"])
    rated = serializers.BooleanField()
    ended = serializers.DateTimeField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField(allow_null=True))
    result = serializers.ChoiceField(choices=["win", "loss", "draw"])
    rating_change = serializers.IntegerField(allow_null=True)
    replay = serializers.CharField()


class PlayerClubOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.CharField(help_text='"owner", "admin" or "member"')


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    guest = serializers.BooleanField()  # a visitor's temporary account (never rated)
    ratings = PlayerRatingOut(many=True)
    recent_games = RecentGameOut(many=True)
    clubs = PlayerClubOut(many=True, help_text="the clubs they are in, in the order they joined")


class LeaderboardRowOut(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class LeaderboardOut(serializers.Serializer):
    items = LeaderboardRowOut(many=True)
