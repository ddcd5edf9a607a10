from django.urls import path

from campaigns.views import campaign as views
from campaigns.views import chronicle as views_chronicle
from campaigns.views.moved import moved_to

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new/", views.campaign_create, name="create"),
    path("<int:campaign_id>/", views.campaign_detail, name="detail"),
    path("<int:campaign_id>/edit/", views.campaign_edit, name="edit"),
    path("<int:campaign_id>/invitations/", views.invitation_create, name="invitation_create"),
    path(
        "<int:campaign_id>/invitations/<int:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path(
        "<int:campaign_id>/members/<int:membership_id>/role/",
        views.member_change_role,
        name="member_role",
    ),
    path(
        "<int:campaign_id>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("join/<str:token>/", views.invitation_open, name="invitation"),
    # The chronicle: stories, scenes, diaries and GM notes.
    path("<int:campaign_id>/scenes/", views_chronicle.timeline, name="timeline"),
    path("<int:campaign_id>/scenes/new/", views_chronicle.scene_create, name="scene_create"),
    path("<int:campaign_id>/scenes/<int:scene_id>/", views_chronicle.scene_detail, name="scene"),
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/edit/",
        views_chronicle.scene_edit,
        name="scene_edit",
    ),
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/close/",
        views_chronicle.scene_close,
        name="scene_close",
    ),
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/reopen/",
        views_chronicle.scene_reopen,
        name="scene_reopen",
    ),
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/notes/",
        views_chronicle.scene_note_create,
        name="scene_note_create",
    ),
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/notes/<int:note_id>/",
        views_chronicle.scene_note_edit,
        name="scene_note_edit",
    ),
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/notes/<int:note_id>/delete/",
        views_chronicle.scene_note_delete,
        name="scene_note_delete",
    ),
    path("<int:campaign_id>/stories/new/", views_chronicle.story_create, name="story_create"),
    path(
        "<int:campaign_id>/stories/<int:story_id>/edit/",
        views_chronicle.story_edit,
        name="story_edit",
    ),
    # Moved to the app that owns them; the old addresses still lead there.
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/diary/<int:character_id>/",
        moved_to("characters:diary"),
        name="diary",
    ),
    path(
        "<int:campaign_id>/scenes/<int:scene_id>/xp/",
        moved_to("characters:scene_xp"),
        name="scene_xp",
    ),
    path("<int:campaign_id>/xp/", moved_to("characters:xp_log"), name="xp_log"),
]
