from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from . import names
from .models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        # None when Django's check found the name taken, in any case (its
        # error is already on the field, in the page's language). Django
        # has NFKC-normalised it already (UsernameField).
        name = super().clean_username()
        if not name:
            return name
        shape = names.skeleton(name)
        # "bot-": the bots' accounts (accounts/services/internal/bot_accounts.py).
        if shape.startswith(names.skeleton("bot-x")[:-1]):
            raise forms.ValidationError(_("Names starting with “bot-” are kept for the bots."))
        # "guest-": visitors' temporary accounts (accounts/services/guests.py).
        if shape.startswith(names.skeleton("guest-x")[:-1]):
            raise forms.ValidationError(_("Names starting with “guest-” are kept for guests."))
        if names.is_reserved(name):
            raise forms.ValidationError(_("This name is kept for the site's staff."))
        # A guest signing up keeps its row: its own generated name is no rival.
        others = User.objects.exclude(pk=self.instance.pk) if self.instance.pk else User.objects
        if others.filter(name_skeleton=shape).exists():
            raise forms.ValidationError(
                _("This name looks too much like a player's; choose another.")
            )
        return name


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, required=False)

    class Meta:
        model = User
        fields = (
            "email",
            "email_notifications",
            "follow_notices",
            "analyse_rated_games",
            "language",
        )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not self.instance.language:  # an account from before languages were stored
            self.initial["language"] = self.instance.language_or_default()

    def clean_language(self) -> str:
        return self.cleaned_data["language"] or self.instance.language  # not sent: unchanged
