from django.contrib import admin

from .models import Event, Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "version", "host", "created")
    list_filter = ("ruleset", "status")
    search_fields = ("id", "host__username")
    inlines = [SeatInline]
    readonly_fields = ("state", "seed", "version", "result", "to_act")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("game", "version", "kind", "seat", "created")
    list_filter = ("kind",)
    readonly_fields = ("game", "version", "seat", "kind", "action", "events", "created")
