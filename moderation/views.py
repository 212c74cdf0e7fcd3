"""The moderators' pages: the live queue and one case (data over the API and
``/ws/moderation/``). Anyone else gets 403, told nothing about reports."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import render
from django.utils.translation import gettext

from games.errors import GameError

from . import roles, selectors


def refused(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not roles.is_moderator(request.user):
        return HttpResponseForbidden(gettext("Only moderators may see this page."))
    return None


def queue_page(request):
    return refused(request) or render(request, "moderation/queue.html")


def case_page(request, report_id: int):
    answer = refused(request)
    if answer:
        return answer
    try:
        case = selectors.case(report_id)
    except GameError:
        raise Http404(gettext("There is no such report.")) from None
    return render(request, "moderation/case.html", {"case": case})
