"""A GM makes a one-time link for a member without an email address to choose a password."""

import re

import pytest
from django.urls import reverse

from campaigns.models import Membership
from tests.factories import PASSWORD, CampaignFactory, MembershipFactory, UserFactory
from tests.html import parse

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "faro-de-finisterre-77"


def link_url(campaign, user):
    membership = Membership.objects.get(campaign=campaign, user=user)
    return reverse("campaigns:member_reset_link", args=[campaign.pk, membership.pk])


def shown_link(response) -> str:
    found = parse(response.text).find_all("div", data_reset_link=True)
    assert len(found) == 1
    return re.fullmatch(r"https?://[^/]+(/\S+)", found[0].text()).group(1)


def choose_password(client, link: str):
    form_page = client.get(link, follow=True)
    assert 'name="new_password1"' in form_page.text
    return client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )


def test_the_gm_makes_a_link_that_lets_the_player_choose_a_password_once(
    client, campaign, gm, player
):
    client.force_login(gm)
    response = client.post(link_url(campaign, player))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert "Un enlace para que bob elija una contraseña nueva" in response.text
    link = shown_link(response)

    client.logout()
    assert choose_password(client, link)["Location"] == reverse("password_reset_complete")
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    again = client.get(link, follow=True)
    assert "Este enlace ya no sirve" in again.text


def test_the_members_list_offers_the_link_to_the_gm_for_members_without_email(
    client, campaign, gm, player
):
    client.force_login(gm)
    page = parse(client.get(reverse("campaigns:members", args=[campaign.pk])).text)
    actions = [form.attrs.get("action") for form in page.find_all("form")]
    assert link_url(campaign, player) in actions
    assert link_url(campaign, gm) not in actions


def test_a_player_cannot_make_a_link_and_is_not_offered_one(client, campaign, player, observer):
    client.force_login(player)
    assert client.post(link_url(campaign, observer)).status_code == 403
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert "reset-link" not in page
    observer.refresh_from_db()
    assert observer.check_password(PASSWORD)


def test_a_stranger_gets_404(client, campaign, stranger, player):
    client.force_login(stranger)
    assert client.post(link_url(campaign, player)).status_code == 404


def test_a_link_is_made_only_by_post(client, campaign, gm, player):
    client.force_login(gm)
    assert client.get(link_url(campaign, player)).status_code == 405


@pytest.mark.parametrize(
    "case", ["has_email", "is_gm_elsewhere", "plays_elsewhere", "is_staff", "is_self"]
)
def test_the_gm_is_refused_a_link_for_an_account_beyond_their_campaigns(
    client, campaign, gm, player, case
):
    target = gm if case == "is_self" else player
    if case == "has_email":
        player.email = "bob@example.org"
        player.save()
    elif case == "is_staff":
        player.is_staff = True
        player.save()
    elif case in ("is_gm_elsewhere", "plays_elsewhere"):
        other = CampaignFactory(created_by=UserFactory(username="dario"))
        role = "gm" if case == "is_gm_elsewhere" else "player"
        MembershipFactory(campaign=other, user=player, role=role)
    client.force_login(gm)
    response = client.post(link_url(campaign, target), follow=True)
    assert response.status_code == 200
    assert "solo para un jugador u observador sin dirección de correo" in response.text
    assert "data-reset-link" not in response.text


def test_a_player_in_two_campaigns_of_the_same_gm_gets_a_link(client, campaign, gm, player):
    other = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=other, user=gm, role="gm")
    MembershipFactory(campaign=other, user=player, role="observer")
    client.force_login(gm)
    assert client.post(link_url(campaign, player)).status_code == 200


def test_the_link_stops_working_once_the_player_logs_in(client, campaign, gm, player):
    client.force_login(gm)
    link = shown_link(client.post(link_url(campaign, player)))
    client.logout()
    client.force_login(player)  # last_login changes
    client.logout()
    assert "Este enlace ya no sirve" in client.get(link, follow=True).text
