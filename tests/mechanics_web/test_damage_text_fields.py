"""The damage fields of 3d6 + NdP (roll panel attack, combat panel) and Dado objetivo
(«Other weapon» in the combat panel) read their text with one parser
(docs/rules.md#damage-text): each fault says what is wrong under the field, which keeps
what was typed, and a roll panel post too large for the engine is a message, not a 500."""

import pytest
from django.utils import translation

from campaigns import services
from mechanics.forms.combat import AttackForm
from mechanics.models import Roll
from mechanics.services import combat as combat_services
from mechanics.setup import load_sheet
from mechanics.systems.registry import get_system
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

NDP_CASES = [
    ("999d6", "Como mucho 20 dados de daño."),
    ("21d6", "Como mucho 20 dados de daño."),
    ("1d101", "Los dados de daño tienen como mucho 100 caras."),
    ("1d6+201", "El bono de daño es como mucho +200."),
    ("1d6-1", "El bono de daño no puede ser negativo."),
    ("1d6 2", "Pon + o − entre los dados y el bono, por ejemplo 1d6+2."),
    ("0d6", "Tira al menos un dado de daño."),
    ("1d0", "Un dado de 0 caras no tira nada: escribe sus caras, por ejemplo 1d6."),
    ("tres", "Escribe el daño como dados y un bono, por ejemplo 1d8, 2d6+1 o 3."),
]
ATTACK = {"kind": "attack", "skill": "combate_c_a_c", "dice": "3", "damage_type": "cortante"}


@pytest.fixture
def ndp_table(gm, player):
    campaign = campaign_with("ndp", gm, players=[player])
    hero = make_character(campaign, player, name="Aldara", ratings={"combate_c_a_c": 4})
    foe = make_character(campaign, None, user=gm, name="Bandido", ratings={"esquivar": 1})
    return campaign, hero, foe


def fight(campaign, gm, *fighters):
    scene = services.scene_create(campaign=campaign, title="Camino", participants=list(fighters))
    return combat_services.combat_start(scene=scene, user=gm)


def attack_form(system, campaign, attacker, target, data):
    sheet = load_sheet(attacker, campaign)
    rules = get_system(system).combat
    return AttackForm(
        {"attacker": attacker.pk, "target": target.pk, **data},
        rules=rules,
        fighters=[attacker, target],
        sheet=sheet,
    )


def assert_kept_with(form, typed, expected):
    with translation.override("es"):
        assert not form.is_valid()
        assert form.errors["damage"] == [expected]
        field = parse(str(form["damage"])).one(id="id_damage")
    assert field.attrs["value"] == typed


@pytest.mark.parametrize(("typed", "expected"), NDP_CASES)
def test_ndp_roll_panel_damage_says_what_is_wrong_and_keeps_the_text(ndp_table, typed, expected):
    campaign, hero, _foe = ndp_table
    sheet = load_sheet(hero, campaign)
    form = sheet.system.roll_form({**ATTACK, "damage": typed}, sheet=sheet)
    assert_kept_with(form, typed, expected)


@pytest.mark.parametrize(("typed", "read"), [("2d6+1", (2, 6, 1)), ("3", (0, 0, 3))])
def test_ndp_roll_panel_damage_reads_good_forms(ndp_table, typed, read):
    campaign, hero, _foe = ndp_table
    sheet = load_sheet(hero, campaign)
    form = sheet.system.roll_form({**ATTACK, "damage": typed}, sheet=sheet)
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    assert (data["damage_count"], data["damage_sides"], data["damage_fixed"]) == read


@pytest.mark.parametrize(("typed", "expected"), NDP_CASES)
def test_ndp_combat_damage_says_what_is_wrong_and_keeps_the_text(gm, ndp_table, typed, expected):
    campaign, hero, foe = ndp_table
    fight(campaign, gm, hero, foe)
    data = {
        "skill": "pelea",
        "dice": "3",
        "weapon": "",
        "damage": typed,
        "damage_type": "contundente",
        "limb": "brazo_derecho",
        "part": "torso",
        "defence": "esquivar",
    }
    assert_kept_with(attack_form("ndp", campaign, hero, foe, data), typed, expected)


TOO_LARGE = "«999d6» es demasiado grande: el daño de un arma es como mucho 20 dados."


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("999d6", TOO_LARGE),
        ("1d6 2", "Pon + o − entre los dados y el bono, por ejemplo 1d6+2."),
        ("0d6", "Tira al menos un dado de daño."),
        ("3", "El daño de un arma se tira con dados: escribe, por ejemplo, 1d10 o 2d6+1."),
    ],
)
def test_objetivo_combat_damage_says_what_is_wrong_and_keeps_the_text(gm, player, typed, expected):
    campaign = campaign_with("objetivo", gm, players=[player])
    fred = make_character(campaign, player, name="Fred", ratings={"fuerza": 5, "armas_cc": 6})
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    fight(campaign, gm, fred, foe)
    data = {"weapon": "custom", "damage": typed, "defensa": "10"}
    assert_kept_with(attack_form("objetivo", campaign, fred, foe, data), typed, expected)


# --- The roll panel, through its view ------------------------------------------------------


def field_errors(html: str) -> str:
    return " ".join(e.text() for e in parse(html).find_all(class_="invalid-feedback"))


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("typed", ["999d6", "50d6", "1d6 2"])
def test_ndp_damage_too_large_posted_to_the_roll_panel_is_a_message(
    client, request, ndp_table, who, typed
):
    _campaign, hero, _foe = ndp_table
    client.force_login(request.getfixturevalue(who))
    response = client.post(roll_url(hero), {**ATTACK, "damage": typed}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    expected = dict(NDP_CASES).get(typed, "Como mucho 20 dados de daño.")
    assert field_errors(response.text) == expected
    field = parse(response.text).one(id=f"roll{hero.pk}_damage")
    assert field.attrs["value"] == typed
    assert not Roll.objects.exists()


def test_a_stranger_finds_no_roll_panel(client, stranger, ndp_table):
    _campaign, hero, _foe = ndp_table
    client.force_login(stranger)
    response = client.post(roll_url(hero), {**ATTACK, "damage": "999d6"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 404
    assert not Roll.objects.exists()
