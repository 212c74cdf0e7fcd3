from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .forms import SettingsForm, SignUpForm


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account and log straight in."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "lobby")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request):
    """E-mail address and whether notifications also go out by e-mail."""
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Settings saved."))
        return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form})
