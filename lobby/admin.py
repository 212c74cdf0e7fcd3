"""Tournaments in the admin: staff read them and mark them featured; every
other change goes through the services (their checks and live updates)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Tournament
from .tournaments import tournament_feature


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "ruleset", "system", "status", "featured", "created")
    list_filter = ("status", "featured", "ruleset")
    search_fields = ("id", "name")
    fields = ("name", "ruleset", "system", "status", "current_round", "creator", "featured")
    readonly_fields = ("name", "ruleset", "system", "status", "current_round", "creator")
    list_select_related = ("creator",)
    ordering = ("-pk",)  # on the primary key's index
    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # created by players, with every check, through the site

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        tournament_feature(tournament_id=obj.pk, user=request.user, featured=obj.featured)
