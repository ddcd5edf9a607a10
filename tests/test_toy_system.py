"""A fifth rule system is one folder in each place and no migration: the toy system of
`tests/toy_system/` registers itself and plays through the generic views, as the GM, its
player and a stranger see them."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services import chronicle as chronicle_services
from characters.models import XpEntry
from mechanics.models import HealthEvent, Roll
from mechanics.systems.base import TraitSpec
from mechanics.systems.registry import all_systems, register, unregister
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.toy_system.system import BODY, ToySystem

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def toy():
    system = register(ToySystem())
    yield system
    unregister(system.key)


@pytest.fixture
def table(toy, gm, player):
    campaign = CampaignFactory(created_by=gm, system=toy.key, name="Juguetería")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


@pytest.fixture
def hero(table, player):
    return make_character(table, player, name="Hero", ratings={"cuerpo": 3})


def hit_points(html: str) -> str:
    """The value of the health card's PV line (`<dt>PV</dt><dd>…</dd>`)."""
    found = re.findall(r"<dt>PV</dt><dd>([^<]*)</dd>", html)
    assert len(found) == 1, found
    return found[0]


def sheet_url(character):
    return reverse("characters:sheet", args=[character.campaign_id, character.pk])


def test_a_gm_creates_a_campaign_of_the_new_system_with_the_campaign_form(client, gm, toy):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:create"),
        {"name": "Juguetería", "system": toy.key, "max_characters_per_player": 1},
    )
    assert response.status_code == 302
    assert Campaign.objects.get(name="Juguetería").system == toy.key


def test_a_system_that_is_not_registered_is_refused_with_a_clear_message(client, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:create"),
        {"name": "Juguetería", "system": "toy", "max_characters_per_player": 1},
    )
    assert response.status_code == 200
    assert "Elige una opción válida" in response.text
    assert not Campaign.objects.exists()


def test_the_new_system_needs_no_migration(toy):
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_the_sheet_of_the_new_system_renders_through_the_generic_view(
    client, gm, player, stranger, hero
):
    for user in (gm, player):
        client.force_login(user)
        response = client.get(sheet_url(hero))
        assert response.status_code == 200
        assert hit_points(response.text) == "10/10"
        assert "Cuerpo" in response.text
    client.force_login(stranger)
    assert client.get(sheet_url(hero)).status_code == 404


def test_a_character_of_the_new_system_rolls_through_the_generic_roll_view(
    client, player, stranger, hero
):
    roll_url = reverse("mechanics:roll", args=[hero.campaign_id, hero.pk])
    client.force_login(stranger)
    assert client.post(roll_url, {"kind": "pool", "attribute": "cuerpo"}).status_code == 404
    client.force_login(player)
    odds = client.get(roll_url, {"kind": "pool", "attribute": "cuerpo", "part": "odds"})
    assert f'value="{1 - (4 / 6) ** 3!r}"' in odds.text
    response = client.post(roll_url, {"kind": "pool", "attribute": "cuerpo"})
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert (roll.system, roll.character, len(roll.record["dice"])) == ("toy", hero, 3)
    log = client.get(reverse("mechanics:log", args=[hero.campaign_id])).text
    assert f"Total {roll.result}" in log


def test_a_character_of_the_new_system_takes_damage_through_the_generic_health_view(
    client, gm, player, stranger, hero
):
    damage_url = reverse("mechanics:health_damage", args=[hero.campaign_id, hero.pk])
    data = {"damage-amount": 3, "damage-reason": "Caída"}
    for outsider, status in ((stranger, 404), (player, 403)):
        client.force_login(outsider)
        assert client.post(damage_url, data, **HTMX).status_code == status
    assert not HealthEvent.objects.exists()
    client.force_login(gm)
    response = client.post(damage_url, data, **HTMX)
    assert response.status_code == 200
    assert HealthEvent.objects.get().summary == "−3 PV"
    assert hit_points(response.text) == "7/10"
    client.force_login(player)
    assert hit_points(client.get(sheet_url(hero)).text) == "7/10"


def test_the_gm_grades_a_scene_of_the_new_system_with_its_own_rubric(
    client, gm, player, stranger, table, hero
):
    table.xp_rubric = True
    table.save(update_fields=["xp_rubric"])
    scene = chronicle_services.scene_create(campaign=table, title="El desván", participants=[hero])
    award_url = reverse("characters:scene_xp", args=[table.pk, scene.pk])
    for outsider, status in ((stranger, 404), (player, 403)):
        client.force_login(outsider)
        assert client.get(award_url).status_code == status
    client.force_login(gm)
    panel = client.get(award_url).text
    assert f'name="c{hero.pk}-feats"' in panel
    assert "Hazañas" in panel
    graded = {"action": "award", f"c{hero.pk}-include": "on", f"c{hero.pk}-feats": "2"}
    assert client.post(award_url, graded).status_code == 302
    entry = XpEntry.objects.get()
    assert (entry.amount, entry.breakdown["rubric"]) == (3, {"feats": 2})
    ledger = client.get(reverse("characters:xp", args=[table.pk, hero.pk])).text
    assert re.search(r"Hazañas <strong>2</strong>", ledger)


def test_a_campaign_of_a_system_without_a_rubric_grades_with_one_a_seed_declares(table, toy):
    toy.scene_rubric = None  # the instance's own: the class keeps its rubric
    table.xp_rubric = True
    assert table.scene_rubric is not None
    assert table.scene_rubric in [s.scene_rubric for s in all_systems() if s is not toy]
    table.xp_rubric = False
    assert table.scene_rubric is None


def test_a_rating_drawn_as_a_number_is_read_with_the_systems_name_for_it(
    client, gm, hero, toy, monkeypatch
):
    luck = TraitSpec("suerte", "Suerte", "attribute", "Atributos", 0, 20)
    monkeypatch.setattr(toy, "trait_specs", lambda campaign: (BODY, luck))
    monkeypatch.setattr(toy, "rating_name", "")
    client.force_login(gm)
    page = client.get(sheet_url(hero)).text
    assert '<span class="visually-hidden">Suerte </span>' in page
    assert "NdP" not in page
