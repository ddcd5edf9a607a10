"""History that survives someone with database access (issue 25): the chains are keyed
with an HMAC whose key is not in the database, and the hash covers every column that
matters, the links included, as they were written.

Runs on SQLite and, through scripts/with-postgres.sh, on PostgreSQL. The tests that drop
a trigger run inside the test's transaction, which puts it back.
"""

import hashlib
import hmac
import importlib
import json

import pytest
from django.apps import apps as django_apps
from django.db import IntegrityError, connection, transaction

from campaigns.history import GENESIS, canonical, history_key
from campaigns.models import Campaign, CampaignDeletion
from characters.models import XpEntry
from mechanics.models import HealthEvent, Roll
from tests.factories import CampaignFactory, UserFactory, make_character
from tests.mechanics_web.rolls import make_scene
from tests.test_history import TABLES, drop_triggers, execute, play, rows, verify


@pytest.fixture
def history(campaign, gm, player):
    play(campaign, gm, player)
    return campaign


def sha256(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def rewrite_unkeyed(model, campaign, edited_pk: int, hasher) -> None:
    """What someone with the database but not the key can do: hash the edited row and
    every row after it again, with a hash of their own."""
    previous = GENESIS
    for row in rows(model, campaign):
        if row.pk >= edited_pk:
            content = hasher(canonical(row))
            link = hasher((previous + content).encode())
            execute(
                f'UPDATE "{TABLES[model]}" SET content_hash = %s, chain_hash = %s WHERE id = %s',
                [content, link, row.pk],
            )
            previous = link
        else:
            previous = row.chain_hash


@pytest.mark.django_db
@pytest.mark.parametrize("scheme", ["sha256", "another_key"])
def test_a_row_edited_and_rehashed_to_the_end_of_its_chain_without_the_key_is_named(
    history, settings, scheme
):
    drop_triggers(Roll)
    target = rows(Roll, history)[1]
    execute("UPDATE mechanics_roll SET result = 99 WHERE id = %s", [target.pk])
    if scheme == "sha256":
        rewrite_unkeyed(Roll, history, target.pk, sha256)
    else:
        guess = b"not the key"
        rewrite_unkeyed(
            Roll, history, target.pk, lambda text: hmac.new(guess, text, "sha256").hexdigest()
        )

    ok, out = verify()

    assert not ok
    assert f"BROKEN at mechanics.Roll id {target.pk}: edited" in out


@pytest.mark.django_db
def test_the_key_is_outside_the_database_and_changing_it_breaks_every_chain(history, settings):
    assert verify()[0]
    settings.CRONICA_HISTORY_KEY = "another key altogether"
    ok, out = verify()
    assert not ok
    assert "BROKEN at mechanics.Roll" in out


@pytest.mark.django_db
def test_without_a_history_key_the_key_comes_from_the_secret_key(settings):
    settings.CRONICA_HISTORY_KEY = ""
    derived = history_key()
    settings.SECRET_KEY = "another secret"
    assert history_key() != derived
    settings.CRONICA_HISTORY_KEY = "kept apart"
    assert history_key() == b"kept apart"


# --- Every column that matters ------------------------------------------------------------


def other_target(column, history, player):
    if column == "character_id":
        return make_character(history, player, name="Otra").pk
    if column == "scene_id":
        return make_scene(history).pk
    return UserFactory(username="mallory").pk


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("model", "column"),
    [
        (Roll, "character_id"),
        (Roll, "user_id"),
        (Roll, "scene_id"),
        (XpEntry, "created_by_id"),
        (XpEntry, "scene_id"),
        (HealthEvent, "created_by_id"),
        (HealthEvent, "scene_id"),
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
def test_pointing_a_row_at_another_character_scene_or_author_is_named(
    history, player, model, column
):
    target = rows(model, history)[1]
    new = other_target(column, history, player)
    drop_triggers(model)
    execute(f'UPDATE "{TABLES[model]}" SET "{column}" = %s WHERE id = %s', [new, target.pk])

    ok, out = verify()

    assert not ok
    assert f"BROKEN at {model._meta.label} id {target.pk}: edited: {column}" in out


@pytest.mark.django_db
def test_the_links_as_written_cannot_be_changed_while_the_triggers_stand(history):
    roll = rows(Roll, history)[0]
    assert roll.links == {
        "character_id": roll.character_id,
        "scene_id": roll.scene_id,
        "user_id": roll.user_id,
    }
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        execute(
            "UPDATE mechanics_roll SET links = %s WHERE id = %s",
            [json.dumps({"character_id": None}), roll.pk],
        )


@pytest.mark.django_db
def test_rows_unlinked_by_deletions_still_verify_and_keep_the_ids_they_were_written_with(
    history, gm
):
    scene = history.scenes.get()
    scene_id, roll = scene.pk, rows(Roll, history)[0]
    scene.delete()
    roll.refresh_from_db()
    assert roll.scene_id is None
    assert roll.links["scene_id"] == scene_id
    assert verify()[0]


# --- The data migration -------------------------------------------------------------------


class Editor:
    """Enough of a schema editor for the migration's RunPython, inside the test's
    transaction (SQLite's own refuses to open in one)."""

    connection = connection

    def execute(self, sql, params=None):
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def make_old_scheme(model, campaign) -> None:
    """The rows as the previous scheme left them: no links, unkeyed SHA-256 hashes."""
    fields = model.HISTORY_FIELDS
    previous = GENESIS
    for row in rows(model, campaign):
        row.links = None
        content = sha256(canonical(row, fields, ()))
        previous = sha256((previous + content).encode())
        execute(
            f'UPDATE "{TABLES[model]}" SET links = NULL, content_hash = %s, chain_hash = %s '
            "WHERE id = %s",
            [content, previous, row.pk],
        )


@pytest.mark.django_db
def test_the_migration_hashes_existing_chains_again_and_puts_the_triggers_back(history):
    for model in TABLES:
        drop_triggers(model)
        make_old_scheme(model, history)
    assert not verify()[0]

    for app, name in (("mechanics", "0011_history_links"), ("characters", "0013_history_links")):
        migration = importlib.import_module(f"{app}.migrations.{name}")
        migration.forward(django_apps, Editor())

    ok, out = verify()
    assert ok, out
    assert rows(Roll, history)[0].links is not None
    for model in TABLES:
        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            execute(f'UPDATE "{TABLES[model]}" SET links = NULL')


# --- The deleting mark --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_deleting_mark_cannot_be_set_by_hand_so_the_history_stays(history):
    with pytest.raises(IntegrityError, match="only deleting the campaign"), transaction.atomic():
        Campaign._base_manager.filter(pk=history.pk).update(deleting=True)
    with pytest.raises(IntegrityError, match="only deleting the campaign"), transaction.atomic():
        execute("UPDATE campaigns_campaign SET deleting = %s WHERE id = %s", [True, history.pk])
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        execute("DELETE FROM mechanics_roll WHERE campaign_id = %s", [history.pk])
    assert Roll.objects.filter(campaign=history).count() == 3


@pytest.mark.django_db
def test_a_campaign_cannot_be_created_already_marked(gm):
    with pytest.raises(IntegrityError, match="only deleting the campaign"), transaction.atomic():
        CampaignFactory(created_by=gm, deleting=True)


@pytest.mark.django_db(transaction=True)
def test_a_deletion_mark_that_would_outlive_its_transaction_fails_the_commit():
    gm, player = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(created_by=gm)
    play(campaign, gm, player, rounds=1)

    def forge_the_mark_and_delete_the_rolls():
        with transaction.atomic():
            CampaignDeletion.objects.create(campaign=campaign)
            Campaign._base_manager.filter(pk=campaign.pk).update(deleting=True)
            execute("DELETE FROM mechanics_roll WHERE campaign_id = %s", [campaign.pk])

    # The commit fails: the CampaignDeletion row is still there, the campaign too.
    with pytest.raises(IntegrityError):
        forge_the_mark_and_delete_the_rolls()
    assert Campaign.objects.get(pk=campaign.pk).deleting is False
    assert Roll.objects.filter(campaign=campaign).count() == 1
    assert not CampaignDeletion.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_deleting_a_campaign_still_takes_its_history_and_leaves_no_mark_behind():
    gm, player = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(created_by=gm)
    play(campaign, gm, player, rounds=1)
    campaign.delete()
    assert not Roll.objects.exists()
    assert not CampaignDeletion.objects.exists()
