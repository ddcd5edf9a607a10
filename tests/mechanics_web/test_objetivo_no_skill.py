"""Dado objetivo: "No skill" in a skill roll or an attack of the roll panel is the seed's
roll of a skill with no points in it, the lowest of the three dice
(docs/rules.md#objetivo-no-skill), not a choice the panel refuses."""

import pytest
from django.urls import reverse

from mechanics.models import Roll
from mechanics.rules.objetivo import odds as engine_odds
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import odds_values, roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

# Percepción 7 and no skill: a skill roll of a skill the campaign's list does not name.
NO_SKILL = {"kind": "skill", "attribute": "percepcion", "skill": "", "difficulty": "10"}


@pytest.fixture
def carmen(gm, player, observer, dora):
    """Bob plays Carmen; Dora plays too."""
    campaign = campaign_with("objetivo", gm, players=[player, dora], observers=[observer])
    return make_character(
        campaign, player, name="Carmen", ratings={"percepcion": 7, "fuerza": 5, "resistencia": 8}
    )


@pytest.mark.parametrize("who", ["player", "gm"])
def test_seed_example_1_a_skill_roll_with_no_skill_keeps_the_lowest_die(
    client, carmen, fixed_dice, request, who
):
    """Seed example 1: dice (4, 8, 3) keep 3 a level down, "como al no tener puntos en una
    habilidad": Percepción 7 + no skill + 3 = 10 against 10."""
    client.force_login(request.getfixturevalue(who))
    fixed_dice(4, 8, 3)
    response = client.post(roll_url(carmen), NO_SKILL, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Elige una habilidad." not in response.text
    record = Roll.objects.get().record
    assert record["kind"] == "skill"
    assert record["kept"] == [3]
    assert record["result"] == 10
    assert record["outcome"] == "success"
    assert record["details"]["level"] == -1
    assert record["spec"]["unskilled"] is True
    assert record["spec"]["attribute_roll"] is False
    assert record["spec"]["bonus"] == 7


def test_a_roll_with_no_skill_explodes_and_fails_on_a_natural_1_like_any_skill_roll(
    client, player, carmen, fixed_dice
):
    client.force_login(player)
    # (10, 10, 10) keeps 10 and explodes; then (9, 2, 5) keeps its lowest, 2: 7 + 10 + 2.
    fixed_dice(10, 10, 10, 9, 2, 5)
    client.post(roll_url(carmen), NO_SKILL)
    exploded = Roll.objects.get().record
    assert (exploded["kept"], exploded["result"]) == ([10, 2], 19)
    # An attribute roll would not fail on this 1 (7 + 1 = 8 ≥ 5); a skill roll does.
    fixed_dice(1, 6, 9)
    client.post(roll_url(carmen), {**NO_SKILL, "difficulty": "5"})
    natural_one = Roll.objects.order_by("-pk").first().record
    assert (natural_one["kept"], natural_one["outcome"]) == ([1], "failure")
    assert "natural_one" in natural_one["flags"]


def test_the_odds_of_a_roll_with_no_skill_are_those_of_the_lowest_die(client, player, carmen):
    client.force_login(player)
    data = {**NO_SKILL, "difficulty": "15", "part": "odds"}
    response = client.get(roll_url(carmen), data, HTTP_HX_REQUEST="true")
    # 7 + the lowest die ≥ 15: all three dice 8 or more, (3/10)³. A crítico (≥ 30) needs
    # two tens in a row, then a lowest die of 3 or more: 0.001² × (8/10)³. Pifia: 1/1000.
    shown = odds_values(response.text)
    assert shown["success"] == pytest.approx(0.3**3)
    assert shown["exceptional"] == pytest.approx(0.001**2 * 0.8**3)
    assert shown["dramatic_failure"] == pytest.approx(0.001)
    engine = engine_odds.odds(
        ObjetivoSpec(bonus=7, difficulty=15, unskilled=True, destiny_points=0)
    )
    assert shown == {
        "success": engine.p_success,
        "exceptional": engine.p_exceptional,
        "dramatic_failure": engine.p_dramatic_failure,
    }
    assert "dado menor + 7 contra 15" in response.text
    assert "Sin puntos en la habilidad: un nivel abajo." in response.text


def test_the_card_of_a_roll_with_no_skill_says_so(client, player, carmen, fixed_dice):
    client.force_login(player)
    fixed_dice(4, 8, 3)
    response = client.post(roll_url(carmen), NO_SKILL, HTTP_HX_REQUEST="true")
    setup = parse(response.text).one("p", class_="roll-setup").text()
    assert setup == "Percepción · Sin habilidad · +7 · Dificultad 10"
    client.cookies["django_language"] = "en"
    log = client.get(reverse("mechanics:log", args=[carmen.campaign_id]))
    assert "Percepción · No skill · +7 · Difficulty 10" in log.text


def test_an_attack_with_no_skill_keeps_the_lowest_die(client, player, carmen, fixed_dice):
    client.force_login(player)
    fixed_dice(4, 8, 3)
    attack = {
        "kind": "attack",
        "attribute": "fuerza",
        "skill": "",
        "weapon": "espada",
        "defensa": "12",
    }
    assert client.post(roll_url(carmen), attack, HTTP_HX_REQUEST="true").status_code == 200
    record = Roll.objects.get().record
    # Fuerza 5 + no skill + 3 = 8 against Defensa 12: a miss.
    assert (record["kind"], record["kept"], record["result"]) == ("attack", [3], 8)
    assert record["outcome"] == "failure"


def test_the_specialization_does_not_apply_to_a_roll_with_no_skill(client, player, carmen):
    carmen.details = {"specialization": "buscar"}
    carmen.save(update_fields=["details"])
    client.force_login(player)
    response = client.post(roll_url(carmen), {**NO_SKILL, "specialization": "on"})
    assert "La especialización solo se aplica a una tirada de su propia habilidad." in (
        response.text
    )
    assert not Roll.objects.exists()


def test_another_player_or_an_observer_may_not_roll_it_and_a_stranger_finds_nothing(
    client, dora, observer, stranger, carmen
):
    for user, status in ((dora, 403), (observer, 403), (stranger, 404)):
        client.force_login(user)
        assert client.post(roll_url(carmen), NO_SKILL).status_code == status
    assert not Roll.objects.exists()
