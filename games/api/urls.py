from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import token_api
from accounts.api import obtain_token

from . import (
    analysis,
    chat,
    conditional,
    games,
    notifications,
    players,
    push,
    relations,
    remis,
    replays,
    tables,
    vacation,
)

urlpatterns = [
    path("rulesets/", tables.RulesetList.as_view(), name="api-rulesets"),
    path("tables/", tables.TableList.as_view(), name="api-tables"),
    path("tables/<int:pk>/join/", tables.TableJoin.as_view(), name="api-table-join"),
    path("tables/<int:pk>/bot/", tables.TableInviteBot.as_view(), name="api-table-bot"),
    path("tables/<int:pk>/leave/", tables.TableLeave.as_view(), name="api-table-leave"),
    path("tables/<int:pk>/start/", tables.TableStart.as_view(), name="api-table-start"),
    path("tables/<int:pk>/decline/", tables.TableDecline.as_view(), name="api-table-decline"),
    path("quickplay/", tables.Quickplay.as_view(), name="api-quickplay"),
    path("games/<int:pk>/", games.GameDetail.as_view(), name="api-game"),
    path("games/<int:pk>/events/", games.GameEvents.as_view(), name="api-game-events"),
    path("games/<int:pk>/act/", games.GameAct.as_view(), name="api-game-act"),
    path("games/<int:pk>/resign/", games.GameResign.as_view(), name="api-game-resign"),
    path("games/<int:pk>/draw/offer/", games.OfferDraw.as_view(), name="api-draw-offer"),
    path("games/<int:pk>/draw/accept/", games.AcceptDraw.as_view(), name="api-draw-accept"),
    path("games/<int:pk>/draw/decline/", games.DeclineDraw.as_view(), name="api-draw-decline"),
    path("games/<int:pk>/handover/", games.GameHandover.as_view(), name="api-game-handover"),
    path("games/<int:pk>/rematch/", games.GameRematch.as_view(), name="api-game-rematch"),
    path("games/<int:pk>/abort/", games.Abort.as_view(), name="api-game-abort"),
    path("games/<int:pk>/chat/", chat.GameChat.as_view(), name="api-game-chat"),
    path(
        "games/<int:pk>/conditional/",
        conditional.GameConditional.as_view(),
        name="api-game-conditional",
    ),
    path(
        "games/<int:pk>/conditional/preview/",
        conditional.GameConditionalPreview.as_view(),
        name="api-game-conditional-preview",
    ),
    path("games/<int:pk>/forced/", conditional.GameForcedTurns.as_view(), name="api-game-forced"),
    path("games/<int:pk>/replay/", replays.GameReplay.as_view(), name="api-game-replay"),
    path("games/<int:pk>/analysis/", analysis.GameAnalysis.as_view(), name="api-game-analysis"),
    path("games/<int:pk>/continue/", analysis.GameContinue.as_view(), name="api-game-continue"),
    path("games/<int:pk>/export/", replays.GameExport.as_view(), name="api-game-export"),
    path("games/<int:pk>/records/", replays.GameRecords.as_view(), name="api-game-records"),
    path(
        "games/<int:pk>/records/<int:version>/<int:index>/",
        replays.GameRecord.as_view(),
        name="api-game-record",
    ),
    path("games/<int:pk>/remis/", remis.GameRemis.as_view(), name="api-game-remis"),
    path(
        "games/<int:pk>/remis/candidates/",
        remis.GameRemisCandidates.as_view(),
        name="api-game-remis-candidates",
    ),
    path("remis/", remis.RemisQueue.as_view(), name="api-remis-queue"),
    path("remis/<int:pk>/", remis.RemisDetail.as_view(), name="api-remis-detail"),
    path("remis/<int:pk>/decide/", remis.RemisDecide.as_view(), name="api-remis-decide"),
    path("games/import/", replays.GameImport.as_view(), name="api-game-import"),
    path("games/import/<int:pk>/", replays.GameImportJob.as_view(), name="api-game-import-job"),
    path("notifications/", notifications.NotificationList.as_view(), name="api-notifications"),
    path(
        "notifications/read/",
        notifications.NotificationRead.as_view(),
        name="api-notifications-read",
    ),
    path("players/<str:username>/", players.PlayerDetail.as_view(), name="api-player"),
    path("leaderboard/<str:ruleset>/", players.Leaderboard.as_view(), name="api-leaderboard"),
    path("blocks/", relations.BlockList.as_view(), name="api-blocks"),
    path("blocks/<str:username>/", relations.BlockDetail.as_view(), name="api-block"),
    path("follows/", relations.FollowList.as_view(), name="api-follows"),
    path("follows/<str:username>/", relations.FollowDetail.as_view(), name="api-follow"),
    path("push/subscriptions/", push.PushSubscriptions.as_view(), name="api-push-subscriptions"),
    path("vacation/", vacation.VacationView.as_view(), name="api-vacation"),
    path("token/", obtain_token, name="api-token"),
    path("account/tokens/", token_api.AccountTokens.as_view(), name="api-account-tokens"),
    path("account/tokens/<int:pk>/", token_api.AccountToken.as_view(), name="api-account-token"),
    path("account/bot/", token_api.BotUpgrade.as_view(), name="api-bot-upgrade"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # GET only: DRF's OPTIONS answer has no template for this HTML-only view (a
    # 500). The split view serves its start-up script as a file, so the strict
    # Content-Security-Policy holds but for Swagger UI's inline styles.
    path(
        "docs/",
        csp_update({"style-src": [UNSAFE_INLINE], "img-src": ["data:"]})(
            SpectacularSwaggerSplitView.as_view(
                url_name="api-schema", http_method_names=["get", "head"]
            )
        ),
        name="api-docs",
    ),
]
