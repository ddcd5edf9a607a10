"""The versions the database counts (campaigns.versions): every write to any table of a
campaign bumps them, whatever path it takes, and a version never goes back."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from campaigns.history import REFUSAL
from campaigns.models import Campaign
from campaigns.versions import (
    APART_COLUMNS,
    CAMPAIGN,
    CHARACTER,
    DERIVED,
    LEDGERS,
    PROJECT_APPS,
    SEQUENCE_ONLY,
    scoped_tables,
)
from characters.models import Character, Trait
from characters.services import xp_adjust
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from tests.campaigns.test_chronicle import store_roll
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = pytest.mark.django_db


def _counters() -> dict:
    return {
        "campaigns": {
            c.pk: (c.version, c.change_seq, c.nonroll_seq, *(getattr(c, n) for n in LEDGER_SEQS))
            for c in Campaign.objects.all()
        },
        "characters": dict(Character.objects.values_list("pk", "version")),
        "grids": dict(Character.objects.values_list("pk", "grid_version")),
    }


# The rows a sheet's grid shows in a piece of its own: they leave `grid_version`. Any other
# row of a character moves it (written here, not read from campaigns.versions.APART).
HEALTH_AND_XP = {"mechanics.HealthEvent", "characters.XpEntry"}
# The ledgers' counters, each moved by new rows of its table alone (written here, not
# read from campaigns.versions.LEDGERS).
LEDGER_SEQS = ("xp_seq", "roll_seq")
# Rows of no campaign, which no campaign's page shows: a user's upload count this hour.
UNSCOPED = {"campaigns.UploadAllowance"}


def test_every_model_of_the_project_belongs_to_a_campaign():
    """A model that reached no campaign would change pages without a bump."""
    scoped = {s.model for s in scoped_tables()}
    models = {
        m for m in apps.get_models(include_auto_created=True) if m._meta.app_label in PROJECT_APPS
    }
    assert {model._meta.label for model in models - scoped} == UNSCOPED | DERIVED


def test_a_write_to_any_row_of_any_table_bumps_its_campaign_and_its_characters():
    """Table-driven over every scoped table: one row of each, written with plain SQL (no
    service, no ORM), bumps the campaign's change sequence and either the characters the
    row links to or, linking to none, the campaign's version (a roll: the sequence alone;
    tests/live/test_pages.py follows an extended action's, which bump their character);
    and the sequence but rolls for any row but a roll's, and never a ledger's counter. The
    characters' grid versions follow their versions but for health and XP rows
    (`HEALTH_AND_XP`)."""
    call_command("seed_demo", stdout=StringIO())
    missed, empty = [], []
    for scoped in scoped_tables():
        model, label = scoped.model, scoped.model._meta.label
        row = model._default_manager.order_by("pk").first()
        if row is None:
            empty.append(label)
            continue
        campaign = Campaign.objects.get(
            pk=row.pk
            if label == CAMPAIGN
            else getattr(row, "campaign_id", None) or _campaign_of(scoped, row.pk)
        )
        characters = (
            [row.pk]
            if label == CHARACTER
            else [getattr(row, c) for c in scoped.characters if getattr(row, c) is not None]
        )
        before = _counters()
        with connection.cursor() as cursor:
            pk = model._meta.pk.column
            cursor.execute(
                f'UPDATE "{scoped.table}" SET "{pk}" = "{pk}" WHERE "{pk}" = %s', [row.pk]
            )
        if not _bumped(label, before, _counters(), campaign.pk, characters):
            missed.append(label)
    assert missed == []
    # The demo leaves these tables empty; their triggers are made by the same code.
    assert set(empty) <= {
        "campaigns.CampaignDeletion",  # lives only inside a campaign's deletion
        "campaigns.Invitation",
        "campaigns.Removal",
        "campaigns.PlaySession",
        "characters.CampaignTrait",
        "characters.WillpowerGrant",
        "mechanics.NarrativeFact",
        "mechanics.SituationAspect",
        "mechanics.CombatAttack",
    }


def _bumped(label: str, before: dict, after: dict, campaign: int, characters: list) -> bool:
    """Whether a write to a row of `label` of `campaign` that links to `characters` moved
    what it must, and not what it must not (`_counters` before and after)."""
    old_version, old_seq, old_nonroll, *old_ledgers = before["campaigns"][campaign]
    new_version, new_seq, new_nonroll, *new_ledgers = after["campaigns"][campaign]
    bumped = new_seq > old_seq
    # A ledger's counter moves for its new rows alone (and the campaign's own row).
    if label != CAMPAIGN:
        bumped &= new_ledgers == old_ledgers
    if label in SEQUENCE_ONLY:
        bumped &= new_version == old_version and after["characters"] == before["characters"]
        bumped &= new_nonroll == old_nonroll
    elif characters:
        bumped &= all(after["characters"][c] > before["characters"][c] for c in characters)
        grids = [after["grids"][c] > before["grids"][c] for c in characters]
        bumped &= not any(grids) if label in HEALTH_AND_XP else all(grids)
    else:
        bumped &= new_version > old_version
    if label not in SEQUENCE_ONLY:
        bumped &= new_nonroll > old_nonroll
    return bumped


class _Undone(Exception):
    """Raised to roll a test's writes back."""


def test_deleting_a_row_of_any_table_and_adding_it_back_bumps_its_campaign_and_characters():
    """As the test above, for a row deleted and then written back (plain SQL), then rolled
    back: the paths of new and deleted rows, which PostgreSQL's triggers take for a whole
    statement at once. The append-only tables refuse the deletion; their new rows' bumps
    are tested through their services (below and tests/live)."""
    call_command("seed_demo", stdout=StringIO())
    missed, refused = [], {}
    for scoped in scoped_tables():
        model, label = scoped.model, scoped.model._meta.label
        row = model._default_manager.order_by("pk").first()
        if row is None or label == CAMPAIGN:  # a campaign's own row: nothing left to bump
            continue
        campaign = getattr(row, "campaign_id", None) or _campaign_of(scoped, row.pk)
        # A character's own row deleted or added bumps its campaign's version.
        characters = [getattr(row, c) for c in scoped.characters if getattr(row, c) is not None]
        table, pk = scoped.table, model._meta.pk.column
        try:
            with transaction.atomic():
                before = _counters()
                with connection.cursor() as cursor:
                    cursor.execute(
                        f'CREATE TEMP TABLE kept AS SELECT * FROM "{table}" WHERE "{pk}" = %s',
                        [row.pk],
                    )
                    cursor.execute(f'DELETE FROM "{table}" WHERE "{pk}" = %s', [row.pk])
                deleted = _counters()
                with connection.cursor() as cursor:
                    cursor.execute(f'INSERT INTO "{table}" SELECT * FROM kept')
                    cursor.execute("DROP TABLE kept")
                added = _counters()
                raise _Undone
        except _Undone:
            pass
        except IntegrityError as error:
            refused[label] = REFUSAL in str(error)
            continue
        for event, (old, new) in (("delete", (before, deleted)), ("insert", (deleted, added))):
            if not _bumped(label, old, new, campaign, characters):
                missed.append((label, event))
    assert missed == []
    # Refused by the append-only guard, and nothing else.
    assert refused == {
        "characters.XpEntry": True, "mechanics.HealthEvent": True, "mechanics.Roll": True,
    }  # fmt: skip


def test_a_statement_writing_rows_of_two_campaigns_bumps_both(gm, player):
    """One INSERT (and one DELETE) of traits of two characters in two campaigns: each
    character and each campaign is bumped (PostgreSQL bumps once per statement, for every
    campaign and character its rows belong to)."""
    characters = [
        make_character(campaign_with("tinieblas", gm, players=[player]), player)
        for _campaign in range(2)
    ]
    for write in (
        lambda: Trait.objects.bulk_create(
            Trait(character=c, key="test-trait", kind="skill") for c in characters
        ),
        lambda: Trait.objects.filter(key="test-trait").delete(),
    ):
        before = _counters()
        write()
        after = _counters()
        for character in characters:
            assert after["characters"][character.pk] > before["characters"][character.pk]
            campaign = character.campaign_id
            # (version, change_seq, ...): the sequence; traits leave the campaign's version.
            assert after["campaigns"][campaign][1] > before["campaigns"][campaign][1]


def _campaign_of(scoped, pk) -> int:
    sql = scoped.campaign.format(row=f'"{scoped.table}"')
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT {sql} FROM "{scoped.table}" WHERE "{scoped.model._meta.pk.column}" = %s',
            [pk],
        )
        return cursor.fetchone()[0]


def test_adding_and_removing_a_trait_bumps_its_character_and_the_campaigns_sequence(
    campaign, player
):
    character = make_character(campaign, player)
    versions = []
    for write in (
        lambda: Trait.objects.create(character=character, key="test-trait", kind="skill"),
        lambda: Trait.objects.filter(character=character, key="test-trait").delete(),
    ):
        before = Character.objects.get(pk=character.pk).version
        seq = Campaign.objects.get(pk=campaign.pk).change_seq
        write()
        assert Character.objects.get(pk=character.pk).version > before
        assert Campaign.objects.get(pk=campaign.pk).change_seq > seq
        versions.append(before)
    assert versions[0] < versions[1]


def test_the_ledgers_are_the_append_only_tables_with_a_counter_of_their_own():
    assert LEDGERS == {"characters.XpEntry": "xp_seq", "mechanics.Roll": "roll_seq"}
    assert set(LEDGERS.values()) == set(LEDGER_SEQS)


def test_only_a_new_xp_entry_bumps_the_xp_counter(campaign, gm, player):
    """The XP chart is kept under `Campaign.xp_seq`: every new entry moves it, through any
    service, and a wound (a new row of another append-only table) does not."""
    lucia = make_character(campaign, player, name="Lucía")

    def xp_seq() -> int:
        return Campaign.objects.values_list("xp_seq", flat=True).get(pk=campaign.pk)

    before = xp_seq()
    xp_adjust(character=lucia, user=gm, amount=3, reason="Inicial")
    awarded = xp_seq()
    assert awarded == before + 1
    xp_adjust(character=lucia, user=gm, amount=-3, reason="Error")
    assert xp_seq() == awarded + 1
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    assert xp_seq() == awarded + 1


def test_only_a_new_roll_bumps_the_roll_counter(campaign, gm, player):
    """A scene's page of roll cards is kept under `Campaign.roll_seq`: every new roll moves
    it, a secret one too, and a wound or XP does not."""
    lucia = make_character(campaign, player, name="Lucía")

    def roll_seq() -> int:
        return Campaign.objects.values_list("roll_seq", flat=True).get(pk=campaign.pk)

    before = roll_seq()
    store_roll(campaign, None, lucia, player)
    assert roll_seq() == before + 1
    store_roll(campaign, None, lucia, gm, secret=True)
    assert roll_seq() == before + 2
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    xp_adjust(character=lucia, user=gm, amount=3, reason="Inicial")
    assert roll_seq() == before + 2


def test_only_a_new_roll_players_may_see_bumps_their_roll_counter(campaign, gm, player):
    """A player's roll feed is versioned by `Campaign.public_roll_seq`: a roll they may see
    moves it, a secret one does not (not even its moment reaches them), and neither does
    a wound or XP."""
    lucia = make_character(campaign, player, name="Lucía")

    def public_roll_seq() -> int:
        return Campaign.objects.values_list("public_roll_seq", flat=True).get(pk=campaign.pk)

    before = public_roll_seq()
    store_roll(campaign, None, lucia, player)
    assert public_roll_seq() == before + 1
    store_roll(campaign, None, lucia, gm, secret=True)
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    xp_adjust(character=lucia, user=gm, amount=3, reason="Inicial")
    assert public_roll_seq() == before + 1


@pytest.mark.parametrize("counter", ["version", "grid_version"])
def test_a_stale_save_still_counts_up(campaign, player, counter):
    """A save writes back the version it loaded: the database still ends above both."""
    stale = make_character(campaign, player)
    Trait.objects.create(character=stale, key="test-trait", kind="skill")
    bumped = getattr(Character.objects.get(pk=stale.pk), counter)
    assert bumped > getattr(stale, counter)
    stale.name = "Otra"
    stale.save()
    assert getattr(Character.objects.get(pk=stale.pk), counter) > bumped
    campaign_stale = Campaign.objects.get(pk=campaign.pk)
    make_character(campaign, player, name="Bumps the sequence")
    seq = Campaign.objects.get(pk=campaign.pk).change_seq
    campaign_stale.name = "Otra campaña"
    campaign_stale.save()
    fresh = Campaign.objects.get(pk=campaign.pk)
    assert fresh.change_seq > seq
    assert fresh.version > campaign_stale.version


def test_a_users_new_name_bumps_their_campaigns_and_characters(campaign, player):
    character = make_character(campaign, player)
    before, version = _counters(), Campaign.objects.get(pk=campaign.pk).version
    player.username = "bob-renamed"
    player.save()
    after = _counters()
    assert after["characters"][character.pk] > before["characters"][character.pk]
    assert after["grids"][character.pk] > before["grids"][character.pk]
    assert after["campaigns"][campaign.pk][2] > before["campaigns"][campaign.pk][2]
    assert Campaign.objects.get(pk=campaign.pk).version > version


def test_signing_in_bumps_nothing(client, campaign, player):
    """Only the names pages show count: a login writes `last_login`, which none shows."""
    before = _counters()
    UserFactory(username="zoe")
    client.force_login(player)
    assert _counters() == before


def test_a_characters_name_bumps_the_campaign_and_its_wounds_do_not(campaign, player):
    """Other characters' pages show its name (a healer list, an attack): a rename bumps
    the campaign's version; a wound changes only its own sheet and the sequence."""
    character = make_character(campaign, player)
    version = Campaign.objects.get(pk=campaign.pk).version
    Character.objects.filter(pk=character.pk).update(health={"bashing": 1})
    assert Campaign.objects.get(pk=campaign.pk).version == version
    Character.objects.filter(pk=character.pk).update(name="Lucía la Roja")
    assert Campaign.objects.get(pk=campaign.pk).version > version


@pytest.mark.parametrize("column", APART_COLUMNS)
def test_a_characters_health_or_xp_leaves_its_grid_version_and_the_rest_bumps_it(
    campaign, player, column
):
    """The sheet's grid is keyed by `grid_version`: a wound or an award moves `version`
    alone; any other column of the character's row, written alongside or not, moves both."""
    character = make_character(campaign, player)
    rows = Character.objects.filter(pk=character.pk)
    value = {"health": {"bashing": 1}, "xp_balance": 3}[column]
    before = rows.values_list("version", "grid_version").get()
    rows.update(**{column: value})
    version, grid = rows.values_list("version", "grid_version").get()
    assert (version > before[0], grid) == (True, before[1])
    rows.update(**{column: value, "details": {"virtud": "Fe"}})
    assert rows.values_list("version", "grid_version").get() > (version, grid)
    assert rows.get().grid_version > grid


class _Abandoned(Exception):
    pass


def _write_while_marked_deleting(campaign, gm, character) -> None:
    """Mark the campaign as its deletion does, write some of its rows, check its counters,
    then abandon the transaction (which its guard would never let commit the mark)."""
    from campaigns.models import CampaignDeletion
    from tests.mechanics_web.rolls import store_roll

    with transaction.atomic():
        CampaignDeletion.objects.create(campaign_id=campaign.pk)
        Campaign._base_manager.filter(pk=campaign.pk).update(deleting=True)
        marked = _counters()["campaigns"]
        store_roll(campaign, gm, character=character)
        Trait.objects.create(character=character, key="test-trait", kind="skill")
        assert _counters()["campaigns"] == marked
        raise _Abandoned


def test_the_rows_of_a_campaign_being_deleted_bump_nothing(campaign, gm, player):
    """While a campaign is deleted (marked `deleting` in the deleting transaction), its
    rows go without touching its row: on PostgreSQL each such UPDATE walked the versions
    the ones before it left, and a big campaign took minutes to delete (bench/delete.py)."""
    from tests.mechanics_web.rolls import store_roll

    character = make_character(campaign, player)
    with pytest.raises(_Abandoned):
        _write_while_marked_deleting(campaign, gm, character)
    before = Campaign.objects.get(pk=campaign.pk).change_seq
    store_roll(campaign, gm, character=character)
    assert Campaign.objects.get(pk=campaign.pk).change_seq > before
