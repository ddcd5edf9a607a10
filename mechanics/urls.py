"""Roll, odds and roll-log URLs, under /campaigns/<campaign_id>/."""

from django.urls import path

from mechanics import views_log, views_roll

app_name = "mechanics"

urlpatterns = [
    path("characters/<id:character_id>/roll/", views_roll.character_roll, name="roll"),
    path(
        "characters/<id:character_id>/roll/<id:roll_id>/aspect/",
        views_roll.roll_aspect,
        name="roll_aspect",
    ),
    path("roll/", views_roll.gm_roll, name="gm_roll"),
    path("rolls/", views_log.roll_log, name="log"),
    path("rolls/feed/", views_log.roll_feed, name="feed"),
    path("rolls/export/", views_log.log_export, name="log_export"),
    path("rolls/free/", views_log.free_roll, name="free_roll"),
]
