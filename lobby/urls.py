from django.urls import path

from . import api, club_api, club_chat_api, club_match_api, club_match_views, club_views, views

pages = [
    path("tournaments/", views.tournament_list_page, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("club-matches/<int:match_id>/", club_match_views.club_match_page, name="club-match"),
    path("clubs/", club_views.club_list_page, name="clubs"),
    path("clubs/<int:club_id>/", club_views.club_page, name="club"),
    path("clubs/<int:club_id>/join/", club_views.club_join_page, name="club-join"),
]

api_urls = [
    path("tournaments/", api.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>/", api.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/join/", api.TournamentJoin.as_view(), name="api-tournament-join"),
    path(
        "tournaments/<int:pk>/withdraw/",
        api.TournamentWithdraw.as_view(),
        name="api-tournament-withdraw",
    ),
    path("tournaments/<int:pk>/start/", api.TournamentStart.as_view(), name="api-tournament-start"),
    path("tournaments/<int:pk>/chat/", api.TournamentChat.as_view(), name="api-tournament-chat"),
    path(
        "tournaments/<int:pk>/feature/",
        api.TournamentFeature.as_view(),
        name="api-tournament-feature",
    ),
    path("clubs/", club_api.ClubList.as_view(), name="api-clubs"),
    path("clubs/<int:pk>/", club_api.ClubDetail.as_view(), name="api-club"),
    path("clubs/<int:pk>/join/", club_api.ClubJoin.as_view(), name="api-club-join"),
    path("clubs/<int:pk>/leave/", club_api.ClubLeave.as_view(), name="api-club-leave"),
    path("clubs/<int:pk>/invite/", club_api.ClubInvite.as_view(), name="api-club-invite"),
    path(
        "clubs/<int:pk>/members/<str:username>/",
        club_api.ClubMemberRole.as_view(),
        name="api-club-member",
    ),
    path("clubs/<int:pk>/matches/", club_match_api.ClubMatches.as_view(), name="api-club-matches"),
    path("club-matches/<int:pk>/", club_match_api.ClubMatchDetail.as_view(), name="api-club-match"),
    *(
        path(f"club-matches/<int:pk>/{action}/", view.as_view(), name=f"api-club-match-{action}")
        for action, view in (
            ("accept", club_match_api.ClubMatchAccept),
            ("decline", club_match_api.ClubMatchDecline),
            ("cancel", club_match_api.ClubMatchCancel),
            ("start", club_match_api.ClubMatchStart),
            ("players", club_match_api.ClubMatchPlayers),
        )
    ),
    path("clubs/<int:pk>/chat/", club_chat_api.ClubChat.as_view(), name="api-club-chat"),
]
