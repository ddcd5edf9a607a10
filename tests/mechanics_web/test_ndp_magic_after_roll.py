"""After a 3d6 + NdP magic roll the panel keeps the choices; what the roll spent may leave
too little for the same roll again. That is said as a note, never as an error for the roll
just made, and a roll sent anyway is still refused with the reason (docs/rules.md#ndp-magic)."""

import pytest
from django.urls import reverse

from characters.models import Item, Resource
from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

# Poder 9 costs 9 of the 10 Prana of Vitalidad 1: after a success 1 is left.
BIG_SPELL = {"kind": "arcane", "dice": "3", "gesture_poder": "9"}
PRAYER = {"kind": "divine", "deity": "sol_invicto", "faith": "3", "divine_target": "5"}
NO_PRANA = "Sigrid tiene 1 de Prana; esto necesita 9."


@pytest.fixture
def sigrid(gm, player, stranger):
    campaign = campaign_with("ndp", gm, players=[player])
    return make_character(
        campaign,
        player,
        name="Sigrid",
        ratings={"voluntad": 2, "arcano": 2, "vitalidad": 1, "religion": 1},
    )


def pool(character, key="prana") -> int:
    return Resource.objects.get(character=character, key=key).current


def alerts(html: str) -> list[str]:
    return [e.text() for e in parse(html).find_all(class_="alert-danger")]


def worship_with_faith(client, character, faith: int) -> None:
    url = reverse("ndp:deity_add", args=[character.campaign_id, character.pk])
    client.post(url, {"name": "Sol Invicto"}, HTTP_HX_REQUEST="true")
    Resource.objects.filter(character=character, key="fe_sol_invicto").update(current=faith)


@pytest.mark.parametrize("who", ["gm", "player"])
def test_no_error_greets_the_caster_after_a_spell_that_spent_her_prana(
    client, sigrid, fixed_dice, who, request
):
    client.force_login(request.getfixturevalue(who))
    fixed_dice(6)  # 18 + 2 > 9
    response = client.post(roll_url(sigrid), BIG_SPELL, HTTP_HX_REQUEST="true")
    assert pool(sigrid) == 1
    assert "Éxito" in response.text
    assert alerts(response.text) == []
    note = parse(response.text).one(id=f"roll-again-{sigrid.pk}")
    assert note.text() == NO_PRANA


def test_no_error_greets_the_caster_after_a_spell_without_javascript(
    client, player, sigrid, fixed_dice
):
    client.force_login(player)
    fixed_dice(6)
    response = client.post(roll_url(sigrid), BIG_SPELL, follow=True)
    assert response.redirect_chain[0][1] == 302
    assert "Éxito" in response.text
    assert alerts(response.text) == []
    assert NO_PRANA in parse(response.text).one(id=f"roll-again-{sigrid.pk}").text()


def test_no_error_greets_the_worshipper_after_a_prayer_that_spent_her_faith(
    client, player, sigrid, fixed_dice
):
    client.force_login(player)
    worship_with_faith(client, sigrid, 4)
    fixed_dice(4, 3, 2)
    response = client.post(roll_url(sigrid), PRAYER, HTTP_HX_REQUEST="true")
    assert pool(sigrid, "fe_sol_invicto") == 1
    assert alerts(response.text) == []
    note = parse(response.text).one(id=f"roll-again-{sigrid.pk}").text()
    assert "Sol Invicto: queda 1 punto de fe; esto necesita 3." in note


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_same_spell_again_without_the_prana_is_refused_with_the_reason(
    client, sigrid, fixed_dice, who, request
):
    client.force_login(request.getfixturevalue(who))
    fixed_dice(6)
    client.post(roll_url(sigrid), BIG_SPELL, HTTP_HX_REQUEST="true")
    response = client.post(roll_url(sigrid), BIG_SPELL, HTTP_HX_REQUEST="true")
    assert alerts(response.text) == [NO_PRANA]
    assert Roll.objects.filter(character=sigrid).count() == 1
    assert pool(sigrid) == 1


def test_a_stranger_cannot_cast_nor_see_the_panel_after_a_spell(client, stranger, sigrid):
    client.force_login(stranger)
    assert client.post(roll_url(sigrid), BIG_SPELL).status_code == 404
    assert client.get(roll_url(sigrid), {**BIG_SPELL, "result": "1"}).status_code == 404
    assert not Roll.objects.exists()


def test_the_panel_forgets_the_sacrificed_wounds_and_integrity_after_a_spell(
    client, player, sigrid, fixed_dice
):
    staff = Item.objects.create(character=sigrid, name="Bastón", data={"integrity": 4})
    client.force_login(player)
    fixed_dice(6)
    data = {**BIG_SPELL, "extra_wounds": "1", "extra_item": str(staff.pk), "extra_integrity": "4"}
    response = client.post(roll_url(sigrid), data, HTTP_HX_REQUEST="true")
    assert Item.objects.get(pk=staff.pk).data["integrity"] == 0
    form = parse(response.text)
    for name in ("extra_wounds", "extra_integrity"):
        assert form.one(id=f"roll{sigrid.pk}_{name}").attrs.get("value", "0") == "0"
    assert alerts(response.text) == []
