"""Dado objetivo: the specialization box follows the scene chosen in the roll panel. Used in
one open scene, it is drawn greyed out there and free in another; choosing the scene in the
panel reloads the whole panel with the choices (the odds alone would leave the box as it
was) (docs/rules.md#objetivo-specialization)."""

import pytest

from campaigns.models import Scene
from characters.models import Character
from mechanics.models import Roll
from tests.factories import MembershipFactory, UserFactory, campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

PUNCH = {"kind": "skill", "attribute": "fuerza", "skill": "pelea", "difficulty": "15"}


@pytest.fixture
def pepa(gm, player):
    """Bob plays Pepa, specialised in Pelea, in two open scenes."""
    campaign = campaign_with("objetivo", gm, players=[player])
    character = make_character(
        campaign, player, name="Pepa", ratings={"fuerza": 5, "pelea": 3, "resistencia": 8}
    )
    Character.objects.filter(pk=character.pk).update(details={"specialization": "pelea"})
    for title in ("El camino", "La taberna"):
        Scene.objects.create(campaign=campaign, title=title).participants.add(character)
    return character


def scenes(character):
    return {s.title: s for s in Scene.objects.filter(campaign=character.campaign)}


def panel(client, character, **query):
    response = client.get(roll_url(character), {**PUNCH, **query}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return parse(response.text)


@pytest.mark.parametrize("who", ["player", "gm"])
def test_the_box_is_drawn_for_the_scene_chosen(client, pepa, request, who):
    client.force_login(request.getfixturevalue(who))
    tavern, road = scenes(pepa)["La taberna"], scenes(pepa)["El camino"]
    client.post(roll_url(pepa), {**PUNCH, "scene": tavern.pk, "specialization": "on"})
    assert Roll.objects.get().scene == tavern
    box = panel(client, pepa, scene=tavern.pk).one("input", name="specialization")
    assert "disabled" in box.attrs
    box = panel(client, pepa, scene=road.pk).one("input", name="specialization")
    assert "disabled" not in box.attrs


@pytest.mark.parametrize("who", ["player", "gm"])
def test_choosing_the_scene_reloads_the_panel(client, pepa, request, who):
    client.force_login(request.getfixturevalue(who))
    page = panel(client, pepa)
    select = page.one("select", name="scene")
    section = page.one("section", id=f"roll-panel-{pepa.pk}")
    triggers = [t.strip() for t in section.attrs["hx-trigger"].split(",")]
    assert f"change from:#{select.attrs['id']}" in triggers
    assert section.attrs["hx-include"] == "find form"


def test_a_system_whose_set_up_ignores_the_scene_keeps_the_odds_only(client, gm, player):
    campaign = campaign_with("tinieblas", gm, players=[player])
    character = make_character(campaign, player, name="Lucía")
    Scene.objects.create(campaign=campaign, title="La noche").participants.add(character)
    client.force_login(player)
    response = client.get(roll_url(character), HTTP_HX_REQUEST="true")
    section = parse(response.text).one("section", id=f"roll-panel-{character.pk}")
    assert section.attrs["hx-trigger"] == "cronica:health from:body"


def test_another_player_and_a_stranger_get_no_panel(client, pepa, stranger):
    other = UserFactory(username="dora")
    MembershipFactory(campaign=pepa.campaign, user=other, role="player")
    client.force_login(other)
    assert client.get(roll_url(pepa), PUNCH).status_code == 403
    client.force_login(stranger)
    assert client.get(roll_url(pepa), PUNCH).status_code == 404
