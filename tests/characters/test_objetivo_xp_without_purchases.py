"""Dado objetivo has no advancement (docs/rules.md#objetivo-advancement): a character's XP
page says, in one sentence, that its XP is a record and buys nothing, instead of showing
a balance with no way to spend it and no word why."""

import pytest
from django.urls import reverse

from characters import services
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

SPANISH = (
    "En Dado objetivo los PX son un registro y no compran nada: el máster sube los rasgos "
    "en la ficha."
)
ENGLISH = "In Dado objetivo XP is a record and buys nothing: the GM raises traits on the sheet."


def xp_page(client, character):
    return client.get(reverse("characters:xp", args=[character.campaign_id, character.pk]))


def character_of(system, gm, player):
    campaign = campaign_with(system, gm, players=[player])
    character = make_character(campaign, player, name="Carmen")
    services.xp_adjust(character=character, user=gm, amount=10, reason="Inicio")
    return character


@pytest.mark.parametrize("who", ["player", "gm"])
def test_the_objetivo_xp_page_says_its_xp_buys_nothing(client, request, gm, player, who):
    carmen = character_of("objetivo", gm, player)
    client.force_login(request.getfixturevalue(who))
    page = parse(xp_page(client, carmen).text)
    assert page.one(id="xp-balance").text() == "10 PX disponibles"
    assert page.one(id="xp-without-purchases").text() == SPANISH
    assert not page.find_all(id="purchase")
    client.cookies["django_language"] = "en"
    assert parse(xp_page(client, carmen).text).one(id="xp-without-purchases").text() == ENGLISH


def test_a_system_with_purchases_shows_its_purchases_and_no_such_sentence(client, gm, player):
    lucia = character_of("tinieblas", gm, player)
    client.force_login(player)
    page = parse(xp_page(client, lucia).text)
    assert page.find_all(id="purchase")
    assert not page.find_all(id="xp-without-purchases")


def test_a_stranger_finds_no_xp_page(client, gm, player, stranger):
    carmen = character_of("objetivo", gm, player)
    client.force_login(stranger)
    assert xp_page(client, carmen).status_code == 404
