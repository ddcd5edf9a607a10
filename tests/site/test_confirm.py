"""Destructive actions ask first: without JavaScript the server shows the question, and
nothing changes until the form comes back with confirmed=1."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters.models import Aspect, Item, Merit, Specialty
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, make_character

pytestmark = pytest.mark.django_db

CONFIRMED = {"confirmed": "1"}


def member_remove_url(campaign, membership):
    return reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])


def asks(response, question: str) -> bool:
    return (
        response.status_code == 200
        and question in response.text
        and 'name="confirmed" value="1"' in response.text
    )


def test_expelling_a_member_asks_first(client, campaign, gm, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(gm)
    response = client.post(member_remove_url(campaign, membership))
    assert asks(response, f"¿Expulsar a bob de {campaign.name}?")
    assert Membership.objects.filter(pk=membership.pk).exists()
    client.post(member_remove_url(campaign, membership), CONFIRMED)
    assert not Membership.objects.filter(pk=membership.pk).exists()


def test_leaving_a_campaign_asks_first(client, campaign, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(player)
    response = client.post(member_remove_url(campaign, membership))
    assert asks(response, f"¿Dejar {campaign.name}?")
    assert f'href="{campaign.get_absolute_url()}#members"' in response.text  # cancel
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_revoking_an_invitation_asks_first(client, campaign, gm):
    invitation = InvitationFactory(campaign=campaign)
    url = reverse("campaigns:invitation_revoke", args=[campaign.pk, invitation.pk])
    client.force_login(gm)
    assert asks(client.post(url), "¿Revocar este enlace de invitación?")
    invitation.refresh_from_db()
    assert invitation.revoked_at is None
    client.post(url, CONFIRMED)
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None


def test_who_may_not_act_is_refused_before_being_asked(client, campaign, player, stranger):
    gm_membership = Membership.objects.get(campaign=campaign, role="gm")
    client.force_login(player)
    assert client.post(member_remove_url(campaign, gm_membership)).status_code == 403
    client.force_login(stranger)
    assert client.post(member_remove_url(campaign, gm_membership)).status_code == 404


def sheet_with(system, gm, player, make_row):
    campaign = CampaignFactory(system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(campaign, player, name="Irene")
    return character, make_row(character)


ROWS = [
    (
        "hitos",
        "aspect_remove",
        lambda c: Aspect.objects.create(character=c, kind="temporal", text="Empapada"),
    ),
    (
        "tinieblas",
        "specialty_remove",
        lambda c: Specialty.objects.create(character=c, skill_key="ciencia", name="Química"),
    ),
    (
        "tinieblas",
        "merit_remove",
        lambda c: Merit.objects.create(character=c, name="Aliados", rating=2),
    ),
    ("ndp", "item_remove", lambda c: Item.objects.create(character=c, name="Cuerda")),
]


@pytest.mark.parametrize(("system", "view", "make_row"), ROWS)
def test_removing_a_row_of_the_sheet_asks_first(client, gm, player, system, view, make_row):
    character, row = sheet_with(system, gm, player, make_row)
    url = reverse(f"characters:{view}", args=[character.campaign_id, character.pk, row.pk])
    client.force_login(gm)
    response = client.post(url)
    name = getattr(row, "name", "") or row.text
    assert asks(response, f"¿Quitar {name} de la ficha de Irene?")
    assert type(row).objects.filter(pk=row.pk).exists()
    # htmx that skipped the dialog gets the question as the whole page.
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert response["HX-Retarget"] == "body"
    assert type(row).objects.filter(pk=row.pk).exists()
    client.post(url, CONFIRMED)
    assert not type(row).objects.filter(pk=row.pk).exists()


@pytest.mark.parametrize(("system", "view", "make_row"), ROWS)
def test_a_player_cannot_remove_rows_of_their_sheet(client, gm, player, system, view, make_row):
    character, row = sheet_with(system, gm, player, make_row)
    url = reverse(f"characters:{view}", args=[character.campaign_id, character.pk, row.pk])
    client.force_login(player)
    assert client.post(url, CONFIRMED).status_code == 403
    assert type(row).objects.filter(pk=row.pk).exists()


def test_the_sheet_and_campaign_forms_carry_the_question_for_the_dialog(client, campaign, gm):
    InvitationFactory(campaign=campaign)
    client.force_login(gm)
    page = client.get(campaign.get_absolute_url()).text
    members = client.get(reverse("campaigns:members", args=[campaign.pk])).text
    assert 'data-confirm="¿Expulsar a bob de' in members
    assert 'data-confirm="¿Revocar este enlace de invitación?' in page
    assert 'data-confirm="¿Dejar ' in page
    assert '<dialog class="confirm-dialog" id="confirm-dialog"' in page
