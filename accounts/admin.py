from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Site", {"fields": ("email_notifications", "language", "is_bot")}),
    )
