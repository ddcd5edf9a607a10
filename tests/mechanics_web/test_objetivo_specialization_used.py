"""Dado objetivo: a specialization already used in the scene is drawn greyed out, its help
saying so, as Tinieblas draws Willpower at 0; a forged use is still refused
(docs/rules.md#objetivo-specialization)."""

import pytest

from campaigns.models import Scene
from characters.models import Character
from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

PUNCH = {"kind": "skill", "attribute": "fuerza", "skill": "pelea", "difficulty": "15"}


@pytest.fixture
def pepa(gm, player):
    """Bob plays Pepa, specialised in Pelea, in an open scene."""
    campaign = campaign_with("objetivo", gm, players=[player])
    character = make_character(
        campaign, player, name="Pepa", ratings={"fuerza": 5, "pelea": 3, "resistencia": 8}
    )
    Character.objects.filter(pk=character.pk).update(details={"specialization": "pelea"})
    Scene.objects.create(campaign=campaign, title="La taberna").participants.add(character)
    return character


def box(client, character):
    response = client.get(roll_url(character), PUNCH, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = parse(response.text)
    return page.one("input", name="specialization"), page


@pytest.mark.parametrize("who", ["player", "gm"])
def test_the_specialization_used_in_the_scene_is_drawn_disabled_with_why(
    client, pepa, request, who
):
    client.force_login(request.getfixturevalue(who))
    fresh, page = box(client, pepa)
    assert "disabled" not in fresh.attrs
    assert "Una vez por escena." in page.text()
    client.post(roll_url(pepa), {**PUNCH, "specialization": "on"})
    assert Roll.objects.get().record["spec"]["specialization"]
    used, page = box(client, pepa)
    assert "disabled" in used.attrs
    assert "Ya se ha usado en esta escena." in page.text()
    client.cookies["django_language"] = "en"
    assert "Already used in this scene." in box(client, pepa)[1].text()


def test_a_forged_second_use_in_the_scene_is_still_refused(client, player, pepa):
    client.force_login(player)
    client.post(roll_url(pepa), {**PUNCH, "specialization": "on"})
    response = client.post(roll_url(pepa), {**PUNCH, "specialization": "on"})
    assert "Ya se ha usado en esta escena." in response.text
    assert Roll.objects.count() == 1


def test_a_stranger_finds_no_panel(client, stranger, pepa):
    client.force_login(stranger)
    assert client.get(roll_url(pepa)).status_code == 404
