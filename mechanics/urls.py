"""Rolls, the roll log, health and combat, under /campaigns/<campaign_id>/."""

from django.urls import path

from mechanics.views import combat, health
from mechanics.views import log as views_log
from mechanics.views import roll as views_roll
from mechanics.views import saved as views_saved

app_name = "mechanics"

urlpatterns = [
    path("characters/<id:character_id>/roll/", views_roll.character_roll, name="roll"),
    path(
        "characters/<id:character_id>/roll/<id:roll_id>/aspect/",
        views_roll.roll_aspect,
        name="roll_aspect",
    ),
    path(
        "characters/<id:character_id>/roll/save/",
        views_saved.saved_roll_save,
        name="saved_roll_save",
    ),
    path(
        "characters/<id:character_id>/saved-rolls/",
        views_saved.saved_rolls,
        name="saved_rolls",
    ),
    path(
        "characters/<id:character_id>/saved-rolls/<id:saved_id>/rename/",
        views_saved.saved_roll_rename_view,
        name="saved_roll_rename",
    ),
    path(
        "characters/<id:character_id>/saved-rolls/<id:saved_id>/delete/",
        views_saved.saved_roll_delete_view,
        name="saved_roll_delete",
    ),
    path("roll/", views_roll.gm_roll, name="gm_roll"),
    path("rolls/", views_log.roll_log, name="log"),
    path("rolls/feed/", views_log.roll_feed, name="feed"),
    path("rolls/export/", views_log.log_export, name="log_export"),
    path("rolls/free/", views_log.free_roll, name="free_roll"),
    # A character's health, under the sheet's address.
    *health.urlpatterns,
    # A scene's combat panel, and time passing for everyone in a scene.
    path(
        "scenes/<id:scene_id>/time/",
        combat.scene_time,
        name="scene_time",
    ),
    path(
        "scenes/<id:scene_id>/combat/",
        combat.combat,
        name="combat",
    ),
    path(
        "scenes/<id:scene_id>/combat/start/",
        combat.combat_start,
        name="combat_start",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/",
        combat.combat_detail,
        name="combat_detail",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/fighters/",
        combat.combat_add,
        name="combat_add",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/fighters/<id:participant_id>/remove/",
        combat.combat_remove,
        name="combat_remove",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/fighters/<id:participant_id>/phase/",
        combat.combat_phase,
        name="combat_phase",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/initiative/",
        combat.combat_initiative,
        name="combat_initiative",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/next/",
        combat.combat_next,
        name="combat_next",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/move/",
        combat.combat_move,
        name="combat_move",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/attack/",
        combat.combat_attack,
        name="combat_attack",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/attacks/<id:attack_id>/apply/",
        combat.combat_apply,
        name="combat_apply",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/attacks/<id:attack_id>/discard/",
        combat.combat_discard,
        name="combat_discard",
    ),
    path(
        "scenes/<id:scene_id>/combat/<id:combat_id>/end/",
        combat.combat_end,
        name="combat_end",
    ),
]
