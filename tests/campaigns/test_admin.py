import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_campaign(stranger):
    other = CampaignFactory(name="Campaña ajena")
    MembershipFactory(campaign=other, user=stranger, role="gm")
    return other


def test_gm_sees_only_their_campaigns_in_the_admin(client, campaign, other_campaign, gm):
    client.force_login(gm)
    response = client.get(reverse("admin:campaigns_campaign_changelist"))
    assert response.status_code == 200
    assert campaign.name in response.text
    assert other_campaign.name not in response.text


def test_gm_cannot_open_another_campaign_in_the_admin(client, campaign, other_campaign, gm):
    client.force_login(gm)
    url = reverse("admin:campaigns_campaign_change", args=[other_campaign.pk])
    assert client.get(url).status_code in (302, 403, 404)
    response = client.post(url, {"name": "Robada", "system": "hitos", "description": ""})
    other_campaign.refresh_from_db()
    assert other_campaign.name == "Campaña ajena"
    assert response.status_code in (302, 403, 404)


def test_gm_edits_their_campaign_in_the_admin(client, campaign, gm):
    client.force_login(gm)
    url = reverse("admin:campaigns_campaign_change", args=[campaign.pk])
    assert client.get(url).status_code == 200
    memberships = list(campaign.memberships.all())
    data = {
        "name": "Renombrada",
        "description": "",
        "system": "tinieblas",
        "house_rules": "{}",
        "max_characters_per_player": "1",
        "memberships-TOTAL_FORMS": str(len(memberships)),
        "memberships-INITIAL_FORMS": str(len(memberships)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    for index, membership in enumerate(memberships):
        data[f"memberships-{index}-id"] = membership.pk
        data[f"memberships-{index}-campaign"] = campaign.pk
        data[f"memberships-{index}-user"] = membership.user_id
        data[f"memberships-{index}-role"] = membership.role
    response = client.post(url, data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.name == "Renombrada"


def test_gm_sees_only_memberships_and_invitations_of_their_campaigns(
    client, campaign, other_campaign, gm
):
    InvitationFactory(campaign=campaign)
    foreign_invitation = InvitationFactory(campaign=other_campaign)
    client.force_login(gm)
    memberships = client.get(reverse("admin:campaigns_membership_changelist"))
    assert "charlie" not in memberships.text
    assert "bob" in memberships.text
    invitations = client.get(reverse("admin:campaigns_invitation_changelist"))
    assert invitations.status_code == 200
    url = reverse("admin:campaigns_invitation_change", args=[foreign_invitation.pk])
    assert client.get(url).status_code in (302, 403, 404)


def test_gm_cannot_move_a_membership_into_another_campaign(
    client, campaign, other_campaign, gm, player
):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(gm)
    url = reverse("admin:campaigns_membership_change", args=[membership.pk])
    response = client.post(
        url, {"campaign": other_campaign.pk, "user": player.pk, "role": "player"}
    )
    membership.refresh_from_db()
    assert membership.campaign_id == campaign.pk
    assert response.status_code == 200  # the form refuses the campaign choice


def test_player_cannot_use_the_admin(client, campaign, player):
    client.force_login(player)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_stranger_cannot_use_the_admin(client, stranger):
    client.force_login(stranger)
    assert client.get(reverse("admin:campaigns_campaign_changelist")).status_code == 302


def test_gm_does_not_see_user_accounts(client, campaign, gm):
    client.force_login(gm)
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403


def test_superuser_sees_every_campaign(client, campaign, other_campaign):
    admin_user = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(admin_user)
    response = client.get(reverse("admin:campaigns_campaign_changelist"))
    assert campaign.name in response.text
    assert other_campaign.name in response.text
    assert Campaign.objects.count() == 2
