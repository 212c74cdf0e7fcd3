from django.urls import path

from . import api, views

pages = [
    path("moderation/", views.queue_page, name="moderation-queue"),
    path("moderation/reports/<int:report_id>/", views.case_page, name="moderation-case"),
]

api_urls = [
    path("reports/", api.Reports.as_view(), name="api-reports"),
    path("moderation/reports/", api.Queue.as_view(), name="api-moderation-reports"),
    path("moderation/reports/<int:pk>/", api.Case.as_view(), name="api-moderation-case"),
    path("moderation/users/<str:username>/", api.Moderate.as_view(), name="api-moderation-user"),
    path(
        "moderation/warnings/<int:pk>/acknowledge/",
        api.WarningAcknowledge.as_view(),
        name="api-warning-acknowledge",
    ),
]
