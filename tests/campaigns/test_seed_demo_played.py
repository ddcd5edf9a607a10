"""`seed_demo` leaves each campaign with a chronicle already played through the services:
every page a new group opens first shows something, running it again adds nothing, and the
history chains it writes verify."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership, SceneNote
from characters.models import DiaryEntry, XpEntry, XpPurchase
from mechanics.models import Combat, HealthEvent, Roll, SavedRoll
from mechanics.systems.registry import all_systems
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _seeded(module_rows):
    with module_rows.unblock():
        call_command("seed_demo", stdout=StringIO())


@pytest.fixture
def demo(_seeded, db):
    return {c.system: c for c in Campaign.objects.all()}


def test_each_demo_campaign_has_a_story_of_three_scenes_one_closed(demo):
    assert set(demo) == {system.key for system in all_systems()}
    for campaign in demo.values():
        [story] = campaign.stories.all()
        scenes = list(story.scenes.order_by("pk"))
        assert len(scenes) == 3
        assert [scene.closed_at is not None for scene in scenes] == [True, False, False]


def test_each_demo_campaign_has_diaries_published_and_draft_and_a_gm_note(demo):
    for campaign in demo.values():
        diaries = DiaryEntry.objects.filter(scene__campaign=campaign)
        statuses = list(diaries.values_list("status", flat=True))
        assert statuses.count(DiaryEntry.Status.PUBLISHED) == 2
        assert statuses.count(DiaryEntry.Status.DRAFT) == 2
        assert SceneNote.objects.filter(scene__campaign=campaign).count() == 1


def test_each_demo_campaign_has_about_thirty_rolls_of_every_kind_one_secret(demo):
    for system in all_systems():
        rolls = Roll.objects.filter(campaign=demo[system.key])
        assert 25 <= rolls.count() <= 40
        kinds = set(rolls.values_list("kind", flat=True))
        assert {kind for kind, _label in system.roll_form.kinds} | {"initiative"} <= kinds
        assert rolls.filter(secret=True).count() == 1
        # Honest dice: the outcomes differ, as thrown dice do.
        assert rolls.values("outcome").distinct().count() > 1


def test_each_demo_campaign_has_a_wound_healing_rubric_xp_and_a_fight(demo):
    for campaign in demo.values():
        events = HealthEvent.objects.filter(character__campaign=campaign)
        assert set(events.values_list("kind", flat=True)) == {"damage", "time"}
        awards = XpEntry.objects.filter(character__campaign=campaign, scene__isnull=False)
        assert awards.count() == 2
        assert all("rubric" in entry.breakdown for entry in awards)
        combat = Combat.objects.get(scene__campaign=campaign)
        assert combat.is_active
        assert SavedRoll.objects.filter(character__campaign=campaign).count() == 2


def test_the_demo_rolls_each_two_sided_kind_its_system_has_through_the_gm_form(demo):
    for system in all_systems():
        kinds = system.roll_setup.opposed_kinds
        rolls = Roll.objects.filter(campaign=demo[system.key])
        for kind in kinds:
            # Both sides of one roll: one row per character, sharing a group.
            row_kinds = {"teamwork": {"teamwork", "teamwork_helper"}}.get(kind, {kind})
            sides = rolls.filter(kind__in=row_kinds)
            assert sides.exists(), (system.key, kind)
            [group] = set(sides.values_list("group", flat=True))
            assert group is not None
            assert sides.values("character").distinct().count() == 2, (system.key, kind)
            assert all(roll.label and roll.scene_id for roll in sides)
    systems = {key for key, c in demo.items() if c.game_system.roll_setup.opposed_kinds}
    assert systems == {"tinieblas", "ndp", "objetivo"}


def test_each_demo_campaign_that_buys_with_xp_has_a_spend_waiting_for_the_gm(demo):
    pending = XpPurchase.objects.filter(status="pending")
    buying = {
        key
        for key, campaign in demo.items()
        if campaign.game_system.advancement is not None
        and campaign.game_system.advancement.available(campaign)
    }
    # NdP improves by use (PdP) and Dado objetivo has no purchases: nothing to approve.
    assert buying == {"tinieblas", "hitos"}
    assert set(pending.values_list("character__campaign__system", flat=True)) == buying
    for key in buying:
        purchase = pending.get(character__campaign=demo[key])
        client = Client()
        client.force_login(demo[key].memberships.get(user__username="master").user)
        page = parse(client.get(reverse("characters:xp_log", args=[demo[key].pk])).content)
        waiting = page.one(id="pending")
        assert purchase.character.name in waiting.text(), key
        assert waiting.find_all("li", data_purchase="pending"), key


def test_no_demo_spend_waits_in_a_campaign_that_does_not_ask_for_approval(demo):
    """A spend waits for the GM only where the campaign asks for approval (the site never
    leaves one otherwise): there the player's XP page says so and offers to ask the GM."""
    pending = XpPurchase.objects.filter(status="pending").select_related("character__campaign")
    assert pending.exists()
    for purchase in pending:
        campaign = purchase.character.campaign
        assert campaign.xp_purchases_need_approval, campaign.system
        client = Client()
        client.force_login(purchase.character.owner)
        url = reverse("characters:xp", args=[campaign.pk, purchase.character.pk])
        page = client.get(url).text
        assert "En esta campaña el máster aprueba cada compra" in page, campaign.system


def test_the_pages_of_a_first_login_all_show_something(demo):
    for campaign in demo.values():
        current = campaign.scenes.filter(closed_at__isnull=True).order_by("pk").first()
        for username in ("master", "ana"):
            client = Client()
            client.force_login(campaign.memberships.get(user__username=username).user)
            chronicle = client.get(reverse("campaigns:timeline", args=[campaign.pk]))
            assert campaign.stories.get().title in chronicle.text
            assert current.title in chronicle.text
            xp = parse(client.get(reverse("characters:xp_log", args=[campaign.pk])).content)
            assert xp.one("figure", class_="xp-chart").find_all("svg"), (campaign, username)
            # A player's log shows the sheets they may see: theirs at least.
            ledger = xp.one(id="ledger").text()
            mine = campaign.characters.filter(owner__username="ana").get().name
            assert mine in ledger, (campaign, username)
            log = client.get(reverse("mechanics:log", args=[campaign.pk]))
            labels = Roll.objects.filter(campaign=campaign, secret=False).exclude(label="")
            assert labels.first().label in log.text
            fight = client.get(
                reverse("mechanics:combat", args=[campaign.pk, current.pk]), follow=True
            )
            names = campaign.characters.values_list("name", flat=True)
            assert all(name in fight.text for name in names), (campaign, username)


def test_running_seed_demo_again_adds_nothing(demo):
    models = (Roll, XpEntry, XpPurchase, HealthEvent, DiaryEntry, SceneNote, Combat, SavedRoll)
    before = [model.objects.count() for model in models]
    call_command("seed_demo", stdout=StringIO())
    assert [model.objects.count() for model in models] == before


def test_the_history_chains_of_the_demo_verify(demo):
    out = StringIO()
    call_command("verify_history", stdout=out)
    assert out.getvalue().count(": OK:") == len(demo)


def test_seed_demo_creates_one_campaign_per_system_with_a_gm_and_two_players(demo):
    assert sorted(Campaign.objects.values_list("system", flat=True)) == sorted(
        system.key for system in all_systems()
    )
    for campaign in Campaign.objects.all():
        roles = sorted(campaign.memberships.values_list("role", flat=True))
        assert roles == ["gm", "player", "player"]
    # Each demo user signs in with the demo's password (hashed once for the three).
    for username in ("master", "ana", "bruno"):
        assert User.objects.get(username=username).check_password("cronica-demo")


def test_seed_demo_is_idempotent(demo):
    counts = (User.objects.count(), Campaign.objects.count(), Membership.objects.count())
    call_command("seed_demo", stdout=StringIO())
    assert (User.objects.count(), Campaign.objects.count(), Membership.objects.count()) == counts


def test_seed_demo_gives_each_campaign_two_complete_characters(demo):
    from characters.models import Character, Item, SheetChange
    from characters.services import ratings_of
    from mechanics.systems.registry import get_system

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


def test_seed_demo_twice_creates_no_second_set_of_characters(demo):
    from characters.models import Character, Item, SheetChange, Trait

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
