from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from frontend import views as pages

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("g/<int:game_id>/", pages.game_page, name="game"),
    path("g/<int:game_id>/replay/", pages.replay_page, name="replay"),
    path("t/<str:code>/", pages.invite, name="invite"),
    path("my/games/", pages.my_games, name="my-games"),
    path("remis/", pages.remis_queue, name="remis-queue"),
    path("accounts/", include("accounts.urls")),
    path("api/", include("games.api_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["frontend"]), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
