"""Every roll card says what was rolled in one line: the pool or traits, the modifiers and
the difficulty, on the compact cards of the campaign page, the sheet and the scene too."""

import random

import pytest
from django.utils import translation

from campaigns import services as campaign_services
from mechanics import cards
from mechanics.rules.hitos.rolls import HitosSpec
from mechanics.rules.hitos.rolls import roll_check as hitos_check
from mechanics.rules.ndp.rolls import NdpSpec
from mechanics.rules.ndp.rolls import roll_check as ndp_check
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from mechanics.rules.objetivo.rolls import roll_check as objetivo_check
from mechanics.rules.tinieblas.rolls import PoolSpec, roll_extended, roll_pool
from mechanics.services.rolls import roll_store
from tests.factories import make_character
from tests.html import parse
from tests.mechanics.rolling import FixedDice

pytestmark = pytest.mark.django_db


def _stored(campaign, user, record, **traits):
    # The sheet's roll views store the traits' names beside the engine's details.
    record.details["traits"] = traits
    return roll_store(campaign=campaign, user=user, record=record)


def _setup_line(roll, *, compact=True) -> str:
    with translation.override("es"):
        return parse(cards.card(roll, compact=compact)).one("p", class_="roll-setup").text()


def test_a_tinieblas_card_shows_the_pool_and_every_step(campaign, gm):
    spec = PoolSpec(attribute=2, skill=3, skill_category="physical", modifiers=(-1,))
    roll = _stored(
        campaign, gm, roll_pool(spec, random.Random(1)), attribute="Fuerza", skill="Atletismo"
    )
    assert _setup_line(roll) == "Reserva de 4 dados: Fuerza +2 · Atletismo +3 · Modificador −1"


def test_a_hitos_card_shows_the_traits_the_bonus_its_modifiers_and_the_difficulty(campaign, gm):
    campaign.system = "hitos"
    spec = HitosSpec(characteristic=3, skill=2, difficulty=15, modifier=1, wound_penalty=-1)
    record = hitos_check(spec, random.Random(3))
    # Stored skill first, as PostgreSQL's jsonb gives the keys back: the line still reads
    # in the roll's order.
    roll = _stored(campaign, gm, record, skill="Forma física", characteristic="Fortaleza")
    assert _setup_line(roll) == (
        "Fortaleza + Forma física · +5 (modificador +1, heridas −1) · Dificultad 15"
    )


def test_an_ndp_card_shows_the_skill_the_dice_the_gracias_and_the_adversity(campaign, gm):
    spec = NdpSpec(level=4, gracias=1, desgracias=2, adversity=12, skill="percibir")
    roll = _stored(campaign, gm, ndp_check(spec, random.Random(2)), skill="Percibir")
    assert _setup_line(roll) == (
        "Percibir · 3d6 + NdP 4 · 1 Gracia · 2 Desgracias · Hacía falta 13 o más (Intermedia)"
    )


def test_an_ndp_card_names_no_band_below_facils_4_even_for_a_roll_stored_with_one(campaign, gm):
    spec = NdpSpec(level=2, adversity=3, skill="auxiliar")
    roll = _stored(campaign, gm, ndp_check(spec, random.Random(2)), skill="Auxiliar")
    assert _setup_line(roll) == "Auxiliar · 3d6 + NdP 2 · Hacía falta 4 o más"
    # Rolls stored while an adversity under 4 was called Fácil.
    record = ndp_check(spec, random.Random(2))
    record.details["adversity_name"] = "Fácil"
    roll = _stored(campaign, gm, record, skill="Auxiliar")
    assert _setup_line(roll) == "Auxiliar · 3d6 + NdP 2 · Hacía falta 4 o más"
    spec = NdpSpec(level=2, adversity=4, skill="auxiliar")
    roll = _stored(campaign, gm, ndp_check(spec, random.Random(2)), skill="Auxiliar")
    assert _setup_line(roll) == "Auxiliar · 3d6 + NdP 2 · Hacía falta 5 o más (Fácil)"


def test_an_objetivo_card_shows_the_traits_the_bonus_and_the_difficulty(campaign, gm):
    spec = ObjetivoSpec(bonus=11, difficulty=12)
    record = objetivo_check(spec, random.Random(5))
    roll = _stored(campaign, gm, record, attribute="Destreza", skill="Armas Dist")
    assert _setup_line(roll) == "Destreza + Armas Dist · +11 · Dificultad 12"


def test_the_full_card_of_the_roll_log_shows_the_same_line(campaign, gm):
    record = objetivo_check(ObjetivoSpec(bonus=6), random.Random(5))
    roll = _stored(campaign, gm, record, attribute="Fuerza", skill="Armas CC")
    assert _setup_line(roll, compact=False) == "Fuerza + Armas CC · +6"


def test_a_roll_without_a_difficulty_says_so_rather_than_rolled(campaign, gm):
    roll = _stored(campaign, gm, ndp_check(NdpSpec(level=2), random.Random(2)), skill="Alerta")
    with translation.override("es"):
        outcome = parse(cards.card(roll, compact=True)).one("span", class_="roll-outcome")
    assert outcome.text() == "Sin Adversidad fijada"


@pytest.fixture
def scene_roll(campaign, player):
    lucia = make_character(campaign, player, name="Lucía")
    scene = campaign_services.scene_create(
        campaign=campaign, title="La cripta", participants=[lucia]
    )
    spec = PoolSpec(attribute=3, skill=2, skill_category="physical")
    record = roll_pool(spec, random.Random(4))
    record.details["traits"] = {"attribute": "Destreza", "skill": "Sigilo"}
    roll = roll_store(campaign=campaign, user=player, record=record, character=lucia, scene=scene)
    return lucia, scene, roll


def _pages(lucia, scene):
    return [lucia.campaign.get_absolute_url(), lucia.get_absolute_url(), scene.get_absolute_url()]


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_campaign_page_the_sheet_and_the_scene_show_what_was_rolled(
    client, request, who, scene_roll
):
    lucia, scene, roll = scene_roll
    client.force_login(request.getfixturevalue(who))
    for url in _pages(lucia, scene):
        page = parse(client.get(url, HTTP_ACCEPT_LANGUAGE="es").content)
        card = page.find_all("article", data_roll=str(roll.pk))
        assert card, url
        line = card[0].one("p", class_="roll-setup").text()
        assert line == "Reserva de 5 dados: Destreza +3 · Sigilo +2", url


def test_a_stranger_sees_none_of_those_pages(client, stranger, scene_roll):
    lucia, scene, _roll = scene_roll
    client.force_login(stranger)
    assert [client.get(url).status_code for url in _pages(lucia, scene)] == [404, 404, 404]


@pytest.mark.parametrize("compact", [True, False])
def test_an_extended_rolls_card_says_where_the_action_stands(campaign, gm, compact):
    """On the compact cards of a scene and the feed too, not only in the roll log."""
    spec = PoolSpec(attribute=3, skill=3, skill_category="mental")
    record = roll_extended(
        spec, target=5, progress=4, rolls_made=2, max_rolls=3, rng=FixedDice([8, 1, 1, 1, 1, 1])
    )
    roll = _stored(campaign, gm, record, attribute="Inteligencia", skill="Investigación")
    with translation.override("es"):
        card = parse(cards.card(roll, compact=compact))
    effects = [item.text() for item in card.find_all("li", class_="roll-effect")]
    assert effects == ["Progreso: 5 de 5 éxitos", "La acción extendida tiene éxito."]
