"""A Hitos attack is "una acción normal usando siempre Reflejos más combate": choosing the
attack in the roll panel rolls Reflejos + Combate whatever the check's characteristic and
skill were, and a set-up sent with another pair is rolled with Reflejos + Combate all the
same, in the roll panel and in the GM's combat panel (docs/rules.md#hitos-attack-traits)."""

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.models import CombatAttack, Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Fortaleza 5 + Forma física 1 = 6 (the check's first choices); Reflejos 3 + Combate 4 = 7.
RATINGS = {"fortaleza": 5, "forma_fisica": 1, "reflejos": 3, "combate": 4}


@pytest.fixture
def table(gm, player):
    campaign = campaign_with("hitos", gm, players=[player])
    hero = make_character(campaign, player, name="Héroe", ratings=RATINGS)
    foe = make_character(campaign, None, user=gm, name="Sicario", ratings={"reflejos": 1})
    return campaign, hero, foe


def selected(panel, name: str) -> str:
    [option] = panel.one("select", name=name).find_all("option", selected=True)
    return option.attrs["value"]


def attack(**extra) -> dict:
    data = {
        "kind": "attack",
        "difficulty": "15",
        "modifier": "0",
        "weapon": "central",
        "attack_range": "melee",
        "target_state": "normal",
        **extra,
    }
    return {key: value for key, value in data.items() if value is not None}


def test_choosing_the_attack_in_the_roll_panel_rolls_reflejos_and_combate_by_default(
    client, player, table
):
    _campaign, hero, _foe = table
    client.force_login(player)
    panel = parse(client.get(roll_url(hero)).text)
    # The check's own defaults, which the panel still sends when the attack is chosen.
    check = {name: selected(panel, name) for name in ("characteristic", "skill")}
    assert check == {"characteristic": "fortaleza", "skill": "forma_fisica"}
    # They are the check's: an attack hides them (static/css/dice.css, `.for-kind`).
    check_only = panel.find_all("div", class_="k-check")
    for name in check:
        assert [cell for cell in check_only if cell.find_all("select", name=name)]
    odds = parse(client.get(roll_url(hero), {**attack(**check), "part": "odds"}, **HTMX).text)
    assert odds.one("p", class_="roll-summary").text() == "C + 7 contra 15"
    assert odds.one("p", class_="roll-steps").text() == "Reflejos +3 · Combate +4"
    notes = [note.text() for note in odds.find_all("p", class_="roll-note")]
    assert "Un ataque se tira siempre con Reflejos + Combate." in notes


def test_a_simple_roll_keeps_the_characteristic_and_skill_chosen(client, player, table):
    _campaign, hero, _foe = table
    client.force_login(player)
    data = {"kind": "check", "characteristic": "fortaleza", "skill": "forma_fisica"}
    odds = parse(client.get(roll_url(hero), {**attack(**data), "part": "odds"}, **HTMX).text)
    assert odds.one("p", class_="roll-summary").text() == "C + 6 contra 15"


@pytest.mark.parametrize("language", ["es", "en"])
def test_an_attack_sent_with_another_characteristic_and_skill_rolls_reflejos_and_combate(
    client, player, table, fixed_dice, language
):
    _campaign, hero, _foe = table
    client.force_login(player)
    client.cookies["django_language"] = language
    fixed_dice(2, 5, 9)
    data = attack(characteristic="fortaleza", skill="forma_fisica")
    response = client.post(roll_url(hero), data, **HTMX)
    assert response.status_code == 200
    record = Roll.objects.get().record
    assert record["details"]["traits"] == {"characteristic": "Reflejos", "skill": "Combate"}
    # C 5 + Reflejos 3 + Combate 4.
    assert record["result"] == 12
    note = {
        "es": "Un ataque se tira siempre con Reflejos + Combate.",
        "en": "An attack always rolls Reflejos + Combate.",
    }[language]
    assert note in response.text


def test_the_combat_panel_attacks_with_reflejos_and_combate_and_asks_for_neither(
    client, gm, table, fixed_dice
):
    campaign, hero, foe = table
    scene = services.scene_create(campaign=campaign, title="Azotea", participants=[hero, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    address = reverse("mechanics:combat_detail", args=[campaign.pk, scene.pk, combat.pk])
    page = parse(client.get(address).text)
    assert page.one("select", name="weapon")
    assert not page.find_all("select", name="characteristic")
    assert not page.find_all("select", name="skill")
    fixed_dice(2, 5, 9)
    attack_url = reverse("mechanics:combat_attack", args=[campaign.pk, scene.pk, combat.pk])
    data = attack(attacker=hero.pk, target=foe.pk, characteristic="fortaleza")
    client.post(attack_url, data)
    record = CombatAttack.objects.get().roll.record
    assert record["details"]["traits"] == {"characteristic": "Reflejos", "skill": "Combate"}
    assert record["result"] == 12
