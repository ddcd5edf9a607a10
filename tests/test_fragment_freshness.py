"""Cached fragments (campaigns.fragments, the roll cards and the XP ledger's rows):
a write shows on the very next request, and what one viewer may see never reaches
another through the cache."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns import services as campaign_services
from characters import services
from characters.advancement import PurchaseSpec
from characters.models import Character
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store
from tests.factories import MembershipFactory, UserFactory, make_character
from tests.html import parse


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


def _xp_log(campaign):
    return reverse("characters:xp_log", args=[campaign.pk])


def test_an_xp_award_shows_in_the_cached_chart_on_the_next_request(client, gm, campaign, lucia):
    services.xp_adjust(character=lucia, user=gm, amount=5, reason="Inicio")
    client.force_login(gm)
    assert "Lucía: 5 PX ahora" in client.get(_xp_log(campaign)).text
    services.xp_adjust(character=lucia, user=gm, amount=3, reason="Bonificación")
    assert "Lucía: 8 PX ahora" in client.get(_xp_log(campaign)).text


def test_a_renamed_character_reads_right_in_cached_rows_and_roll_cards(client, gm, campaign, lucia):
    services.xp_adjust(character=lucia, user=gm, amount=5, reason="Inicio")
    roll_store(
        campaign=campaign, user=gm, record=roll_dice(3, rng=random.Random(1)), character=lucia
    )
    client.force_login(gm)
    log = reverse("mechanics:log", args=[campaign.pk])
    assert "Lucía" in client.get(_xp_log(campaign)).text
    assert "Lucía" in client.get(log).text
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Ferrer")
    assert _ledger_row(client.get(_xp_log(campaign)).text).one("a").text() == "Lucía Ferrer"
    card = client.get(log).text
    assert "Lucía Ferrer" in card[card.index("data-roll=") :]


def test_a_renamed_user_reads_right_in_the_cached_rows(client, gm, campaign, lucia):
    services.xp_adjust(character=lucia, user=gm, amount=5, reason="Inicio")
    client.force_login(gm)
    assert f"por {gm.username}" in _ledger_row(client.get(_xp_log(campaign)).text).text()
    get_user_model().objects.filter(pk=gm.pk).update(username="laura")
    assert "por laura" in _ledger_row(client.get(_xp_log(campaign)).text).text()


def _ledger_row(page: str):
    """The one entry of the ledger on an XP page."""
    return parse(page).one(id="ledger").one("li", data_entry_kind=True)


def test_a_renamed_scene_reads_right_in_the_cached_rows(client, gm, campaign, lucia):
    scene = campaign_services.scene_create(
        campaign=campaign, title="La cripta", participants=[lucia]
    )
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 4})
    client.force_login(gm)
    assert "La cripta" in client.get(_xp_log(campaign)).text
    campaign_services.scene_update(scene=scene, title="El osario", participants=[lucia])
    page = client.get(_xp_log(campaign)).text
    ledger = page[page.index('id="ledger"') :]
    assert "El osario" in ledger
    assert "La cripta" not in ledger


def test_a_purchase_cached_for_its_owner_stays_hidden_from_another_player(
    client, gm, player, other_player, campaign, lucia
):
    services.xp_adjust(character=lucia, user=gm, amount=10, reason="Inicio")
    spend = services.xp_spend(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo")
    )
    client.force_login(player)
    assert spend.reason in client.get(_xp_log(campaign)).text
    client.force_login(other_player)
    assert spend.reason not in client.get(_xp_log(campaign)).text
