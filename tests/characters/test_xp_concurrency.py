"""Concurrent XP writes: the balance never goes negative and nothing is spent twice.

Real threads, each with its own database connection, started together by a barrier.
Runs on PostgreSQL (row locks), e.g.
`scripts/with-postgres.sh .venv/bin/pytest tests/characters/test_xp_concurrency.py`,
and on SQLite, whose test database is a file with the site's WAL journal, IMMEDIATE
transactions and busy timeout: writers queue as they do in production.
"""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import OperationalError, close_old_connections, connection

from campaigns.models import Scene
from characters import services
from characters.advancement import PurchaseSpec
from characters.models import Character, Specialty, Trait, XpEntry, XpPurchase
from mechanics.rules.tinieblas.advancement import SceneAward
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(calls):
    """Run each call in its own thread at the same moment; return results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the test inspects what each thread got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    close_old_connections()
    return results


@pytest.fixture
def sheet():
    gm = UserFactory(username="alice")
    player = UserFactory(username="bob")
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(
        campaign,
        player,
        name="Lucía",
        ratings={"sigilo": 1, "pelea": 1, "atletismo": 1, "callejeo": 1, "fuerza": 2},
    )
    return gm, player, character


def balance(character) -> int:
    return Character.objects.get(pk=character.pk).xp_balance


def ledger_sum(character) -> int:
    return sum(XpEntry.objects.filter(character=character).values_list("amount", flat=True))


def assert_consistent(character):
    """The stored balance equals the ledger, and each entry's balance_after adds up."""
    running = 0
    for entry in XpEntry.objects.filter(character=character).order_by("created_at", "pk"):
        running += entry.amount
        assert entry.balance_after == running
    assert balance(character) == running == ledger_sum(character)


def test_concurrent_spends_never_take_the_balance_below_zero(sheet):
    gm, player, character = sheet
    services.xp_adjust(character=character, user=gm, amount=10, reason="Inicial")
    skills = ["sigilo", "pelea", "atletismo", "callejeo"]  # 1 → 2 costs 3 XP each
    results = run_together(
        [
            lambda key=key: services.xp_spend(
                character=character, user=player, purchase=PurchaseSpec("skill", key)
            )
            for key in skills
        ]
    )
    spent = [r for r in results if isinstance(r, XpEntry)]
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert not [r for r in results if isinstance(r, OperationalError)]
    assert len(spent) == 3
    assert len(refused) == 1
    assert balance(character) == 1
    raised = Trait.objects.filter(character=character, key__in=skills, rating=2).count()
    assert raised == 3
    assert_consistent(character)


def test_the_same_purchase_sent_twice_at_once_is_applied_once(sheet):
    gm, player, character = sheet
    services.xp_adjust(character=character, user=gm, amount=20, reason="Inicial")
    spec = PurchaseSpec("attribute", "fuerza")
    results = run_together(
        [
            lambda: services.xp_spend(
                character=character, user=player, purchase=spec, expected_cost=10
            )
            for _ in range(3)
        ]
    )
    assert sum(isinstance(r, XpEntry) for r in results) == 1
    assert sum(isinstance(r, ValidationError) for r in results) == 2
    assert Trait.objects.get(character=character, key="fuerza").rating == 3
    assert balance(character) == 10
    assert_consistent(character)


def test_the_same_specialty_bought_twice_at_once_is_bought_once(sheet):
    gm, player, character = sheet
    services.xp_adjust(character=character, user=gm, amount=20, reason="Inicial")
    spec = PurchaseSpec("specialty", "sigilo", "Tejados")
    results = run_together(
        [lambda: services.xp_spend(character=character, user=player, purchase=spec)] * 2
    )
    assert sum(isinstance(r, XpEntry) for r in results) == 1
    assert Specialty.objects.filter(character=character, name="Tejados").count() == 1
    assert balance(character) == 17
    assert_consistent(character)


def test_approving_a_purchase_twice_at_once_applies_it_once(sheet):
    gm, player, character = sheet
    services.xp_adjust(character=character, user=gm, amount=20, reason="Inicial")
    purchase = services.xp_purchase_request(
        character=character,
        user=player,
        purchase=PurchaseSpec("attribute", "fuerza"),
        apply_now=False,
    )
    results = run_together([lambda: services.xp_purchase_approve(purchase=purchase, user=gm)] * 2)
    assert sum(isinstance(r, XpPurchase) for r in results) == 1
    assert XpEntry.objects.filter(character=character, kind="spend").count() == 1
    assert balance(character) == 10
    assert_consistent(character)


def test_an_award_and_a_spend_at_once_keep_the_ledger_consistent(sheet):
    gm, player, character = sheet
    scene = Scene.objects.create(campaign=character.campaign, title="Azoteas")
    scene.participants.set([character])
    services.xp_adjust(character=character, user=gm, amount=3, reason="Inicial")
    award = SceneAward(interpretacion=2, ideas=2)
    results = run_together(
        [
            lambda: services.scene_award_xp(scene=scene, user=gm, awards={character.pk: award}),
            lambda: services.xp_spend(
                character=character, user=player, purchase=PurchaseSpec("skill", "sigilo")
            ),
            lambda: services.scene_award_xp(scene=scene, user=gm, awards={character.pk: award}),
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)]
    # Two identical submits of the panel award once.
    assert XpEntry.objects.filter(character=character, scene=scene).count() == 1
    assert balance(character) == 3 + 5 - 3
    assert_consistent(character)
