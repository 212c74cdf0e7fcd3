"""The games in the admin. Every relation to a user or a game is a raw id
(a select would list every user or game: 22 s a page with 3,400 users),
every list reads its related rows in its one query, newest first by the
primary key (the models' own orderings sort every row before the first
hundred: over a second with 100,000 games), counted once
(tests/test_admin_queries.py, bench/admin_pages.py)."""

from django.contrib import admin

from .models import ChatMessage, Event, Game, Notification, OutgoingMail, RemisRequest, Seat


class ListedAdmin(admin.ModelAdmin):
    """Newest first on the primary key's index; no second count of all rows."""

    ordering = ("-pk",)
    show_full_result_count = False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Game)
class GameAdmin(ListedAdmin):
    list_display = ("id", "ruleset", "status", "version", "host", "created")
    list_filter = ("ruleset", "status")
    search_fields = ("id", "host__username")
    list_select_related = ("host",)
    raw_id_fields = ("host", "challenged")
    inlines = [SeatInline]
    readonly_fields = ("state", "seed", "version", "result", "to_act")


@admin.register(Event)
class EventAdmin(ListedAdmin):
    list_display = ("game", "version", "kind", "seat", "created")
    list_filter = ("kind",)
    list_select_related = ("game",)
    readonly_fields = ("game", "version", "seat", "kind", "action", "events", "created")


@admin.register(RemisRequest)
class RemisRequestAdmin(ListedAdmin):
    list_display = (
        "id",
        "game",
        "kind",
        "requested_by",
        "status",
        "created",
        "decided_by",
        "decided",
    )
    list_filter = ("status", "kind")
    list_select_related = ("game", "requested_by", "decided_by")
    search_fields = ("game__id", "requested_by__username", "decided_by__username")
    readonly_fields = (
        "game",
        "seat",
        "requested_by",
        "kind",
        "action",
        "move_numbers",
        "reason",
        "evidence",
        "created",
        "decided_by",
        "decided",
        "decision_reason",
        "status",
    )

    def has_add_permission(self, request) -> bool:
        return False  # requests are filed by players; decisions are made on the queue page


@admin.register(ChatMessage)
class ChatMessageAdmin(ListedAdmin):
    list_display = ("game", "user", "seat", "text", "created")
    search_fields = ("text", "user__username")
    list_select_related = ("game", "user")
    raw_id_fields = ("game", "user")


@admin.register(Notification)
class NotificationAdmin(ListedAdmin):
    list_display = ("user", "kind", "game", "read", "created")
    list_filter = ("kind", "read")
    list_select_related = ("user", "game")
    raw_id_fields = ("user", "game")


@admin.register(OutgoingMail)
class OutgoingMailAdmin(ListedAdmin):
    """The mail outbox: what waits, what keeps failing (``due`` empty: given up)."""

    list_display = ("notification", "due", "attempts", "last_error", "created")
    list_select_related = ("notification",)
    readonly_fields = ("notification", "attempts", "last_error", "created")
