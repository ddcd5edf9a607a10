"""The past cannot be rewritten unseen (issue 12): rolls, XP entries and health events are
refused any change by the database itself, and each campaign's chains of hashes show a
row that was edited, removed or put out of order once the triggers are dropped.

Runs on SQLite and, through scripts/with-postgres.sh, on PostgreSQL. The tests that drop
a trigger run inside the test's transaction, which puts it back.
"""

import threading
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.db.models.signals import post_delete

from campaigns.history import GENESIS, chain_link, content_hash, trigger_sql
from campaigns.models import Campaign
from characters import services as xp_services
from characters.models import XpEntry
from mechanics.models import HealthEvent, Roll
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.mechanics_web.rolls import make_scene, store_roll

TABLES = {
    Roll: "mechanics_roll",
    XpEntry: "characters_xpentry",
    HealthEvent: "characters_healthevent",
}
COLUMN = {Roll: "result", XpEntry: "reason", HealthEvent: "summary"}


def play(campaign, gm, player, *, rounds=3):
    """A few rounds of play: each round a roll, an XP award and a wound."""
    character = make_character(campaign, player, name="Lucía")
    scene = make_scene(campaign)
    for number in range(rounds):
        store_roll(campaign, player, character=character, scene=scene, seed=number)
        xp_services.xp_adjust(character=character, user=gm, amount=2, reason=f"Sesión {number}")
        health_services.character_apply_damage(
            character=character, user=gm, damage=DamageInput(1, "L"), scene=scene
        )
    return character, scene


def verify(*args) -> tuple[bool, str]:
    out = StringIO()
    try:
        call_command("verify_history", *args, stdout=out)
    except CommandError:
        return False, out.getvalue()
    return True, out.getvalue()


def drop_triggers(model) -> None:
    with connection.cursor() as cursor:
        for statement in trigger_sql(connection.vendor, TABLES[model], (), ())[1]:
            cursor.execute(statement)


def execute(sql: str, params=()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def rows(model, campaign):
    return list(model._base_manager.filter(campaign=campaign).order_by("chain_seq"))


@pytest.fixture
def history(campaign, gm, player):
    play(campaign, gm, player)
    return campaign


# --- The chain ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_new_row_follows_the_one_before_it_in_its_campaigns_chain(history):
    for model in TABLES:
        chain = rows(model, history)
        assert [row.chain_seq for row in chain] == list(range(1, len(chain) + 1))
        previous = GENESIS
        for row in chain:
            assert row.content_hash == content_hash(row)
            assert row.chain_hash == chain_link(previous, row.content_hash)
            previous = row.chain_hash
    ok, out = verify()
    assert ok, out
    assert f"Campaign {history.pk} ({history.name}): OK" in out
    for counted in ("Roll 3", "XpEntry 3", "HealthEvent 3"):
        assert counted in out


@pytest.mark.django_db
def test_each_campaign_has_its_own_chains(history, gm, player):
    other = CampaignFactory(created_by=gm)
    play(other, gm, player, rounds=1)
    assert [r.chain_seq for r in rows(Roll, other)] == [1]
    assert verify()[0]
    ok, out = verify("--campaign", str(other.pk))
    assert ok
    assert f"Campaign {other.pk} " in out
    assert f"Campaign {history.pk} " not in out


@pytest.mark.django_db
def test_verify_history_refuses_a_campaign_that_does_not_exist():
    with pytest.raises(CommandError, match="There is no campaign 404"):
        call_command("verify_history", "--campaign", "404", stdout=StringIO())


# --- Tampering, once the triggers are gone ------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("model", list(TABLES), ids=lambda m: m.__name__)
def test_a_row_edited_with_sql_is_named(history, model):
    drop_triggers(model)
    target = rows(model, history)[1]
    column = COLUMN[model]
    value = 99 if column == "result" else "Reescrito"
    execute(f'UPDATE "{TABLES[model]}" SET "{column}" = %s WHERE id = %s', [value, target.pk])

    ok, out = verify()

    assert not ok
    assert f"BROKEN at {model._meta.label} id {target.pk}: edited" in out


@pytest.mark.django_db
def test_a_row_edited_with_its_hash_rewritten_is_named(history):
    drop_triggers(Roll)
    target = rows(Roll, history)[1]
    execute("UPDATE mechanics_roll SET result = 99 WHERE id = %s", [target.pk])
    edited = Roll._base_manager.get(pk=target.pk)
    execute(
        "UPDATE mechanics_roll SET content_hash = %s WHERE id = %s",
        [content_hash(edited), target.pk],
    )
    ok, out = verify()
    assert not ok
    assert f"BROKEN at mechanics.Roll id {target.pk}: edited or inserted out of order" in out


@pytest.mark.django_db
def test_a_row_deleted_with_sql_is_named_by_the_row_after_the_gap(history):
    drop_triggers(XpEntry)
    chain = rows(XpEntry, history)
    execute("DELETE FROM characters_xpentry WHERE id = %s", [chain[1].pk])

    ok, out = verify()

    assert not ok
    assert f"BROKEN at characters.XpEntry id {chain[2].pk}: removed: position 2" in out


@pytest.mark.django_db
def test_two_rows_swapped_with_sql_are_found_out_of_order(history):
    drop_triggers(HealthEvent)
    first, second = rows(HealthEvent, history)[:2]
    table = TABLES[HealthEvent]
    execute(f"UPDATE {table} SET chain_seq = 1000 WHERE id = %s", [first.pk])
    execute(f"UPDATE {table} SET chain_seq = 1 WHERE id = %s", [second.pk])
    execute(f"UPDATE {table} SET chain_seq = 2 WHERE id = %s", [first.pk])

    ok, out = verify("--campaign", str(history.pk))

    assert not ok
    assert f"BROKEN at mechanics.HealthEvent id {second.pk}: " in out
    assert "out of order" in out


@pytest.mark.django_db
def test_a_break_in_one_campaign_leaves_the_others_ok(history, gm, player):
    other = CampaignFactory(name="Intacta", created_by=gm)
    play(other, gm, player, rounds=1)
    drop_triggers(Roll)
    execute("UPDATE mechanics_roll SET label = 'x' WHERE campaign_id = %s", [history.pk])
    ok, out = verify()
    assert not ok
    assert f"Campaign {other.pk} (Intacta): OK" in out
    assert verify("--campaign", str(other.pk))[0]


# --- The triggers -------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("model", list(TABLES), ids=lambda m: m.__name__)
def test_the_database_refuses_a_raw_update(history, model):
    target = rows(model, history)[0]
    column = COLUMN[model]
    value = 99 if column == "result" else "Reescrito"
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        execute(f'UPDATE "{TABLES[model]}" SET "{column}" = %s WHERE id = %s', [value, target.pk])
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        model._base_manager.filter(pk=target.pk).update(
            created_at=target.created_at.replace(year=2000)
        )
    assert verify()[0]


@pytest.mark.django_db
@pytest.mark.parametrize("model", list(TABLES), ids=lambda m: m.__name__)
def test_the_database_refuses_a_raw_delete(history, model):
    target = rows(model, history)[0]
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        execute(f'DELETE FROM "{TABLES[model]}" WHERE id = %s', [target.pk])
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        model._base_manager.filter(pk=target.pk)._raw_delete(connection.alias)
    assert model._base_manager.filter(pk=target.pk).exists()


@pytest.mark.django_db
def test_the_database_refuses_pointing_a_link_at_another_row(history, gm, player):
    roll = rows(Roll, history)[0]
    other = make_character(history, player, name="Otra")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        execute("UPDATE mechanics_roll SET character_id = %s WHERE id = %s", [other.pk, roll.pk])


# --- What may still happen ----------------------------------------------------------------


@pytest.mark.django_db
def test_deleting_a_scene_or_a_user_unlinks_the_history_and_keeps_it_valid(history, gm, player):
    history.scenes.get().delete()
    assert not Roll.objects.filter(scene__isnull=False).exists()
    assert not HealthEvent.objects.filter(scene__isnull=False).exists()
    get_user_model().objects.filter(pk=gm.pk).delete()
    assert not XpEntry.objects.filter(created_by__isnull=False).exists()
    ok, out = verify()
    assert ok, out


@pytest.mark.django_db
def test_a_character_without_history_can_be_deleted_and_its_rolls_stay(campaign, player):
    character = make_character(campaign, player, name="Breve")
    roll = store_roll(campaign, player, character=character)
    character.delete()
    assert Roll.objects.get(pk=roll.pk).character_id is None
    assert verify()[0]


@pytest.mark.django_db
@pytest.mark.parametrize("undo", [False, True], ids=["rows_first", "with_an_undo"])
def test_deleting_a_whole_campaign_takes_its_history_and_leaves_the_others(
    history, gm, player, undo
):
    # Django deletes the rows before the campaign, unless a cycle (an undo event points
    # to another event) leaves it no order: then the campaign goes first.
    if undo:
        health_services.health_event_undo(character=history.characters.get(), user=gm)
    other = CampaignFactory(created_by=gm)
    play(other, gm, player, rounds=1)
    deleted = history.pk
    history.delete()
    for model in TABLES:
        assert not model._base_manager.filter(campaign_id=deleted).exists()
        assert model._base_manager.filter(campaign=other).count() == 1
    assert not Campaign.objects.filter(deleting=True).exists()
    ok, out = verify()
    assert ok, out


@pytest.mark.django_db
def test_a_campaign_deletion_that_fails_keeps_every_row_and_no_mark(history):
    def fail(sender, **kwargs):
        raise RuntimeError("disk full")

    # Sent once the campaign's rows are gone, inside the deletion's transaction.
    post_delete.connect(fail, sender=Campaign, dispatch_uid="test_fail")
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            history.delete()
    finally:
        post_delete.disconnect(sender=Campaign, dispatch_uid="test_fail")
    assert Campaign.objects.filter(pk=history.pk, deleting=False).exists()
    assert Roll.objects.filter(campaign=history).count() == 3
    assert verify()[0]


# --- Concurrency --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_rolls_made_at_the_same_moment_keep_the_chain_linear():
    gm, player = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(campaign, player, name="Lucía")
    writers = 8
    barrier = threading.Barrier(writers)
    errors = []

    def write(number):
        try:
            barrier.wait()
            if number % 2:
                store_roll(campaign, player, character=character, seed=number)
            else:
                xp_services.xp_adjust(
                    character=character, user=gm, amount=1, reason=f"Escritor {number}"
                )
                store_roll(campaign, gm, seed=number)
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    close_old_connections()

    assert errors == []
    chain = rows(Roll, campaign)
    assert [row.chain_seq for row in chain] == list(range(1, writers + 1))
    assert [row.chain_seq for row in rows(XpEntry, campaign)] == list(range(1, writers // 2 + 1))
    ok, out = verify()
    assert ok, out
