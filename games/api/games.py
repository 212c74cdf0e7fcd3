"""A game: its state for a page, the events since a version, a player's
action and the seat commands (resign, draw offers, abort)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import GameError, no_such_game
from ..selectors import frames
from ..services import endings, handover, play, rematch
from .common import ReadThrottle, WriteThrottle, answer, valid
from .serializers import AckOut, ActIn, GameOut, HandoverIn, RematchOut, SyncOut, answers


class GameRead(APIView):
    """A game's state for a page or a tool: answered from a bounded tail of
    events, and throttled per user, else per address (``game_reads``)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ReadThrottle]
    throttle_scope = "game_reads"


class GameDetail(GameRead):
    @extend_schema(responses=answers({200: GameOut}))
    def get(self, request: Request, pk: int) -> Response:
        frame = frames.hello_frame(pk, request.user)
        if frame is None:
            raise no_such_game()
        frame.pop("type")
        return answer(GameOut, frame)


class GameEvents(GameRead):
    @extend_schema(
        parameters=[OpenApiParameter("since", int, description="last version the client saw")],
        responses=answers({200: SyncOut}),
    )
    def get(self, request: Request, pk: int) -> Response:
        try:
            since = max(int(request.query_params.get("since", "0")), 0)
        except ValueError:
            raise GameError("bad_request", gettext_noop("since must be a whole number.")) from None
        if frames.current_version(pk) is None:
            raise no_such_game()
        frame, _seat = frames.sync_frame(pk, request.user, since)
        frame.pop("type")
        return answer(SyncOut, frame)


class GameAct(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "acts"

    @extend_schema(request=ActIn, responses=answers({200: AckOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ActIn, request)
        version = play.game_act(
            game_id=pk, user=request.user, version=data["version"], action=data["action"]
        )
        return answer(AckOut, {"version": version})


class GameHandover(APIView):
    """Agree (or decline) to let a bot play a leaver's or timed-out player's seat
    (games/services/handover.py, seat_offers.py)."""

    @extend_schema(request=HandoverIn, responses=answers({200: AckOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(HandoverIn, request)
        decide = handover.game_handover_agree if data["agree"] else handover.game_handover_decline
        version = decide(game_id=pk, user=request.user, seat=data["seat"])
        return answer(AckOut, {"version": version})


def seat_command(service: Callable[..., int]) -> type[APIView]:
    """A POST endpoint that runs one seat command service (resign, draw offers, abort)."""

    class SeatCommand(APIView):
        @extend_schema(request=None, responses=answers({200: AckOut}))
        def post(self, request: Request, pk: int) -> Response:
            return answer(AckOut, {"version": service(game_id=pk, user=request.user)})

    SeatCommand.__name__ = f"SeatCommand_{service.__name__}"
    return SeatCommand


GameResign = seat_command(endings.game_resign)
OfferDraw = seat_command(endings.game_offer_draw)
AcceptDraw = seat_command(endings.game_accept_draw)
DeclineDraw = seat_command(endings.game_decline_draw)
Abort = seat_command(endings.game_abort)


class GameRematch(APIView):
    """A finished game's rematch: POST offers or accepts, DELETE declines or withdraws."""

    @extend_schema(request=None, responses=answers({200: RematchOut}))
    def post(self, request: Request, pk: int) -> Response:
        return answer(RematchOut, rematch.rematch_offer(game_id=pk, user=request.user))

    @extend_schema(request=None, responses=answers({200: RematchOut}))
    def delete(self, request: Request, pk: int) -> Response:
        return answer(RematchOut, rematch.rematch_decline(game_id=pk, user=request.user))
