"""Cached fragments (campaigns.fragments, the roll cards and the XP ledger's rows):
a write shows on the very next request, and what one viewer may see never reaches
another through the cache."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns import services as campaign_services
from characters import services
from characters.advancement import PurchaseSpec
from characters.models import Character
from characters.services import ratings_of
from mechanics.health_panel import state_label
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services import health as health_services
from mechanics.services.rolls import roll_store
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system
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


# The health section's poll after each kind of health write: the sheet's version sent back
# (`data-health-version`), the next poll draws the new state and lists the new event first.
HEALTH_WRITES = {
    "wound": lambda lucia, gm: health_services.character_apply_damage(
        character=lucia, user=gm, damage=DamageInput(2, "L")
    ),
    "heal": lambda lucia, gm: health_services.character_advance_time(
        character=lucia, user=gm, hours=24 * 7
    ),
    "undo": lambda lucia, gm: health_services.health_event_undo(character=lucia, user=gm),
    "rest": lambda lucia, gm: health_services.character_advance_time(
        character=lucia, user=gm, hours=8, rested=True
    ),
}


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("write", list(HEALTH_WRITES))
def test_the_next_health_poll_after_a_health_write_shows_it(client, request, gm, lucia, who, write):
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    client.force_login(request.getfixturevalue(who))
    sheet = client.get(lucia.get_absolute_url()).text
    version = re.search(r'data-health-version="([^"]+)"', sheet).group(1)
    poll = reverse("mechanics:health", args=[lucia.campaign_id, lucia.pk]) + f"?since={version}"
    assert client.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    event = HEALTH_WRITES[write](Character.objects.get(pk=lucia.pk), gm)
    response = client.get(poll, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    live = parse(response.text).one(id=f"health-live-{lucia.pk}")
    assert live.find_all("li", class_="health-event")[0].attrs["id"] == f"health-event-{event.pk}"
    character = Character.objects.get(pk=lucia.pk)
    system = get_system(character.campaign.system)
    health = system.health_view(
        character.health, ratings_of(character), character.details, character.campaign.rules
    )
    assert live.one("strong", class_="health-state").text() == state_label(health, system)
