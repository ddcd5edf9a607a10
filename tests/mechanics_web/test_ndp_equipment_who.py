"""Equipment is the GM's (docs/rules.md#equipment-gm): the GM's sheet has the forms to add
it; a player's sheet says who adds it instead of showing nothing, and a player's forged
add is refused."""

import pytest
from django.urls import reverse

from characters.models import Item
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

NOTE = "El equipo lo añade el máster"


@pytest.fixture
def sigrid(gm, player, stranger):
    campaign = campaign_with("ndp", gm, players=[player])
    return make_character(campaign, player, name="Sigrid")


def equipment_section(client, character) -> str:
    return parse(client.get(character.get_absolute_url()).text).one(id="equipment").text()


def test_the_players_sheet_says_the_gm_adds_the_equipment(client, player, sigrid):
    client.force_login(player)
    section = equipment_section(client, sigrid)
    assert NOTE in section
    assert "Añadir un arma" not in section


def test_the_gm_has_the_equipment_forms_and_no_note(client, gm, sigrid):
    client.force_login(gm)
    section = equipment_section(client, sigrid)
    assert NOTE not in section
    assert "Añadir un arma" in section


def test_a_player_cannot_add_equipment_and_a_stranger_gets_404(client, player, stranger, sigrid):
    url = reverse("characters:item_add", args=[sigrid.campaign_id, sigrid.pk])
    data = {"kind": "item", "name": "Cuerda", "weight_kg": "1"}
    client.force_login(player)
    assert client.post(url, data).status_code == 403
    client.force_login(stranger)
    assert client.post(url, data).status_code == 404
    assert not Item.objects.filter(character=sigrid).exists()
