from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        # None when Django's check found the name taken, in any case (its
        # error is already on the field, in the page's language).
        name = super().clean_username()
        # "bot-": the bots' accounts (games/services/bot_accounts.py).
        if name and name.lower().startswith("bot-"):
            raise forms.ValidationError(_("Names starting with “bot-” are kept for the bots."))
        # "guest-": visitors' temporary accounts (games/services/guests.py).
        if name and name.lower().startswith("guest-"):
            raise forms.ValidationError(_("Names starting with “guest-” are kept for guests."))
        return name


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, required=False)

    class Meta:
        model = User
        fields = ("email", "email_notifications", "follow_notices", "language")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not self.instance.language:  # an account from before languages were stored
            self.initial["language"] = self.instance.language_or_default()

    def clean_language(self) -> str:
        return self.cleaned_data["language"] or self.instance.language  # not sent: unchanged
