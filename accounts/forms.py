from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email", "email_notifications")
