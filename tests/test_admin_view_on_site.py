"""The admin's "view on site" shortcut reveals nothing about other campaigns."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from campaigns.models import Campaign, Invitation
from characters.models import Character
from tests.factories import (
    CampaignFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
    make_character,
)
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_campaign(stranger):
    other = CampaignFactory(name="Campaña ajena", created_by=stranger)
    MembershipFactory(campaign=other, user=stranger, role="gm")
    return other


def shortcut(model, pk) -> str:
    content_type = ContentType.objects.get_for_model(model)
    return reverse("admin:view_on_site", args=[content_type.pk, pk])


def objects_of(campaign):
    return [
        (Campaign, campaign),
        (Character, make_character(campaign, name="Sombra")),
        (Invitation, InvitationFactory(campaign=campaign)),
    ]


def test_gm_views_on_site_the_objects_of_their_campaign(client, campaign, gm):
    client.force_login(gm)
    for model, obj in objects_of(campaign):
        response = client.get(shortcut(model, obj.pk))
        assert response.status_code == 302, model
        assert response["Location"] == obj.get_absolute_url()


def test_gm_gets_the_same_404_for_another_campaigns_object_as_for_none(
    client, campaign, gm, other_campaign
):
    client.force_login(gm)
    for model, obj in objects_of(other_campaign):
        hidden = client.get(shortcut(model, obj.pk))
        missing = client.get(shortcut(model, 10**9))
        assert hidden.status_code == missing.status_code == 404, model
        assert "Location" not in hidden
        # The site's 404 page, word for word, and no address of the other campaign.
        assert parse(hidden.text).one("main").text() == parse(missing.text).one("main").text()
        assert f"/campaigns/{other_campaign.pk}/" not in hidden.text


def test_an_invitation_token_of_another_campaign_is_not_revealed(
    client, campaign, gm, other_campaign
):
    invitation = InvitationFactory(campaign=other_campaign)
    client.force_login(gm)
    response = client.get(shortcut(Invitation, invitation.pk))
    assert invitation.token not in response.get("Location", "") + response.text


def test_superuser_views_on_site_any_object(client, other_campaign):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    response = client.get(shortcut(Campaign, other_campaign.pk))
    assert response["Location"] == other_campaign.get_absolute_url()


@pytest.mark.parametrize("role", ["player", "stranger"])
def test_who_may_not_use_the_admin_is_sent_to_its_login(client, request, campaign, role):
    client.force_login(request.getfixturevalue(role))
    response = client.get(shortcut(Campaign, campaign.pk))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.parametrize(
    ("content_type", "pk"),
    [("abc", "1"), ("1" * 26, "1"), ("999999", "1"), ("{ct}", "abc"), ("{ct}", "1" * 26)],
)
def test_a_garbled_shortcut_is_not_found(client, campaign, gm, content_type, pk):
    client.force_login(gm)
    ct = ContentType.objects.get_for_model(Campaign).pk
    url = f"/admin/r/{content_type.format(ct=ct)}/{pk}/"
    assert client.get(url).status_code == 404


def test_a_model_without_a_page_on_the_site_is_not_found(client, campaign, gm):
    client.force_login(gm)
    content_type = ContentType.objects.get_for_model(UserFactory._meta.model)
    assert client.get(f"/admin/r/{content_type.pk}/{gm.pk}/").status_code == 404
