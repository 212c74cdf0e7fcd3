import contextlib
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.errors import GameError

from .models import ApiToken, User
from .tokens import token_revoke


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Site", {"fields": ("email_notifications", "language", "is_bot")}),
    )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Personal tokens, read only: who holds one, for what, when it was last
    used. Never the secret nor its hash (nor the prefix: part of the secret).
    Revoking goes through ``token_revoke``, so the token's open streams end
    too; a revoked token is gone (revoking deletes it)."""

    fields = list_display = ("user", "name", "scopes", "created", "last_used")
    readonly_fields = fields
    list_select_related = ("user",)
    ordering = ("-pk",)  # on the primary key's index
    show_full_result_count = False
    search_fields = ("user__username", "name")
    list_filter = ("created", "last_used")
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # only the holder makes a token: the secret is shown once, to them

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        found = super().get_actions(request)
        found.pop("delete_selected", None)  # "revoke" says what it does
        return found

    @admin.action(description="Revoke the selected tokens", permissions=["delete"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        self.delete_queryset(request, queryset)
        self.message_user(request, "Revoked; their open streams ended.", messages.SUCCESS)

    def delete_model(self, request: HttpRequest, obj: ApiToken) -> None:
        revoke_once(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset.select_related("user"):
            revoke_once(token)


def revoke_once(token: ApiToken) -> None:
    with contextlib.suppress(GameError):  # its holder revoked it meanwhile: gone either way
        token_revoke(user=token.user, token_id=token.pk)
