"""Hitos: another character's aspect used against them (RULES 2, *ajeno*): the roller pays a
drama point, keeps the highest die, and the aspect's owner gains the point."""

import pytest

from characters.models import Aspect, Resource
from mechanics.models import Roll
from mechanics.rules.hitos import odds as hitos_odds
from mechanics.rules.hitos.rolls import HitosSpec
from tests.factories import CampaignFactory, UserFactory, campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import odds_values, roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(gm, player):
    rival_player = UserFactory(username="rivera")
    campaign = campaign_with("hitos", gm, players=[player, rival_player])
    pepa = make_character(campaign, player, name="Pepa", ratings={"reflejos": 4, "combate": 3})
    rival = make_character(campaign, rival_player, name="Rocco")
    aspect = Aspect.objects.create(character=rival, kind="complicacion", text="Confiado en exceso")
    return campaign, pepa, rival, aspect


def drama(character) -> int:
    return Resource.objects.get(character=character, key="drama_points").current


def check(aspect, **extra):
    return {
        "kind": "check",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "15",
        "aspect": f"other:{aspect.pk}",
        "pay": "drama_point",
        **extra,
    }


def test_a_rivals_aspect_used_against_them_hands_them_the_drama_point(
    client, player, table, fixed_dice
):
    _, pepa, rival, aspect = table
    mine, theirs = drama(pepa), drama(rival)
    client.force_login(player)
    panel = parse(client.get(roll_url(pepa)).text)
    offered = {
        o.attrs["value"]: o.text() for o in panel.one("select", name="aspect").find_all("option")
    }
    assert offered[f"other:{aspect.pk}"] == "Rocco: Confiado en exceso"
    fixed_dice(3, 6, 7)
    response = client.post(roll_url(pepa), check(aspect), HTTP_HX_REQUEST="true")
    roll = Roll.objects.get()
    assert roll.record["details"]["kept_die"] == "M"
    assert roll.record["details"]["aspect_owner"] == rival.pk
    assert (drama(pepa), drama(rival)) == (mine - 1, theirs + 1)
    assert f"Rocco gana el punto dramático ({theirs} → {theirs + 1})" in response.text


def test_the_odds_of_a_rivals_aspect_keep_the_highest_die(client, player, table):
    _, pepa, _rival, aspect = table
    client.force_login(player)
    response = client.get(roll_url(pepa), {**check(aspect), "part": "odds"}, HTTP_HX_REQUEST="true")
    engine = hitos_odds.odds(HitosSpec(4, 3, 15, improve=True))
    assert odds_values(response.text)["success"] == engine.p_success


def test_a_rivals_aspect_cannot_be_paid_by_exhausting_it(client, player, table):
    _, pepa, rival, aspect = table
    before = (drama(pepa), drama(rival))
    client.force_login(player)
    response = client.post(roll_url(pepa), check(aspect, pay="exhaust"))
    assert response.status_code == 200
    assert "Solo puedes agotar tus propios aspectos" in response.text
    assert not Roll.objects.exists()
    assert (drama(pepa), drama(rival)) == before
    assert not Aspect.objects.get(pk=aspect.pk).exhausted


def test_an_aspect_from_another_campaign_is_refused_and_nothing_is_written(
    client, gm, player, table
):
    _, pepa, rival, _aspect = table
    elsewhere = CampaignFactory(created_by=gm, system="hitos")
    stranger = make_character(elsewhere, None, user=gm, name="Ajeno")
    foreign = Aspect.objects.create(character=stranger, kind="libre", text="Lejano")
    before = (drama(pepa), drama(rival), drama(stranger))
    client.force_login(player)
    client.post(roll_url(pepa), check(foreign))
    assert not Roll.objects.exists()
    assert (drama(pepa), drama(rival), drama(stranger)) == before


def test_without_drama_points_a_rivals_aspect_is_refused(client, player, table):
    _, pepa, rival, aspect = table
    Resource.objects.filter(character=pepa, key="drama_points").update(current=0)
    theirs = drama(rival)
    client.force_login(player)
    response = client.post(roll_url(pepa), check(aspect))
    assert "No quedan puntos dramáticos." in response.text
    assert not Roll.objects.exists()
    assert drama(rival) == theirs
