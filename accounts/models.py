from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """The site's user; custom from the first migration so it can grow."""

    email_notifications = models.BooleanField(
        _("e-mail notifications"),
        default=False,
        help_text=_("Also send notifications by e-mail."),
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
