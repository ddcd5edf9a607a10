"""A shorter roll set-up: the modifiers' selects have visible labels, and the rarely
changed fields sit under "More options", which opens by itself when one is set or wrong."""

import pytest

from tests.factories import make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url
from tests.mechanics.test_roll_panel import LUCIA, POOL

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings=LUCIA)


def _fold(page):
    return page.one("details", class_="roll-more")


def test_the_modifiers_have_labels_of_their_own(client, player, lucia):
    client.force_login(player)
    page = parse(client.get(roll_url(lucia)).content)
    ids = [page.one("select", name=f"modifier_{n}").attrs["id"] for n in (1, 2, 3)]
    labels = [page.one("label", **{"for": id_}).text() for id_ in ids]
    assert labels == ["Mod. 1", "Mod. 2", "Mod. 3"]
    assert not page.find_all(class_="roll-cell-quiet")


def test_more_options_is_closed_on_a_fresh_panel_and_holds_the_rare_fields(client, gm, lucia):
    client.force_login(gm)
    fold = _fold(parse(client.get(roll_url(lucia)).content))
    assert "open" not in fold.attrs
    names = {element.attrs["name"] for element in fold.iter() if "name" in element.attrs}
    assert {"extra_dice", "attempts", "again", "rote", "label"} <= names


@pytest.mark.parametrize(
    "extra", [{"extra_dice": "2"}, {"again": "9"}, {"attempts": "x"}], ids=["set", "9-again", "bad"]
)
def test_more_options_opens_when_one_of_its_fields_is_set_or_wrong(client, player, lucia, extra):
    client.force_login(player)
    page = parse(client.get(roll_url(lucia), {**POOL, **extra}).content)
    assert "open" in _fold(page).attrs


def test_a_stranger_gets_no_roll_panel(client, stranger, lucia):
    client.force_login(stranger)
    assert client.get(roll_url(lucia)).status_code == 404
