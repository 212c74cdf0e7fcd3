import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import i18n
from django.views.decorators.http import require_http_methods

from accounts.services import guests
from frontend.budget import write_budget
from games import ratelimit
from games.addresses import request_key
from games.errors import GameError
from games.selectors import relations
from games.services import vacation as vacations

from . import devices, login_links, tokens
from .bot_upgrade import bot_upgrade
from .forms import SettingsForm, SignUpForm
from .language import remember_language


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account and log straight in."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    # A guest signing up in its own browser claims its games: the guest
    # account itself becomes the new account (accounts/services/guests.py).
    guest = request.user if getattr(request.user, "is_guest", False) else None
    blank = {"username": ""} if guest else None  # not the generated name
    form = SignUpForm(request.POST or None, instance=guest, initial=blank)
    status = 200
    if request.method == "POST" and form.is_valid():
        wait = None if guest else _signup_wait(request)
        if wait is None:
            form.instance.language = request.LANGUAGE_CODE  # the language the page was read in
            user = form.save()
            if guest:
                guests.guest_claim(user=user)
                # The new password already ends the guest's other sessions
                # (Django checks each session's password hash); tokens too.
                tokens.tokens_revoke_all(user=user)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            response = redirect(next_url or "lobby")
            devices.remember(request, response, user.get_username())
            return response
        form.add_error(None, _too_many_signups(wait))
        status = 429
    return render(request, "accounts/signup.html", {"form": form, "next": next_url}, status=status)


@require_http_methods(["POST"])
def guest(request):
    """Play without an account: a guest with a generated name, logged in at
    once (CSRF-checked POST; counted with the address's sign-ups)."""
    next_url = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "lobby")
    wait = _signup_wait(request)
    if wait is not None:
        messages.error(request, _too_many_signups(wait))
        return redirect(next_url or "lobby")
    user = guests.guest_create(language=request.LANGUAGE_CODE)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(next_url or "lobby")


def _signup_wait(request) -> int | None:
    """SIGNUPS_PER_HOUR per client address (games/addresses.py), counted in
    the shared cache."""
    address = request_key(request)
    return ratelimit.hit(f"signup:{address}", settings.SIGNUPS_PER_HOUR, 3600)


def _too_many_signups(wait: int) -> str:
    minutes = max(1, math.ceil(wait / 60))
    return ngettext(
        "Too many new accounts from your address; try again in %(n)s minute.",
        "Too many new accounts from your address; try again in %(n)s minutes.",
        minutes,
    ) % {"n": minutes}


class LoginView(auth_views.LoginView):
    """Django's login page; the browser is trusted for the account afterwards
    (accounts/devices.py: strangers' failures do not lock it out)."""

    template_name = "accounts/login.html"

    def form_valid(self, form):
        response = super().form_valid(form)
        devices.remember(self.request, response, form.get_user().get_username())
        return response


@require_http_methods(["GET", "POST"])
@write_budget("writes")
def login_link_request(request):
    """Ask for a one-time log-in link (the lock-out page's offer): the same
    answer whatever the name, so it tells nobody which accounts exist."""
    username = (request.POST.get("username") or request.GET.get("username") or "")[:150]
    context = {"username": username, "sent": False}
    if request.method == "POST" and username:
        wait = login_links.address_wait(request_key(request))
        if wait is not None:
            context["error"] = _too_many_links(wait)
            return render(request, "accounts/login_link_request.html", context, status=429)
        login_links.link_send(username=username)
        context["sent"] = True
    return render(request, "accounts/login_link_request.html", context)


def _too_many_links(wait: int) -> str:
    minutes = max(1, math.ceil(wait / 60))
    return ngettext(
        "Too many log-in links asked for from your address; try again in %(n)s minute.",
        "Too many log-in links asked for from your address; try again in %(n)s minutes.",
        minutes,
    ) % {"n": minutes}


@require_http_methods(["GET", "POST"])
@write_budget("writes")
def login_link(request, token: str):
    """A mailed link: GET shows a button (mail scanners that fetch links
    must not use it up), POST logs the owner in and trusts the browser."""
    user = login_links.link_user(token)
    if user is None:
        return render(request, "accounts/login_link.html", {"bad": True}, status=400)
    if request.method == "GET":
        return render(request, "accounts/login_link.html", {"name": user.get_username()})
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    response = redirect("lobby")
    devices.remember(request, response, user.get_username())
    return response


@login_required
@require_http_methods(["GET", "POST"])
@write_budget("writes")
def account_settings(request):
    """E-mail address, whether notifications also go out by e-mail, and the
    language of the site and of everything sent to the user."""
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        response = redirect("settings")
        if user.language:
            _set_language_cookie(response, user.language)
        with translation.override(user.language_or_default()):  # the next page's language
            messages.success(request, _("Settings saved."))
        return response
    return render(request, "accounts/settings.html", _settings_context(request, form))


def _settings_context(request, form, vacation_error: str = "", **extra) -> dict:
    return {
        "form": form,
        "tokens": tokens.token_list(user=request.user),
        "token_scopes": tokens.ApiToken.SCOPES,
        **extra,
        "blocked": relations.blocked_names(request.user),
        "followed": relations.followed_names(request.user),
        "vacation": vacations.vacation_status(request.user.pk, now=timezone.now()),
        "vacation_until": _until(request.user.pk),
        "vacation_next_start": vacations.vacation_next_start(request.user.pk, now=timezone.now()),
        "vacation_error": vacation_error,
    }


def _until(user_id: int):
    """The running vacation's end as a datetime, for the page to write in the
    reader's words ("3 December 2026, 14:00"), not as an ISO string."""
    away = vacations.vacation_current(user_id, now=timezone.now())
    return away.end if away else None


@login_required
@require_http_methods(["POST"])
@write_budget("tables")  # the API's /api/vacation/ budget
def vacation(request):
    """Start a vacation (until the date given, else as long as the year's
    allowance lasts) or end it early; the API's /api/vacation/ does the same,
    within the same per-user budget."""
    try:
        if request.POST.get("stop"):
            vacations.vacation_stop(user=request.user)
            messages.success(request, _("Welcome back: your clocks run again."))
        else:
            until = vacations.vacation_until_parse(request.POST.get("until", ""))
            vacations.vacation_start(user=request.user, until=until)
            messages.success(request, _("Enjoy your vacation: your correspondence clocks stop."))
    except GameError as exc:
        form = SettingsForm(instance=request.user)
        context = _settings_context(request, form, exc.message)
        return render(request, "accounts/settings.html", context, status=exc.status)
    return redirect("settings")


def _set_language_cookie(response, code: str) -> None:
    """The site switches too, as Django's language switch does it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@write_budget("writes")
def set_language(request):
    """Django's language switch (the selector in every page's header); a
    logged-in user's choice is stored too, so mail and notifications follow it."""
    response = i18n.set_language(request)
    if request.method == "POST":
        remember_language(request.user, request.POST.get("language"))
    return response


@login_required
@require_http_methods(["POST"])
@write_budget("writes")
def token_new(request):
    """Make a personal API token; its secret is on this answer only (never
    stored, nor put in the session for a redirect)."""
    form = SettingsForm(instance=request.user)
    try:
        token, secret = tokens.token_create(
            user=request.user,
            name=request.POST.get("name", ""),
            scopes=request.POST.getlist("scopes"),
        )
    except GameError as exc:
        context = _settings_context(request, form, token_error=exc.message)
        return render(request, "accounts/settings.html", context, status=exc.status)
    context = _settings_context(request, form, new_token=secret, new_token_name=token.name)
    return render(request, "accounts/settings.html", context)


@login_required
@require_http_methods(["POST"])
@write_budget("writes")
def token_revoke(request, token_id: int):
    try:
        tokens.token_revoke(user=request.user, token_id=token_id)
        messages.success(request, _("The token is revoked."))
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect("settings")


@login_required
@require_http_methods(["POST"])
@write_budget("writes")
def bot_account(request):
    """The settings page's irreversible button (it asks to tick a box first)."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: this cannot be undone."))
        return redirect("settings")
    try:
        bot_upgrade(user=request.user)
        messages.success(request, _("This account is a bot account now."))
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect("settings")
