from django.urls import path

from campaigns import views, views_chronicle, views_combat
from characters import views_xp

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new/", views.campaign_create, name="create"),
    path("<id:campaign_id>/", views.campaign_detail, name="detail"),
    path("<id:campaign_id>/edit/", views.campaign_edit, name="edit"),
    path("<id:campaign_id>/invitations/", views.invitation_create, name="invitation_create"),
    path(
        "<id:campaign_id>/invitations/<id:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path(
        "<id:campaign_id>/members/<id:membership_id>/role/",
        views.member_change_role,
        name="member_role",
    ),
    path(
        "<id:campaign_id>/members/<id:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("join/<str:token>/", views.invitation_open, name="invitation"),
    # The chronicle: stories, scenes, diaries and GM notes.
    path("<id:campaign_id>/scenes/", views_chronicle.timeline, name="timeline"),
    path("<id:campaign_id>/scenes/new/", views_chronicle.scene_create, name="scene_create"),
    path("<id:campaign_id>/scenes/<id:scene_id>/", views_chronicle.scene_detail, name="scene"),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/edit/",
        views_chronicle.scene_edit,
        name="scene_edit",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/close/",
        views_chronicle.scene_close,
        name="scene_close",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/reopen/",
        views_chronicle.scene_reopen,
        name="scene_reopen",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/diary/<id:character_id>/",
        views_chronicle.diary_edit,
        name="diary",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/notes/",
        views_chronicle.scene_note_create,
        name="scene_note_create",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/notes/<id:note_id>/",
        views_chronicle.scene_note_edit,
        name="scene_note_edit",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/notes/<id:note_id>/delete/",
        views_chronicle.scene_note_delete,
        name="scene_note_delete",
    ),
    path("<id:campaign_id>/stories/new/", views_chronicle.story_create, name="story_create"),
    path(
        "<id:campaign_id>/stories/<id:story_id>/edit/",
        views_chronicle.story_edit,
        name="story_edit",
    ),
    # A scene's combat panel, and time passing for everyone in a scene.
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/time/",
        views_combat.scene_time,
        name="scene_time",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/",
        views_combat.combat,
        name="combat",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/start/",
        views_combat.combat_start,
        name="combat_start",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/",
        views_combat.combat_detail,
        name="combat_detail",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/fighters/",
        views_combat.combat_add,
        name="combat_add",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/fighters/"
        "<id:participant_id>/remove/",
        views_combat.combat_remove,
        name="combat_remove",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/fighters/"
        "<id:participant_id>/phase/",
        views_combat.combat_phase,
        name="combat_phase",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/initiative/",
        views_combat.combat_initiative,
        name="combat_initiative",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/next/",
        views_combat.combat_next,
        name="combat_next",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/attack/",
        views_combat.combat_attack,
        name="combat_attack",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/attacks/<id:attack_id>/apply/",
        views_combat.combat_apply,
        name="combat_apply",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/attacks/"
        "<id:attack_id>/discard/",
        views_combat.combat_discard,
        name="combat_discard",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/combat/<id:combat_id>/end/",
        views_combat.combat_end,
        name="combat_end",
    ),
    # Per-scene XP awards and the campaign's XP log (views in characters/views_xp.py).
    *views_xp.campaign_urlpatterns,
]
