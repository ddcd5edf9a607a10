"""Spends on the GM's opposed and teamwork rolls, each side from its own pool: Willpower in
Mundo de Tinieblas, destiny points in Dado objetivo (docs/rules.md#tinieblas-willpower,
docs/rules.md#objetivo-destiny)."""

import itertools

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from characters.models import Resource
from mechanics.models import Roll
from mechanics.rules.objetivo import odds as objetivo_odds
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from mechanics.rules.tinieblas.reference import reference_odds_for_pool
from mechanics.services.rolls import RollSide, roll_perform
from mechanics.setup import compare, load_sheets
from tests.factories import campaign_with, make_character
from tests.mechanics import rolling
from tests.mechanics.rolling import odds_values

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


def gm_url(campaign):
    return reverse("mechanics:gm_roll", args=[campaign.pk])


def pool(character, key):
    return Resource.objects.get(character=character, key=key).current


def set_pool(character, key, value):
    Resource.objects.filter(character=character, key=key).update(current=value)


@pytest.fixture
def lucia(campaign, player):
    ratings = {"fuerza": 3, "pelea": 2, "aplomo": 2, "compostura": 2, "resistencia": 2}
    return make_character(campaign, player, name="Lucía", ratings=ratings)


@pytest.fixture
def bruto(campaign):
    ratings = {"fuerza": 4, "pelea": 3, "aplomo": 2, "compostura": 2}
    return make_character(campaign, None, name="Bruto", ratings=ratings)


def opposed(lucia, bruto, **extra):
    data = {
        "kind": "opposed",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "a-skill": "pelea",
        "b-character": bruto.pk,
        "b-attribute": "fuerza",
        "b-skill": "pelea",
    }
    return {**data, **extra}


# --- Mundo de Tinieblas: Willpower -----------------------------------------------------------


def test_each_side_of_an_opposed_roll_spends_its_own_willpower(
    client, gm, campaign, lucia, bruto, fixed_dice
):
    client.force_login(gm)
    set_pool(lucia, "willpower", 3)
    set_pool(bruto, "willpower", 2)
    fixed_dice(1)
    client.post(gm_url(campaign), opposed(lucia, bruto, **{"a-willpower": "dice"}))
    a, b = Roll.objects.order_by("pk")
    # Lucía: Fuerza 3 + Pelea 2 + 3 dice of Willpower; Bruto spends nothing.
    assert a.record["details"]["pool"] == 8
    assert b.record["details"]["pool"] == 7
    assert (pool(lucia, "willpower"), pool(bruto, "willpower")) == (2, 2)
    assert a.record["details"]["applied"][0]["what"] == "willpower"
    assert "applied" not in b.record["details"]


def test_opposed_odds_with_willpower_are_exact_against_icepool(client, gm, campaign, lucia, bruto):
    client.force_login(gm)
    data = opposed(lucia, bruto, **{"a-willpower": "dice", "b-willpower": "dice", "part": "odds"})
    response = client.get(gm_url(campaign), data, HTTP_HX_REQUEST="true")
    shown = odds_values(response.text)
    # 5 + 3 dice against 7 + 3 dice, each side's successes from icepool.
    win, tie, lose = compare(
        reference_odds_for_pool(8).distribution, reference_odds_for_pool(10).distribution
    )
    assert shown["win"] == pytest.approx(win, abs=1e-12)
    assert shown["tie"] == pytest.approx(tie, abs=1e-12)
    assert shown["lose"] == pytest.approx(lose, abs=1e-12)
    assert "Lucía gasta 1 punto de Fuerza de Voluntad" in response.text
    assert "Bruto gasta 1 punto de Fuerza de Voluntad" in response.text


def test_willpower_on_a_resistance_attribute_adds_two_dice_on_an_opposed_roll(
    client, gm, campaign, lucia, bruto, fixed_dice
):
    client.force_login(gm)
    fixed_dice(1)
    data = opposed(lucia, bruto, **{"a-attribute": "resistencia", "a-willpower": "resistance"})
    client.post(gm_url(campaign), data)
    a, _b = Roll.objects.order_by("pk")
    assert a.record["details"]["pool"] == 2 + 2 + 2


def test_willpower_on_a_resistance_use_of_another_attribute_is_refused(
    client, gm, campaign, lucia, bruto
):
    client.force_login(gm)
    data = opposed(lucia, bruto, **{"a-willpower": "resistance"})
    response = client.post(gm_url(campaign), data)
    assert "solo suma +2 a Aplomo, Resistencia o Compostura" in response.text
    assert not Roll.objects.exists()


def test_a_side_spending_from_an_empty_pool_refuses_the_whole_roll(
    client, gm, campaign, lucia, bruto
):
    client.force_login(gm)
    set_pool(lucia, "willpower", 3)
    set_pool(bruto, "willpower", 0)
    data = opposed(lucia, bruto, **{"a-willpower": "dice", "b-willpower": "dice"})
    response = client.post(gm_url(campaign), data)
    assert response.status_code == 200
    assert "A Bruto no le quedan puntos de Fuerza de Voluntad." in response.text
    assert not Roll.objects.exists()
    assert pool(lucia, "willpower") == 3


def test_a_pool_emptied_after_the_odds_refuses_the_roll_in_its_transaction(
    campaign, gm, lucia, bruto
):
    set_pool(lucia, "willpower", 3)
    set_pool(bruto, "willpower", 1)
    sheets = load_sheets([lucia, bruto], campaign)
    data = {"attribute": "fuerza", "skill": "pelea", "willpower": "dice"}
    plan = campaign.game_system.roll_setup.opposed(sheets[lucia.pk], data, sheets[bruto.pk], data)
    sides = plan.roll(None)
    set_pool(bruto, "willpower", 0)  # spent elsewhere between the odds and the roll
    with pytest.raises(ValidationError):
        roll_perform(
            campaign=campaign,
            user=gm,
            sides=[RollSide(record=s.record, character=s.sheet.character) for s in sides],
            group=plan.group,
        )
    assert not Roll.objects.exists()
    assert pool(lucia, "willpower") == 3


def test_teamwork_helper_and_main_actor_each_spend_their_own_willpower(
    client, gm, campaign, lucia, bruto, fixed_dice
):
    client.force_login(gm)
    set_pool(lucia, "willpower", 2)
    set_pool(bruto, "willpower", 2)
    data = {
        "kind": "teamwork",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "a-skill": "pelea",
        "a-willpower": "dice",
        "h1-character": bruto.pk,
        "h1-attribute": "fuerza",
        "h1-skill": "pelea",
        "h1-willpower": "dice",
    }
    fixed_dice(1)
    client.post(gm_url(campaign), data)
    main, helper = Roll.objects.order_by("pk")
    assert helper.record["details"]["pool"] == 7 + 3
    assert main.record["details"]["pool"] == 5 + 3
    assert (pool(lucia, "willpower"), pool(bruto, "willpower")) == (1, 1)


def test_teamwork_odds_add_the_helpers_successes_exactly(client, gm, campaign, lucia, bruto):
    client.force_login(gm)
    data = {
        "kind": "teamwork",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "a-skill": "pelea",
        "a-extra_dice": "-6",
        "h1-character": bruto.pk,
        "h1-attribute": "fuerza",
        "h1-skill": "",
        "h1-willpower": "dice",
        "part": "odds",
    }
    response = client.get(gm_url(campaign), data, HTTP_HX_REQUEST="true")
    shown = odds_values(response.text)
    # Bruto rolls 4 + 3 dice (and −1 unskilled? no skill: no penalty); Lucía 5 − 6 = −1,
    # a chance die unless Bruto succeeds. icepool: Bruto's successes, then Lucía's pool.
    helper = reference_odds_for_pool(7).distribution
    success = exceptional = dramatic = 0.0
    for s, p in helper.items():
        if p < 1e-16:
            continue  # icepool's long tail: far below the tolerance, and slow to roll
        main = reference_odds_for_pool(-1 + s)
        success += p * main.p_success
        exceptional += p * main.p_exceptional
        dramatic += p * main.p_dramatic_failure
    assert shown["success"] == pytest.approx(success, abs=1e-12)
    assert shown["exceptional"] == pytest.approx(exceptional, abs=1e-12)
    assert shown["dramatic_failure"] == pytest.approx(dramatic, abs=1e-12)
    assert dramatic == pytest.approx(0.1 * (helper[0] + helper[1]))


def test_the_gm_panel_forgets_the_spends_after_a_roll(client, gm, campaign, lucia, bruto):
    client.force_login(gm)
    set_pool(lucia, "willpower", 3)
    data = opposed(lucia, bruto, **{"a-willpower": "dice"})
    response = client.post(gm_url(campaign), data, HTTP_HX_REQUEST="true")
    assert Roll.objects.count() == 2
    assert '<option value="dice" selected>' not in response.text
    redirect = client.post(gm_url(campaign), data)
    assert "a-willpower" not in redirect["Location"]
    assert pool(lucia, "willpower") == 1


def test_players_and_strangers_cannot_spend_on_the_gm_panel(
    client, player, stranger, campaign, lucia, bruto
):
    set_pool(lucia, "willpower", 3)
    data = opposed(lucia, bruto, **{"a-willpower": "dice"})
    for user, status in ((player, 403), (stranger, 404)):
        client.force_login(user)
        assert client.post(gm_url(campaign), data).status_code == status
    assert not Roll.objects.exists()
    assert pool(lucia, "willpower") == 3


# --- Dado objetivo: destiny points -----------------------------------------------------------


@pytest.fixture
def objetivo(gm, player):
    campaign = campaign_with("objetivo", gm, players=[player])
    ana = make_character(
        campaign, player, name="Ana", ratings={"fuerza": 6, "pelea": 4, "resistencia": 8}
    )
    rufo = make_character(campaign, None, name="Rufo", ratings={"destreza": 5, "resistencia": 8})
    set_pool(ana, "destiny_points", 2)
    set_pool(rufo, "destiny_points", 1)
    return campaign, ana, rufo


def objetivo_opposed(ana, rufo, **extra):
    data = {
        "kind": "opposed",
        "a-character": ana.pk,
        "a-attribute": "fuerza",
        "a-skill": "pelea",
        "b-character": rufo.pk,
        "b-attribute": "destreza",
        "b-skill": "",
    }
    return {**data, **extra}


def _attribute_side(bonus: int, level: int) -> dict:
    """(total or "fail", probability) of an attribute roll by enumerating 3d10."""
    law: dict = {}
    for dice in itertools.product(range(1, 11), repeat=3):
        key = "fail" if dice == (1, 1, 1) else sorted(dice)[level + 1] + bonus
        law[key] = law.get(key, 0) + 1 / 1000
    return law


def test_each_side_of_an_objetivo_opposed_roll_spends_its_own_destiny_point(
    client, gm, objetivo, fixed_dice
):
    campaign, ana, rufo = objetivo
    client.force_login(gm)
    fixed_dice(5, 6, 7, 2, 3, 4)
    data = objetivo_opposed(ana, rufo, **{"a-destiny_point": "on", "b-destiny_point": "on"})
    client.post(gm_url(campaign), data)
    mine, theirs = Roll.objects.order_by("pk")
    # Each keeps its highest die: 7 + 10 against 4 + 10.
    assert (mine.result, theirs.result) == (17, 14)
    assert (pool(ana, "destiny_points"), pool(rufo, "destiny_points")) == (1, 0)


def test_objetivo_opposed_odds_with_destiny_points_are_exact(client, gm, objetivo):
    campaign, ana, rufo = objetivo
    client.force_login(gm)
    data = objetivo_opposed(
        ana, rufo, **{"a-skill": "", "a-destiny_point": "on", "b-destiny_point": "on"}
    )
    data["part"] = "odds"
    response = client.get(gm_url(campaign), data, HTTP_HX_REQUEST="true")
    shown = odds_values(response.text)
    # Two attribute rolls (no explosion), both keeping the highest die: enumerate.
    mine, theirs = _attribute_side(12, 1), _attribute_side(10, 1)
    win = tie = 0.0
    for (a, pa), (b, pb) in itertools.product(mine.items(), theirs.items()):
        if a == "fail" or b == "fail":
            tie += pa * pb if a == b else 0.0
            win += pa * pb if b == "fail" and a != "fail" else 0.0
        elif a > b:
            win += pa * pb
        elif a == b:
            tie += pa * pb
    assert shown["win"] == pytest.approx(win, abs=1e-12)
    assert shown["tie"] == pytest.approx(tie, abs=1e-12)
    engine = objetivo_odds.opposed_odds(
        ObjetivoSpec(bonus=12, attribute_roll=True, attribute=6, destiny_point=True),
        ObjetivoSpec(bonus=10, attribute_roll=True, attribute=5, destiny_point=True),
    )
    assert shown["win"] == engine.p_actor
    assert "Ana gasta un punto de destino" in response.text


def test_objetivo_opposed_roll_from_an_empty_destiny_pool_stores_nothing(client, gm, objetivo):
    campaign, ana, rufo = objetivo
    set_pool(rufo, "destiny_points", 0)
    client.force_login(gm)
    data = objetivo_opposed(ana, rufo, **{"a-destiny_point": "on", "b-destiny_point": "on"})
    response = client.post(gm_url(campaign), data)
    assert "A Rufo no le quedan puntos de destino." in response.text
    assert not Roll.objects.exists()
    assert pool(ana, "destiny_points") == 2
