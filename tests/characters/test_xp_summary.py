"""The XP summary (characters.XpSummary) the chart reads: after every kind of write to the
ledger, whatever its path, it holds exactly the sums of the entries, for every span."""

from __future__ import annotations

import importlib
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.db import connection

from campaigns.models import Scene
from characters import services, xp_summary
from characters.advancement import PurchaseSpec
from characters.models import XpEntry, XpPurchase, XpSummary
from characters.xp_buckets import SPANS
from mechanics.rules.tinieblas.advancement import SceneAward
from tests.factories import MembershipFactory, UserFactory, backdated, make_character

pytestmark = pytest.mark.django_db

START = datetime(2025, 3, 1, 21, 30, tzinfo=UTC)
RATINGS = {"fuerza": 2, "sigilo": 1, "pelea": 1, "investigacion": 2}


def raw_sums() -> dict:
    """The summary as it should be, summed in Python from every entry."""
    sums: dict = defaultdict(lambda: [None, None, 0, 0, 0, None, None])
    for entry in XpEntry.objects.all():
        moment, balance = entry.created_at, entry.balance_after
        for span in SPANS:
            row = sums[entry.campaign_id, entry.character_id, span, int(moment.timestamp()) // span]
            row[0] = moment if row[0] is None else min(row[0], moment)
            row[1] = moment if row[1] is None else max(row[1], moment)
            row[2] += entry.amount
            row[3] += 0 if entry.kind == XpEntry.Kind.SPEND else entry.amount
            row[4] += 1
            row[5] = balance if row[5] is None else min(row[5], balance)
            row[6] = balance if row[6] is None else max(row[6], balance)
    return {key: tuple(row) for key, row in sums.items()}


def summary() -> dict:
    return {
        (row.campaign_id, row.character_id, row.span, row.bucket): (
            row.first_at,
            row.last_at,
            row.total,
            row.earned,
            row.entries,
            row.low,
            row.peak,
        )
        for row in XpSummary.objects.all()
    }


def assert_summary_matches_the_ledger() -> None:
    expected = raw_sums()
    assert expected, "no entries to compare"
    assert summary() == expected


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings=RATINGS)


@pytest.fixture
def mateo(campaign):
    dora = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=dora, role="player")
    return make_character(campaign, dora, name="Mateo", ratings=RATINGS)


@pytest.fixture
def scene(campaign, lucia, mateo):
    scene = Scene.objects.create(campaign=campaign, title="El sótano", status="closed")
    scene.participants.set([lucia, mateo])
    return scene


def at(hours: float):
    return backdated(START + timedelta(hours=hours))


def test_the_summary_holds_the_ledgers_sums_after_every_kind_of_write(
    campaign, gm, player, scene, lucia, mateo
):
    campaign.xp_purchases_need_approval = True
    campaign.save()
    with at(0):  # a GM's bonus, and one taken back
        services.xp_adjust(character=lucia, user=gm, amount=40, reason="Inicial")
        services.xp_adjust(character=mateo, user=gm, amount=25, reason="Inicial")
    with at(0.5):
        services.xp_adjust(character=mateo, user=gm, amount=-5, reason="Error")
    assert_summary_matches_the_ledger()
    rubric = SceneAward(interpretacion=3, ideas=2)
    with at(3):  # a scene's awards, then a correction
        services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: rubric, mateo.pk: 4})
    with at(30):
        services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: rubric, mateo.pk: 6})
    assert_summary_matches_the_ledger()
    with at(24 * 9):  # a purchase applied at once
        services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"))
    assert_summary_matches_the_ledger()
    with at(24 * 40):  # purchases waiting for the GM: approved, rejected, cancelled
        approved, rejected, cancelled = (
            services.xp_purchase_request(
                character=lucia, user=player, purchase=PurchaseSpec(kind, key), apply_now=False
            )
            for kind, key in (("skill", "pelea"), ("attribute", "fuerza"), ("skill", "callejeo"))
        )
    before = summary()
    services.xp_purchase_reject(purchase=rejected, user=gm, note="No")
    services.xp_purchase_cancel(purchase=cancelled, user=player)
    assert summary() == before  # no entry, nothing summed
    with at(24 * 400):
        services.xp_purchase_approve(purchase=approved, user=gm)
    approved.refresh_from_db()
    assert approved.status == XpPurchase.Status.APPLIED
    assert_summary_matches_the_ledger()
    # Entries not made by the services (an import, a bulk load) are summed all the same.
    XpEntry.objects.bulk_create(
        [
            XpEntry(character=mateo, kind="award", amount=2, balance_after=28, created_at=START),
            XpEntry(
                character=mateo,
                kind="award",
                amount=1,
                balance_after=29,
                created_at=START + timedelta(days=800),
            ),
        ]
    )
    assert_summary_matches_the_ledger()
    assert {row.span for row in XpSummary.objects.all()} == set(SPANS)


def test_deleting_a_campaign_takes_its_summary_along(campaign, gm, lucia):
    services.xp_adjust(character=lucia, user=gm, amount=3, reason="Inicial")
    assert XpSummary.objects.filter(campaign=campaign).count() == len(SPANS)
    campaign.delete()
    assert not XpSummary.objects.exists()
    assert not XpEntry.objects.exists()


def test_the_migration_sums_the_entries_already_there_and_adds_the_trigger(
    campaign, gm, lucia, mateo
):
    """As on a site upgraded with a ledger: entries written with no summary (or summed
    without what 0018 adds) are summed by the migration, and the next entry by the
    trigger it installs."""
    with at(0):
        services.xp_adjust(character=lucia, user=gm, amount=1, reason="Antes")
    # As 0018 finds the rows 0016's trigger summed: its new columns at their default.
    XpSummary.objects.update(entries=0, low=0, peak=0)
    xp_summary.uninstall(connection)
    for hours in (2, 50, 24 * 100):
        with at(hours):
            services.xp_adjust(character=lucia, user=gm, amount=hours + 1, reason="Antes")
    services.xp_adjust(character=mateo, user=gm, amount=7, reason="Antes")
    assert XpSummary.objects.count() == len(SPANS)
    migration = importlib.import_module("characters.migrations.0018_xp_summary_range")
    # What it reads of its schema editor: the connection (SQLite's editor cannot open
    # inside the test's transaction).
    migration.summarise_the_ledgers(None, SimpleNamespace(connection=connection))
    assert_summary_matches_the_ledger()
    services.xp_adjust(character=mateo, user=gm, amount=1, reason="Después")
    assert_summary_matches_the_ledger()


def test_migrate_makes_the_trigger_again(campaign, gm, lucia):
    """A migration that rebuilds the entries' table on SQLite drops its triggers."""
    xp_summary.uninstall(connection)
    call_command("migrate", verbosity=0, stdout=StringIO())
    services.xp_adjust(character=lucia, user=gm, amount=3, reason="Inicial")
    assert_summary_matches_the_ledger()
