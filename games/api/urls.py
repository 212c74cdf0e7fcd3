from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.api import obtain_token

from . import views as api

urlpatterns = [
    path("rulesets/", api.RulesetList.as_view(), name="api-rulesets"),
    path("tables/", api.TableList.as_view(), name="api-tables"),
    path("tables/<int:pk>/join/", api.TableJoin.as_view(), name="api-table-join"),
    path("tables/<int:pk>/leave/", api.TableLeave.as_view(), name="api-table-leave"),
    path("tables/<int:pk>/start/", api.TableStart.as_view(), name="api-table-start"),
    path("tables/<int:pk>/decline/", api.TableDecline.as_view(), name="api-table-decline"),
    path("quickplay/", api.Quickplay.as_view(), name="api-quickplay"),
    path("games/<int:pk>/", api.GameDetail.as_view(), name="api-game"),
    path("games/<int:pk>/events/", api.GameEvents.as_view(), name="api-game-events"),
    path("games/<int:pk>/act/", api.GameAct.as_view(), name="api-game-act"),
    path("games/<int:pk>/resign/", api.GameResign.as_view(), name="api-game-resign"),
    path("games/<int:pk>/draw/offer/", api.OfferDraw.as_view(), name="api-draw-offer"),
    path("games/<int:pk>/draw/accept/", api.AcceptDraw.as_view(), name="api-draw-accept"),
    path("games/<int:pk>/draw/decline/", api.DeclineDraw.as_view(), name="api-draw-decline"),
    path("games/<int:pk>/abort/", api.Abort.as_view(), name="api-game-abort"),
    path("games/<int:pk>/chat/", api.GameChat.as_view(), name="api-game-chat"),
    path("games/<int:pk>/replay/", api.GameReplay.as_view(), name="api-game-replay"),
    path("games/<int:pk>/export/", api.GameExport.as_view(), name="api-game-export"),
    path("games/<int:pk>/records/", api.GameRecords.as_view(), name="api-game-records"),
    path(
        "games/<int:pk>/records/<int:version>/<int:index>/",
        api.GameRecord.as_view(),
        name="api-game-record",
    ),
    path("games/<int:pk>/remis/", api.GameRemis.as_view(), name="api-game-remis"),
    path(
        "games/<int:pk>/remis/candidates/",
        api.GameRemisCandidates.as_view(),
        name="api-game-remis-candidates",
    ),
    path("remis/", api.RemisQueue.as_view(), name="api-remis-queue"),
    path("remis/<int:pk>/", api.RemisDetail.as_view(), name="api-remis-detail"),
    path("remis/<int:pk>/decide/", api.RemisDecide.as_view(), name="api-remis-decide"),
    path("games/import/", api.GameImport.as_view(), name="api-game-import"),
    path("notifications/", api.NotificationList.as_view(), name="api-notifications"),
    path("notifications/read/", api.NotificationRead.as_view(), name="api-notifications-read"),
    path("token/", obtain_token, name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
