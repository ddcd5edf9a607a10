"""A character who cannot act (unconscious, dead) has a roll panel that says so once, in
its alert, in every system: not again as an error of the set-up; and no line offers a
wound penalty to the rolls such a character cannot make."""

import pytest
from django.urls import reverse

from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

# Enough damage, in each system, to leave the character unable to act.
FELLED = {
    "tinieblas": DamageInput(9, "L"),
    "hitos": DamageInput(60),
    "ndp": DamageInput(60, "cortante", part="cabeza"),
    "objetivo": DamageInput(40),
}
OBJETIVO_RATINGS = {"fuerza": 5, "pelea": 3, "resistencia": 8}


def felled(system, gm, player, damage=None):
    campaign = campaign_with(system, gm, players=[player])
    ratings = OBJETIVO_RATINGS if system == "objetivo" else {}
    character = make_character(campaign, player, name="Carmen", ratings=ratings)
    character_apply_damage(character=character, user=gm, damage=damage or FELLED[system])
    return character


def sheet(client, character):
    return client.get(reverse("characters:sheet", args=[character.campaign_id, character.pk]))


@pytest.mark.parametrize("system", list(FELLED))
@pytest.mark.parametrize("who", ["gm", "player"])
def test_a_character_who_cannot_act_is_said_so_once_in_the_roll_panel(
    client, request, gm, player, system, who
):
    carmen = felled(system, gm, player)
    client.force_login(request.getfixturevalue(who))
    panel = client.get(roll_url(carmen), HTTP_HX_REQUEST="true").text
    assert panel.count("Carmen no puede actuar en este estado.") == 1
    # A roll sent anyway is refused, and still said once.
    data = {"kind": "skill", "attribute": "fuerza", "skill": "pelea"}
    answer = client.post(roll_url(carmen), data, HTTP_HX_REQUEST="true").text
    assert answer.count("Carmen no puede actuar en este estado.") == 1
    assert "disabled" in parse(answer).one("button", id=f"roll-submit-{carmen.pk}").attrs


@pytest.mark.parametrize("system", list(FELLED))
def test_no_wound_penalty_is_shown_for_a_character_who_cannot_act(client, gm, player, system):
    carmen = felled(system, gm, player)
    client.force_login(player)
    summary = parse(sheet(client, carmen).text).one("p", class_="health-summary").text()
    assert "·" not in summary
    panel = parse(client.get(roll_url(carmen), HTTP_HX_REQUEST="true").text)
    lines = panel.find_all("p", class_="roll-health")
    assert lines
    assert not [line.text() for line in lines if "·" in line.text()]


@pytest.mark.parametrize(("amount", "state"), [(40, "Muerto"), (16, "Inconsciente")])
def test_the_objetivo_state_of_the_dead_or_unconscious_has_no_lowered_die(
    client, gm, player, amount, state
):
    carmen = felled("objetivo", gm, player, DamageInput(amount))
    client.force_login(player)
    summary = parse(sheet(client, carmen).text).one("p", class_="health-summary").text()
    assert summary == state
    line = parse(client.get(roll_url(carmen), HTTP_HX_REQUEST="true").text)
    assert line.one("p", class_="roll-health").text() == f"Salud: {state}"


def test_an_incapacitado_still_reads_the_lowered_die(client, gm, player):
    carmen = felled("objetivo", gm, player, DamageInput(7))
    client.force_login(player)
    summary = parse(sheet(client, carmen).text).one("p", class_="health-summary").text()
    assert summary == "Incapacitado · dado objetivo un nivel por debajo"


def test_a_stranger_finds_neither_sheet_nor_panel(client, gm, player, stranger):
    carmen = felled("objetivo", gm, player)
    client.force_login(stranger)
    assert sheet(client, carmen).status_code == 404
    assert client.get(roll_url(carmen)).status_code == 404
