"""``{% push_settings %}``: the settings page's section on web push (this
device on or off; which kinds of notification are pushed). A tag, so that the
account page's own view and form stay as they are."""

from __future__ import annotations

from django import template

from games.models import Notification
from games.services import push, push_keys

register = template.Library()


@register.inclusion_tag("frontend/push_settings.html", takes_context=True)
def push_settings(context) -> dict:
    user = context["request"].user
    muted = set(push.push_muted_kinds(user))
    kinds = [
        {"value": value, "label": label, "on": value not in muted}
        for value, label in Notification.Kind.choices
    ]
    return {
        "kinds": kinds,
        "public_key": push_keys.push_keys_get().public_key,
        "csrf_token": context.get("csrf_token"),
    }
