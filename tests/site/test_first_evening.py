"""Friction a first evening found (issue 14) that had no test yet: each test names the item."""

import pytest

from tests.factories import make_character
from tests.html import parse
from tests.mechanics.test_roll_panel import LUCIA, POOL, roll_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings=LUCIA)


@pytest.mark.parametrize(("modifier", "summary"), [("-5", "1 dado"), ("-4", "2 dados")])
def test_the_roll_panel_counts_one_die_in_the_singular(client, player, lucia, modifier, summary):
    client.force_login(player)
    data = {**POOL, "modifier_1": modifier, "part": "odds"}
    response = client.get(roll_url(lucia), data, HTTP_HX_REQUEST="true")
    assert parse(response.text).one("p", class_="roll-summary").text() == summary
