from django.urls import path

from campaigns.views import campaign as views
from campaigns.views import chronicle as views_chronicle
from campaigns.views import members as views_members
from campaigns.views.moved import moved_to

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new/", views.campaign_create, name="create"),
    path("<id:campaign_id>/", views.campaign_detail, name="detail"),
    path("<id:campaign_id>/edit/", views.campaign_edit, name="edit"),
    path("<id:campaign_id>/image/<slug:size>/", views.campaign_image, name="image"),
    path(
        "<id:campaign_id>/history-checkpoint/",
        views.history_checkpoint,
        name="history_checkpoint",
    ),
    path("<id:campaign_id>/invitations/", views.invitation_create, name="invitation_create"),
    path(
        "<id:campaign_id>/invitations/<id:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("<id:campaign_id>/members/", views.members_manage, name="members"),
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
    path(
        "<id:campaign_id>/members/<id:membership_id>/reset-link/",
        views_members.member_reset_link,
        name="member_reset_link",
    ),
    path("join/<str:token>/", views.invitation_open, name="invitation"),
    # The chronicle: stories, scenes, diaries and GM notes.
    path("<id:campaign_id>/scenes/", views_chronicle.timeline, name="timeline"),
    path("<id:campaign_id>/scenes/new/", views_chronicle.scene_create, name="scene_create"),
    path("<id:campaign_id>/sessions/end/", views_chronicle.session_end, name="session_end"),
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
    # Moved to the app that owns them; the old addresses still lead there.
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/diary/<id:character_id>/",
        moved_to("characters:diary"),
        name="diary",
    ),
    path(
        "<id:campaign_id>/scenes/<id:scene_id>/xp/",
        moved_to("characters:scene_xp"),
        name="scene_xp",
    ),
    path("<id:campaign_id>/xp/", moved_to("characters:xp_log"), name="xp_log"),
]
