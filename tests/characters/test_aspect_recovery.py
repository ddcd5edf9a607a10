"""An exhausted Hitos aspect comes back "la siguiente sesión de juego o la siguiente
historia", as the GM decides: the owner exhausts it (a roll paid by exhausting it, or the
sheet's "Agotar"), and only a GM recovers it, one aspect on the sheet or every one by
ending the session (docs/rules.md#hitos-sessions). The GM, the owner, another player, an
observer and a stranger."""

import pytest
from django.urls import reverse

from characters.models import Aspect, SheetChange
from mechanics.models import Roll
from tests.characters.test_sheet_views import hitos_sheet, url
from tests.factories import MembershipFactory, UserFactory
from tests.html import parse
from tests.mechanics import rolling

pytestmark = pytest.mark.django_db

fixed_dice = rolling.fixed_dice
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def marcos(gm, player):
    """Marcos, the player's character, with his Concepto exhausted by a roll of hers."""
    return hitos_sheet(gm, player)


def concept(character) -> Aspect:
    return character.aspects.get(kind="concepto")


def exhaust_by_rolling(client, character, fixed_dice) -> None:
    """The owner's roll paid "Agotando el aspecto"."""
    address = reverse("mechanics:roll", args=[character.campaign_id, character.pk])
    data = {
        "kind": "check",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "15",
        "aspect": str(concept(character).pk),
        "pay": "exhaust",
    }
    fixed_dice(3, 6, 7)
    response = client.post(address, data, **HTMX)
    assert "Aspecto agotado: Contrabandista con deudas" in response.text
    assert Roll.objects.count() == 1


def recover(client, character, **extra):
    aspect = concept(character)
    return client.post(url(character, "aspect_exhausted", aspect.pk), {"exhausted": "0"}, **extra)


def test_the_player_has_no_recover_button_on_the_aspect_her_roll_exhausted(
    client, player, marcos, fixed_dice
):
    client.force_login(player)
    exhaust_by_rolling(client, marcos, fixed_dice)
    row = parse(client.get(url(marcos)).text).one("li", id=f"aspect-{concept(marcos).pk}")
    assert "agotado" in row.text()
    assert "hasta que el máster lo recupere" in row.text()
    assert not row.find_all("button")
    # Her other aspects she may still exhaust.
    other = marcos.aspects.get(kind="cita")
    assert parse(client.get(url(marcos)).text).one("button", id=f"aspect-{other.pk}-toggle")


def test_the_player_cannot_recover_her_exhausted_aspect_by_a_forged_post(
    client, player, marcos, fixed_dice
):
    client.force_login(player)
    exhaust_by_rolling(client, marcos, fixed_dice)
    changes = SheetChange.objects.count()
    assert recover(client, marcos).status_code == 403
    assert recover(client, marcos, **HTMX).status_code == 403
    assert concept(marcos).exhausted
    assert SheetChange.objects.count() == changes


def test_the_gm_recovers_an_exhausted_aspect_on_the_sheet(client, gm, player, marcos, fixed_dice):
    client.force_login(player)
    exhaust_by_rolling(client, marcos, fixed_dice)
    client.force_login(gm)
    aspect = concept(marcos)
    button = parse(client.get(url(marcos)).text).one("button", id=f"aspect-{aspect.pk}-toggle")
    assert (button.text(), button.attrs["value"]) == ("Recuperar", "0")
    response = recover(client, marcos, **HTMX)
    assert response.status_code == 200
    assert "agotado" not in response.text
    assert not concept(marcos).exhausted
    change = SheetChange.objects.latest("pk")
    assert (change.user, change.field) == (gm, "aspect:Contrabandista con deudas")


@pytest.mark.parametrize("who", ["another player", "observer"])
def test_other_members_neither_exhaust_nor_recover_the_aspect(client, gm, player, marcos, who):
    user = UserFactory(username="dora")
    role = "player" if who == "another player" else "observer"
    MembershipFactory(campaign=marcos.campaign, user=user, role=role)
    Aspect.objects.filter(pk=concept(marcos).pk).update(exhausted=True)
    client.force_login(user)
    assert recover(client, marcos).status_code == 403
    assert concept(marcos).exhausted
    page = client.get(url(marcos)).text
    assert f'id="aspect-{concept(marcos).pk}-toggle"' not in page
    assert "hasta que el máster" not in page


def test_a_stranger_finds_no_aspect_to_recover(client, stranger, marcos):
    Aspect.objects.filter(pk=concept(marcos).pk).update(exhausted=True)
    client.force_login(stranger)
    assert recover(client, marcos).status_code == 404
    assert concept(marcos).exhausted
