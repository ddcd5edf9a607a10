from django.urls import path

from campaigns import views

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
]
