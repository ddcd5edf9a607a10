"""Dado objetivo's roll panel shows the destiny points once: in its heading, under their
game term "Puntos de destino" in both languages (docs/rules.md#game-terms), and not again
beside the box that spends one; with none left the box says why it cannot be ticked."""

import pytest

from characters.models import Resource
from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def carmen(gm, player, observer, dora):
    """Bob plays Carmen, who holds 2 destiny points; Dora plays too."""
    campaign = campaign_with("objetivo", gm, players=[player, dora], observers=[observer])
    character = make_character(
        campaign, player, name="Carmen", ratings={"percepcion": 7, "buscar": 6}
    )
    Resource.objects.filter(character=character, key="destiny_points").update(current=2)
    return character


def panel(client, character, language: str):
    client.cookies["django_language"] = language
    response = client.get(roll_url(character), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return parse(response.text).one("section", class_="roll-panel")


@pytest.mark.parametrize("who", ["player", "gm"])
@pytest.mark.parametrize("language", ["es", "en"])
def test_the_panel_shows_the_destiny_points_once(client, carmen, request, who, language):
    client.force_login(request.getfixturevalue(who))
    shown = panel(client, carmen, language)
    text = shown.text()
    assert text.count("Puntos de destino") == 1
    assert "Destiny points" not in text
    pool = shown.one("li", data_pool="destiny_points")
    assert pool.one("span", class_="roll-pool-value").text() == "2"
    box = shown.one("input", name="destiny_point")
    assert "disabled" not in box.attrs
    assert "aria-describedby" not in box.attrs


@pytest.mark.parametrize(("language", "why"), [("es", "No quedan"), ("en", "No destiny points")])
def test_with_no_destiny_points_the_box_says_why_and_a_forged_spend_is_refused(
    client, player, carmen, language, why
):
    Resource.objects.filter(character=carmen, key="destiny_points").update(current=0)
    client.force_login(player)
    shown = panel(client, carmen, language)
    assert (
        shown.one("li", data_pool="destiny_points").one("span", class_="roll-pool-value").text()
        == "0"
    )
    assert shown.text().count("Puntos de destino") == 1
    assert "disabled" in shown.one("input", name="destiny_point").attrs
    assert why in shown.text()
    data = {
        "kind": "skill",
        "attribute": "percepcion",
        "skill": "buscar",
        "destiny_point": "on",
    }
    client.post(roll_url(carmen), data, HTTP_HX_REQUEST="true")
    assert not Roll.objects.exists()


def test_another_player_or_an_observer_may_not_open_the_panel_and_a_stranger_finds_nothing(
    client, dora, observer, stranger, carmen
):
    for user, status in ((dora, 403), (observer, 403), (stranger, 404)):
        client.force_login(user)
        assert client.get(roll_url(carmen)).status_code == status
