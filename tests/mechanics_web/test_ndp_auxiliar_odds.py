"""3d6 + NdP Auxiliar: the treatment form shows the exact odds of the healer's roll before
it is rolled (RULES §5), and they follow the healer and the adversity chosen."""

import pytest
from django.urls import reverse

from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def campaign(gm, player):
    return campaign_with("ndp", gm, players=[player])


@pytest.fixture
def patient(campaign, player):
    return make_character(campaign, player, name="Aldo")


@pytest.fixture
def medic(campaign, gm):
    return make_character(campaign, None, name="Sanadora", user=gm, ratings={"auxiliar": 2})


def auxiliar_url(patient):
    return reverse("mechanics:health_auxiliar", args=[patient.campaign_id, patient.pk])


def choices(medic, adversity):
    return {"auxiliar-healer": medic.pk, "auxiliar-adversity": adversity}


def success(response) -> float:
    box = parse(response.content).one(id="health-auxiliar-odds")
    return float(box.one("div", class_="odds-success").one("data").attrs["value"])


def test_auxiliar_odds_follow_the_healer_and_the_adversity(client, gm, patient, medic):
    client.force_login(gm)
    url = f"{auxiliar_url(patient)}?part=odds"
    at_9 = client.get(url, choices(medic, 9), headers=HTMX)
    assert at_9.status_code == 200
    assert success(at_9) == pytest.approx(181 / 216)
    assert "3d6 + 2 contra 9" in parse(at_9.content).text()
    assert success(client.get(url, choices(medic, 15), headers=HTMX)) == pytest.approx(35 / 216)
    assert not Roll.objects.exists()


def test_auxiliar_form_shows_an_odds_box_before_a_healer_is_chosen(client, gm, patient):
    client.force_login(gm)
    response = client.get(auxiliar_url(patient), headers=HTMX)
    box = parse(response.content).one(id="health-auxiliar-odds")
    assert "Elige quién cura y la adversidad" in box.text()


def test_auxiliar_page_without_javascript_shows_the_odds_of_the_choices(client, gm, patient, medic):
    client.force_login(gm)
    response = client.get(auxiliar_url(patient), choices(medic, 9))
    assert response.status_code == 200
    assert success(response) == pytest.approx(181 / 216)


def test_player_may_not_see_auxiliar_odds_when_players_do_not_heal(client, player, patient, medic):
    client.force_login(player)
    url = f"{auxiliar_url(patient)}?part=odds"
    assert client.get(url, choices(medic, 9), headers=HTMX).status_code == 403


def test_stranger_does_not_find_the_auxiliar_odds(client, stranger, patient, medic):
    client.force_login(stranger)
    url = f"{auxiliar_url(patient)}?part=odds"
    assert client.get(url, choices(medic, 9), headers=HTMX).status_code == 404
