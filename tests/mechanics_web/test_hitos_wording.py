"""Hitos in words (seed 001: the total must be greater than the difficulty; a double 10 is
a crítico and a double 1 a pifia whatever the total): a tie that fails says why, a
failure with a double 10 does not read as a contradiction, and odds of nothing say so."""

import pytest
from django.urls import reverse
from django.utils import translation

from mechanics.presentation import roll_display
from mechanics.rules.hitos.rolls import HitosSpec, roll_check
from mechanics.systems.registry import get_system
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics_web.rolls import store_roll

pytestmark = pytest.mark.django_db


class Dice:
    """Throws the given faces in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


def _shown(campaign, gm, spec, *faces):
    with translation.override("es"):
        return roll_display(store_roll(campaign, gm, record=roll_check(spec, Dice(*faces))))


def test_fifteen_against_fifteen_fails_and_says_the_difficulty_must_be_beaten(campaign, gm):
    shown = _shown(campaign, gm, HitosSpec(characteristic=3, skill=2, difficulty=15), 10, 10, 3)
    assert (shown.result, shown.outcome) == ("Total 15", "Fallo")
    assert "15 no supera 15: hay que superar la dificultad." in shown.notes
    assert "Crítico (doble 10) en un fallo: se ofrece un aspecto temporal." in shown.notes


def test_a_tie_succeeds_when_the_campaign_says_equal_is_enough(campaign, gm):
    spec = HitosSpec(characteristic=3, skill=2, difficulty=15, equal_succeeds=True)
    shown = _shown(campaign, gm, spec, 10, 10, 3)
    assert shown.outcome == "Crítico"
    assert not any("no supera" in note for note in shown.notes)


def test_a_pifia_on_a_success_is_said_as_such(campaign, gm):
    shown = _shown(campaign, gm, HitosSpec(characteristic=9, skill=9, difficulty=15), 1, 1, 9)
    assert shown.outcome == "Éxito"
    assert "Pifia (doble 1) en un éxito: se ofrece un aspecto temporal." in shown.notes


def test_odds_of_a_difficulty_out_of_reach_say_so_and_name_the_dice_events():
    rolls = get_system("hitos").roll_setup
    with translation.override("es"):
        odds = rolls.odds(HitosSpec(characteristic=1, skill=0, difficulty=15))
        reachable = rolls.odds(HitosSpec(characteristic=4, skill=2, difficulty=15))
    assert odds.p("success") == 0
    assert odds.notes == ("Como mucho 11: la dificultad 15 queda fuera de alcance.",)
    assert [row.label for row in odds.rows] == ["Éxito", "Crítico (doble 10)", "Pifia (doble 1)"]
    assert reachable.notes == ()


def test_the_roll_panels_odds_say_a_difficulty_out_of_reach_too(client, gm, player):
    campaign = campaign_with("hitos", gm, players=[player])
    rufo = make_character(campaign, player, name="Rufo", ratings={"fortaleza": 1})
    client.force_login(player)
    data = {"kind": "check", "characteristic": "fortaleza", "skill": "forma_fisica",
            "difficulty": "15", "modifier": "0", "part": "odds"}  # fmt: skip
    url = reverse("mechanics:roll", args=[campaign.pk, rufo.pk])
    with translation.override("es"):
        odds = parse(client.get(url, data, HTTP_HX_REQUEST="true").text)
    assert odds.one("p", class_="roll-note").text() == (
        "Como mucho 11: la dificultad 15 queda fuera de alcance."
    )
