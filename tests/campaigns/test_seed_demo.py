from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from campaigns.models import Campaign, Membership
from mechanics.systems.registry import all_systems

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_one_campaign_per_system_with_a_gm_and_two_players():
    call_command("seed_demo", stdout=StringIO())
    assert sorted(Campaign.objects.values_list("system", flat=True)) == sorted(
        system.key for system in all_systems()
    )
    for campaign in Campaign.objects.all():
        roles = sorted(campaign.memberships.values_list("role", flat=True))
        assert roles == ["gm", "player", "player"]
    # Each demo user signs in with the demo's password (hashed once for the three).
    for username in ("master", "ana", "bruno"):
        assert User.objects.get(username=username).check_password("cronica-demo")


def test_seed_demo_is_idempotent():
    call_command("seed_demo", stdout=StringIO())
    counts = (User.objects.count(), Campaign.objects.count(), Membership.objects.count())
    call_command("seed_demo", stdout=StringIO())
    assert (User.objects.count(), Campaign.objects.count(), Membership.objects.count()) == counts


def test_seed_demo_for_one_system_seeds_its_campaign_alone_and_the_rest_can_follow():
    call_command("seed_demo", system=["hitos"], stdout=StringIO())
    hitos = Campaign.objects.get()
    assert hitos.system == "hitos"
    assert hitos.characters.count() == 2
    assert hitos.stories.exists()
    call_command("seed_demo", "--system", "ndp", "--system", "objetivo", stdout=StringIO())
    assert sorted(Campaign.objects.values_list("system", flat=True)) == [
        "hitos",
        "ndp",
        "objetivo",
    ]
    call_command("seed_demo", stdout=StringIO())
    assert Campaign.objects.count() == len(all_systems())
    assert Campaign.objects.get(system="hitos") == hitos
    assert hitos.characters.count() == 2


def test_seed_demo_refuses_a_system_it_does_not_know():
    with pytest.raises(CommandError, match="nosuch"):
        call_command("seed_demo", "--system", "nosuch", stdout=StringIO())
    assert not Campaign.objects.exists()


def test_seed_demo_gives_each_campaign_two_complete_characters():
    from characters.models import Character, Item, SheetChange
    from characters.services import ratings_of
    from mechanics.systems.registry import get_system

    call_command("seed_demo", stdout=StringIO())
    for campaign in Campaign.objects.all():
        characters = list(campaign.characters.select_related("owner").order_by("owner__username"))
        assert [c.owner.username for c in characters] == ["ana", "bruno"]
        system = get_system(campaign.system)
        for character in characters:
            ratings = ratings_of(character)
            specs = system.trait_specs(campaign)
            assert {spec.key for spec in specs} <= set(ratings)
            assert any(ratings[s.key] > s.minimum for s in specs if s.kind == "skill")
            assert character.concept
            assert character.description
            assert character.resources.exists()
            assert character.changes.filter(field="created").exists()
            # What the sheet shows can be worked out from what was stored.
            system.derived(ratings, character.details, campaign.rules, character.items.all())
            system.health_view(character.health, ratings, character.details, campaign.rules)
    tinieblas = Character.objects.filter(campaign__system="tinieblas")
    for character in tinieblas:
        assert set(character.details) >= {"virtue", "vice", "tamano"}
        assert character.specialties.count() == 3
        assert sum(character.merits.values_list("rating", flat=True)) == 7
        assert not character.approved_over_budget
        system = get_system("tinieblas")
        merits = [(m.key, m.name, m.rating) for m in character.merits.all()]
        specialties = list(character.specialties.values_list("skill_key", "name"))
        problems = system.creation_problems(
            ratings_of(character), character.details, specialties, merits
        )
        assert problems == []
    for character in Character.objects.filter(campaign__system="hitos"):
        kinds = list(character.aspects.values_list("kind", flat=True))
        assert kinds.count("hito") == 4
        assert {"concepto", "cita", "complicacion"} <= set(kinds)
    for character in Character.objects.filter(campaign__system="ndp"):
        kinds = set(character.items.values_list("kind", flat=True))
        assert kinds == set(Item.Kind.values)
    for character in Character.objects.filter(campaign__system="objetivo"):
        assert character.details["specialization"] in ratings_of(character)
    # The sheets are their players' own: the GM's hand shows only in what play gained
    # (NdP's PdP from the rolls of the demo's chronicle, initiative included).
    by_gm = SheetChange.objects.filter(user__username="master")
    assert not by_gm.exclude(field__startswith="pdp:").exists()


def test_seed_demo_twice_creates_no_second_set_of_characters():
    from characters.models import Character, Item, SheetChange, Trait

    call_command("seed_demo", stdout=StringIO())
    counts = (
        Character.objects.count(),
        Trait.objects.count(),
        Item.objects.count(),
        SheetChange.objects.count(),
    )
    call_command("seed_demo", stdout=StringIO())
    assert counts[0] == 8
    assert (
        Character.objects.count(),
        Trait.objects.count(),
        Item.objects.count(),
        SheetChange.objects.count(),
    ) == counts
