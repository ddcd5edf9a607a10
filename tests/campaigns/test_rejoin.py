"""A member a GM removed cannot come back through an invitation made before the removal."""

import pytest
from django.urls import reverse

from campaigns.models import Membership, Removal, Role
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitation(campaign):
    return InvitationFactory(campaign=campaign, role=Role.PLAYER)


@pytest.fixture
def other_campaign(gm, player):
    other = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=other, user=gm, role=Role.GM)
    MembershipFactory(campaign=other, user=player, role=Role.PLAYER)
    return other


def remove(client, campaign, remover, user):
    membership = Membership.objects.get(campaign=campaign, user=user)
    client.force_login(remover)
    url = reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])
    assert client.post(url, {"confirmed": "1"}).status_code == 302


def is_member(campaign, user) -> bool:
    return Membership.objects.filter(campaign=campaign, user=user).exists()


def test_a_removed_player_cannot_rejoin_through_a_link_made_before(
    client, campaign, gm, player, invitation
):
    remove(client, campaign, gm, player)
    client.force_login(player)
    page = client.get(invitation.get_absolute_url())
    assert page.status_code == 403
    assert "te ha quitado" in page.text
    assert "Unirse a la campaña" not in page.text
    response = client.post(invitation.get_absolute_url(), follow=True)
    assert "te ha quitado" in response.text
    assert not is_member(campaign, player)
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_the_refusal_is_in_english_too(client, campaign, gm, player, invitation):
    remove(client, campaign, gm, player)
    client.force_login(player)
    client.cookies.load({"django_language": "en"})
    assert "removed you from this campaign" in client.get(invitation.get_absolute_url()).text


def test_a_removed_player_rejoins_through_a_new_link(client, campaign, gm, player, invitation):
    remove(client, campaign, gm, player)
    fresh = InvitationFactory(campaign=campaign, role=Role.OBSERVER)
    client.force_login(player)
    assert client.get(fresh.get_absolute_url()).status_code == 200
    assert client.post(fresh.get_absolute_url()).status_code == 302
    assert Membership.objects.get(campaign=campaign, user=player).role == Role.OBSERVER


def test_a_removed_gm_cannot_rejoin_through_an_old_link(client, campaign, gm, player, invitation):
    Membership.objects.filter(campaign=campaign, user=player).update(role=Role.GM)
    remove(client, campaign, player, gm)
    client.force_login(gm)
    client.post(invitation.get_absolute_url())
    assert not is_member(campaign, gm)


def test_a_stranger_still_joins_through_the_same_link(
    client, campaign, gm, player, stranger, invitation
):
    remove(client, campaign, gm, player)
    client.force_login(stranger)
    assert client.post(invitation.get_absolute_url()).status_code == 302
    assert is_member(campaign, stranger)


def test_a_player_who_left_may_come_back_through_the_link(client, campaign, player, invitation):
    remove(client, campaign, player, player)
    assert not Removal.objects.exists()
    client.force_login(player)
    assert client.post(invitation.get_absolute_url()).status_code == 302
    assert is_member(campaign, player)


def test_a_removal_from_another_campaign_does_not_bar(
    client, campaign, gm, player, invitation, other_campaign
):
    remove(client, other_campaign, gm, player)
    client.force_login(player)
    Membership.objects.filter(campaign=campaign, user=player).delete()
    assert client.post(invitation.get_absolute_url()).status_code == 302
    assert is_member(campaign, player)


def test_the_removal_records_who_removed_whom(client, campaign, gm, player):
    remove(client, campaign, gm, player)
    removal = Removal.objects.get()
    assert (removal.campaign, removal.user, removal.removed_by) == (campaign, player, gm)


def test_a_member_removed_in_the_admin_cannot_rejoin_either(
    client, campaign, gm, player, invitation
):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(gm)
    url = reverse("admin:campaigns_membership_delete", args=[membership.pk])
    assert client.post(url, {"post": "yes"}).status_code == 302
    client.force_login(player)
    client.post(invitation.get_absolute_url())
    assert not is_member(campaign, player)
