"""Friction (issue 14): the first-aid result names its own outcome, not the roll's grade."""

import pytest

from tests.characters.test_health_views import (  # noqa: F401 (fixtures)
    doctor,
    first_aid,
    fixed_dice,
    lucia,
    other_player,
    wounded,
)
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("dice", "outcome"),
    [
        ((8, 8, 1), "2 de 3 éxitos; no más primeros auxilios hasta curarse del todo"),
        ((8, 9, 10, 1, 1, 1, 2), "3 de 3 éxitos, se cura un nivel letal"),
    ],
    ids=["short", "enough"],
)
def test_first_aid_says_whether_it_healed_not_the_rolls_grade(
    client, gm, lucia, doctor, fixed_dice, dice, outcome
):
    wounded(lucia, gm, "LLL")  # Lesionado: 3 successes needed
    client.force_login(gm)
    fixed_dice(*dice)
    notice = parse(first_aid(client, lucia, doctor).text).one(class_="health-notice").text()
    assert notice == f"Primeros auxilios de Doctora Ruiz: {outcome}"
