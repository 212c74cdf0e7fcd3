from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("guest/", views.guest, name="guest"),
    path("settings/", views.account_settings, name="settings"),
    path("settings/vacation/", views.vacation, name="vacation"),
    path("settings/tokens/", views.token_new, name="token-new"),
    path("settings/tokens/<int:token_id>/revoke/", views.token_revoke, name="token-revoke"),
    path("settings/bot/", views.bot_account, name="bot-account"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("login/link/", views.login_link_request, name="login-link-request"),
    path("login/link/<str:token>/", views.login_link, name="login-link"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
