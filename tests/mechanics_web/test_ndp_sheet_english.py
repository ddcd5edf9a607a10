"""A 3d6 + NdP sheet read in English: its plain words (load, maximum, the equipment headings,
the damage form's body part, the history's "no wound") are English; the seed's game terms
(Prana, Desgracia, RD, the body parts' names) stay as the catalogues write them, and
weights are written the same way in both places that show them."""

import pytest
from django.utils import translation

from characters.services import item_add
from mechanics.models import HealthEvent
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

SPANISH_WORDS = (
    "Carga",
    "Prana máximo",
    "Gestos conocidos",
    "Divinidades (máx.)",
    "mitad de velocidad",
    "Parte del cuerpo",
    "Armadura",
    "Armas",
    "Escudos",
)


@pytest.fixture
def sigrid(gm, player, stranger):
    campaign = campaign_with("ndp", gm, players=[player])
    sigrid = make_character(campaign, player, name="Sigrid", ratings={"fortitud": 4})
    # 40 kg at most: 46.5 kg is 6.5 over, one full 5 kg, so half speed and 1 Desgracia.
    item_add(character=sigrid, user=gm, kind="item", name="Fardo", weight_kg="46.5")
    return sigrid


def sheet_text(client, character, language: str) -> str:
    client.cookies["django_language"] = language
    return parse(client.get(character.get_absolute_url()).text).text()


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_ndp_sheet_in_english_has_no_spanish_ui_words(client, sigrid, who, request):
    client.force_login(request.getfixturevalue(who))
    text = sheet_text(client, sigrid, "en")
    for words in ("Load", "Maximum Prana", "Gestures known (max.)", "Deities (max.)"):
        assert words in text
    for heading in ("Equipment", "Armour", "Weapons", "Shields", "Other equipment"):
        assert heading in text
    assert "half speed, 1 Desgracia" in text
    assert [w for w in SPANISH_WORDS if w in text] == []


def test_the_gms_damage_form_asks_for_the_body_part_in_english(client, gm, sigrid):
    client.force_login(gm)
    text = sheet_text(client, sigrid, "en")
    assert "Body part" in text
    assert "Parte del cuerpo" not in text


@pytest.mark.parametrize(("language", "load"), [("es", "46,50 / 40 kg"), ("en", "46.50 / 40 kg")])
def test_the_load_is_written_alike_in_the_derived_traits_and_the_equipment(
    client, player, sigrid, language, load
):
    client.force_login(player)
    text = sheet_text(client, sigrid, language)
    assert text.count(load) == 2


def test_a_blow_that_leaves_no_wound_reads_no_wound_in_english_where_it_is_kept(gm, sigrid):
    event = health_services.character_apply_damage(
        character=sigrid, user=gm, damage=DamageInput(0, "cortante", part="brazo_izquierdo")
    )
    event = HealthEvent.objects.get(pk=event.pk)
    with translation.override("en"):
        assert event.summary_text == "Brazo izquierdo: 0 → no wound"
    with translation.override("es"):
        assert event.summary_text == "Brazo izquierdo: 0 → sin herida"


def test_a_stranger_cannot_read_the_ndp_sheet(client, stranger, sigrid):
    client.force_login(stranger)
    assert client.get(sigrid.get_absolute_url()).status_code == 404
