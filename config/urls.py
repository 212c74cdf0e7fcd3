from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path
from django.utils.translation import gettext
from django.views.defaults import bad_request, page_not_found
from django.views.i18n import JavaScriptCatalog

from accounts import views as account_pages
from frontend import embed, positions, pwa, tv
from frontend import views as pages
from lobby import urls as lobby_urls
from moderation import urls as moderation_urls

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("g/<int:game_id>/", pages.game_page, name="game"),
    path("g/<int:game_id>/replay/", pages.replay_page, name="replay"),
    path("g/<int:game_id>/position.svg", positions.position_svg, name="position-svg"),
    path("g/<int:game_id>/position.png", positions.position_png, name="position-png"),
    path("embed/<int:game_id>/", embed.embed_page, name="embed"),
    path("tv/", tv.tv_page, name="tv"),
    path("tv/featured/", tv.tv_featured, name="tv-featured"),
    path("tv/<str:ruleset>/", tv.tv_page, name="tv-ruleset"),
    path("tv/<str:ruleset>/featured/", tv.tv_featured, name="tv-ruleset-featured"),
    path("t/<str:code>/", pages.invite, name="invite"),
    path("my/games/", pages.my_games, name="my-games"),
    path("players/<str:username>/", pages.player_page, name="player"),
    path("leaderboard/<str:ruleset>/", pages.leaderboard_page, name="leaderboard"),
    path("remis/", pages.remis_queue, name="remis-queue"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("favicon.ico", pwa.favicon, name="favicon"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
    path("accounts/settings/push/", pwa.push_settings, name="push-settings"),
    path("accounts/", include("accounts.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include(moderation_urls.api_urls)),
    path("api/", include(lobby_urls.api_urls)),
    *moderation_urls.pages,
    *lobby_urls.pages,
    # Django's language switch, which also stores a logged-in user's choice.
    path("i18n/setlang/", account_pages.set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["frontend"]), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]


def _not_found(request, exception=None):
    """JSON for the API, the site's page for everything else."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "not_found", "message": gettext("There is no such address in the API.")},
            status=404,
        )
    return page_not_found(request, exception)


handler404 = _not_found


def _bad_request(request, exception=None):
    """A request refused before any view (a NUL in the query): JSON for the API."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "bad_request", "message": gettext("The request is malformed.")},
            status=400,
        )
    return bad_request(request, exception)


handler400 = _bad_request
