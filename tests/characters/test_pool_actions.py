"""A system's actions on a pool, through the one generic view: the objetivo GM hands a
destiny point back (RULES 4, example 8), and the player's next roll goes one level down."""

import pytest
from django.urls import reverse

from characters.models import Character, Resource, SheetChange
from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import fixed_dice  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SKILL_ROLL = {"kind": "skill", "attribute": "fuerza", "skill": "pelea", "difficulty": "15"}


@pytest.fixture
def table(gm, player, observer):
    return campaign_with("objetivo", gm, players=[player], observers=[observer])


@pytest.fixture
def pepa(table, player):
    return make_character(table, player, name="Pepa", ratings={"fuerza": 5, "pelea": 3})


def hand_back_url(character, pool="destiny_points", action="hand-back"):
    return reverse(
        "characters:pool_action", args=[character.campaign_id, character.pk, pool, action]
    )


def destiny(character) -> int:
    return Resource.objects.get(character=character, key="destiny_points").current


def pending(character) -> bool:
    return bool(Character.objects.get(pk=character.pk).details.get("destiny_returned"))


def test_the_gm_hands_a_destiny_point_back_and_the_pool_says_the_next_roll_goes_down(
    client, gm, pepa
):
    before = destiny(pepa)
    client.force_login(gm)
    pool = parse(client.get(pepa.get_absolute_url()).text).one("div", id="pool-destiny_points")
    assert pool.one("button", class_="pool-action").text() == "Devolver un punto de destino"
    response = client.post(hand_back_url(pepa), **HTMX)
    assert destiny(pepa) == before + 1
    assert pending(pepa)
    pool = parse(response.text).one("div", id="pool-destiny_points")
    assert pool.one("p", class_="pool-pending").text() == (
        "Punto devuelto: la próxima tirada baja un nivel."
    )
    assert not pool.find_all("button", class_="pool-action")
    assert SheetChange.objects.filter(character=pepa, field="details:destiny_returned").exists()


def test_the_next_roll_shows_and_uses_the_lowest_die(client, gm, player, pepa, fixed_dice):  # noqa: F811
    client.force_login(gm)
    client.post(hand_back_url(pepa))
    client.force_login(player)
    address = reverse("mechanics:roll", args=[pepa.campaign_id, pepa.pk])
    odds = client.get(address, {**SKILL_ROLL, "part": "odds"}, **HTMX)
    notes = [p.text() for p in parse(odds.text).find_all("p", class_="roll-note")]
    assert "Se devolvió un punto de destino: un nivel abajo." in notes
    fixed_dice(4, 10, 10)
    client.post(address, SKILL_ROLL)
    record = Roll.objects.get().record
    assert record["details"]["level"] == -1
    assert record["details"]["target_dice"] == [4]
    assert not pending(pepa)


def test_a_second_hand_back_before_the_roll_is_refused_and_changes_nothing(client, gm, pepa):
    client.force_login(gm)
    client.post(hand_back_url(pepa))
    before = destiny(pepa)
    response = client.post(hand_back_url(pepa))
    assert response.status_code == 302
    assert destiny(pepa) == before
    page = client.get(pepa.get_absolute_url())
    alert = parse(page.text).one("div", class_="messages")
    assert "ya espera la próxima tirada" in alert.text()


@pytest.mark.parametrize("who", ["player", "observer"])
def test_a_player_or_observer_cannot_hand_a_point_back(client, pepa, who, request):
    before = destiny(pepa)
    client.force_login(request.getfixturevalue(who))
    assert client.post(hand_back_url(pepa)).status_code == 403
    assert destiny(pepa) == before
    assert not pending(pepa)
    sheet = parse(client.get(pepa.get_absolute_url()).text)
    assert not sheet.find_all("button", class_="pool-action")


def test_a_stranger_finds_nothing(client, stranger, pepa):
    client.force_login(stranger)
    assert client.post(hand_back_url(pepa)).status_code == 404
    assert not pending(pepa)


@pytest.mark.parametrize(
    ("pool", "action"), [("destiny_points", "forge"), ("willpower", "hand-back")]
)
def test_an_action_the_system_does_not_declare_is_not_found(client, gm, pepa, pool, action):
    client.force_login(gm)
    assert client.post(hand_back_url(pepa, pool, action)).status_code == 404


def test_a_tinieblas_pool_has_no_such_action(client, gm, player, campaign):
    lucia = make_character(campaign, player, name="Lucía")
    client.force_login(gm)
    assert client.post(hand_back_url(lucia, "willpower")).status_code == 404
