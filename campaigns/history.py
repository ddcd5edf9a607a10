"""The history chain: rolls, XP entries and health events carry hashes that show a change.

One chain per table per campaign (a campaign's rolls, its XP entries and its health events
are three chains). Each table's chain is ordered by `chain_seq` (1, 2, 3... per campaign)
and each row stores

    links         the ids of the rows it points to that may be deleted without the
                  campaign (its `HISTORY_LINKS`: the scene, the character of a roll, who
                  rolled or wrote it), as they were when it was written
    content_hash  HMAC-SHA-256 of the row's canonical content (its `HISTORY_FIELDS` and
                  `links`, with its campaign and table), as JSON with sorted keys
    chain_hash    HMAC-SHA-256 of the previous row's chain_hash (64 zeros for the first
                  row) followed by this row's content_hash

The HMAC key (`history_key`) is kept outside the database: `CRONICA_HISTORY_KEY`, or one
derived from SECRET_KEY. Someone who can write to the database but does not hold the key
cannot hash an edited row again, nor the rows after it.

Per table rather than one chain across the three tables: a unique constraint on
(campaign, chain_seq) then keeps each chain linear even if a writer forgot the lock, and
finding a chain's tip is one index lookup.

Deleting a linked row sets the link to NULL, the one change the database triggers allow:
the hash covers `links`, the ids as written, and `verify_chain` accepts a link that is
either that id or NULL. Removing the newest rows of a chain leaves a shorter, valid chain:
each chain's length and head (`chain_tips`) are kept outside the table, in every backup's
manifest and in `verify_history`'s output (which `--checkpoint` compares with an earlier
one), and GMs see them on the campaign's settings page.

Every creation goes through `history_append`, called by `AppendOnlyModel.save()` and
`AppendOnlyQuerySet.bulk_create()`: it locks the campaign row, reads the tip and numbers
the new rows after it, so concurrent writers queue and the chain stays linear. On
PostgreSQL one call of `history_tip()` (`TIP_FUNCTION`) does both: it takes the lock
(SELECT ... FOR NO KEY UPDATE), then reads the tip in a statement of its own, whose fresh
snapshot sees what the writer it waited for committed. SQLite's IMMEDIATE transactions
already serialise writers, so there it reads the tip alone.

The triggers (`trigger_sql`) let a row be deleted only while its campaign is marked
`deleting` (set by the campaign's pre_delete signal, in the deletion's transaction) or
is already gone (Django deletes the campaign first when a cycle leaves it no order).
The mark is not a switch anyone may flip: `DELETING_GUARD_SQL` refuses it unless a
`CampaignDeletion` row for the campaign exists, and that row cannot outlive its
transaction unless the campaign goes with it (see `campaigns.models.CampaignDeletion`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.db import connections, models, router

GENESIS = "0" * 64


def _plain(field: models.Field, value):
    """The value as JSON sees it, the same before the INSERT and after reading it back."""
    if value is None:
        return None
    if isinstance(field, models.JSONField):
        return json.loads(json.dumps(value, cls=field.encoder))
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(field, models.CharField | models.TextField):
        return str(value)
    return value


def history_key() -> bytes:
    """The HMAC key of the chains: CRONICA_HISTORY_KEY, or one derived from SECRET_KEY."""
    if settings.CRONICA_HISTORY_KEY:
        return settings.CRONICA_HISTORY_KEY.encode()
    return hmac.new(settings.SECRET_KEY.encode(), b"cronica.history", hashlib.sha256).digest()


def _link_names(model, links: Sequence[str] | None) -> Sequence[str]:
    return getattr(model, "HISTORY_LINKS", ()) if links is None else links


def written_links(row: models.Model, links: Sequence[str] | None = None) -> dict:
    """The ids the row points to now, by column: what `links` keeps when it is written."""
    model = type(row)
    names = [model._meta.get_field(name).attname for name in _link_names(model, links)]
    return {name: getattr(row, name) for name in names}


def canonical(
    row: models.Model, fields: Sequence[str] | None = None, links: Sequence[str] | None = None
) -> bytes:
    """The bytes `content_hash` is taken of: the campaign and `fields` (by default the
    model's HISTORY_FIELDS), the `links` column when the model has links, and the table's
    name."""
    model = type(row)
    content = {"table": model._meta.db_table}
    for name in ("campaign", *(model.HISTORY_FIELDS if fields is None else fields)):
        field = model._meta.get_field(name)
        content[field.attname] = _plain(field, getattr(row, field.attname))
    if _link_names(model, links):
        content["links"] = row.links
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass")


def content_hash(
    row: models.Model, fields: Sequence[str] | None = None, links: Sequence[str] | None = None
) -> str:
    return hmac.new(history_key(), canonical(row, fields, links), hashlib.sha256).hexdigest()


def chain_link(previous: str, content: str) -> str:
    return hmac.new(history_key(), (previous + content).encode(), hashlib.sha256).hexdigest()


# PostgreSQL: lock the campaign row and read a chain's tip in one round trip. A volatile
# PL/pgSQL function takes a new snapshot per statement under READ COMMITTED, so the read
# runs after the lock is granted and sees the rows of the writer it waited for (one SELECT
# with both would read the snapshot it took before waiting, and fork the chain).
TIP_FUNCTION = """
CREATE OR REPLACE FUNCTION history_tip(chain regclass, campaign bigint)
RETURNS TABLE (seq bigint, hash text) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    -- NO KEY: rows that merely reference the campaign (a new scene) need not wait.
    PERFORM 1 FROM campaigns_campaign WHERE id = campaign FOR NO KEY UPDATE;
    RETURN QUERY EXECUTE format(
        'SELECT chain_seq::bigint, chain_hash::text FROM %s '
        'WHERE campaign_id = $1 ORDER BY chain_seq DESC LIMIT 1',
        chain
    ) USING campaign;
END
$$;
"""
TIP_FUNCTION_DROP = "DROP FUNCTION IF EXISTS history_tip(regclass, bigint);"


def _locked_tip(model, campaign_id: int) -> tuple[int, str]:
    """The chain's (seq, hash), the campaign locked until the transaction ends."""
    connection = connections[router.db_for_write(model)]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT seq, hash FROM history_tip(%s::regclass, %s)",
                [model._meta.db_table, campaign_id],
            )
            tip = cursor.fetchone()
    else:  # SQLite: the IMMEDIATE transaction holds the database's write lock already.
        tip = (
            model._base_manager.filter(campaign_id=campaign_id)
            .order_by("-chain_seq")
            .values_list("chain_seq", "chain_hash")
            .first()
        )
    return tuple(tip) if tip else (0, GENESIS)


def history_append(rows: Sequence[models.Model]) -> None:
    """Number and hash new rows of one model after their campaign's chain tip.

    Call inside the transaction that inserts them: the campaign row stays locked until it
    commits. Campaigns are locked in id order, so two writers never wait for each other.
    """
    if not rows:
        return
    model = type(rows[0])
    by_campaign: dict[int, list[models.Model]] = defaultdict(list)
    for row in rows:
        by_campaign[row.campaign_id].append(row)
    for campaign_id in sorted(by_campaign):
        seq, previous = _locked_tip(model, campaign_id)
        for row in by_campaign[campaign_id]:
            seq += 1
            row.chain_seq = seq
            if getattr(model, "HISTORY_LINKS", ()):
                row.links = written_links(row)
            row.content_hash = content_hash(row)
            row.chain_hash = previous = chain_link(previous, row.content_hash)


def backfill(model, fields: Sequence[str], batch: int = 2000) -> None:
    """Chain the rows a table already has, in id order (the order they were written), for
    the migration that adds the chain (`model` is its historical model)."""
    tips: dict[int, tuple[int, str]] = {}
    pending = []
    for row in model._base_manager.order_by("pk").iterator(chunk_size=batch):
        seq, previous = tips.get(row.campaign_id, (0, GENESIS))
        row.chain_seq = seq + 1
        row.content_hash = content_hash(row, fields)
        row.chain_hash = chain_link(previous, row.content_hash)
        tips[row.campaign_id] = (row.chain_seq, row.chain_hash)
        pending.append(row)
        if len(pending) >= batch:
            model._base_manager.bulk_update(pending, ["chain_seq", "content_hash", "chain_hash"])
            pending = []
    if pending:
        model._base_manager.bulk_update(pending, ["chain_seq", "content_hash", "chain_hash"])


def rehash(model, fields: Sequence[str], links: Sequence[str], batch: int = 2000) -> None:
    """Hash every row of a table again under the current scheme (its links as they are
    now, the HMAC key), chain by chain in their order, for the migration that changes the
    scheme (`model` is its historical model; the table's triggers must be off)."""
    tips: dict[int, str] = {}
    pending = []
    for row in model._base_manager.order_by("campaign_id", "chain_seq").iterator(batch):
        row.links = written_links(row, links)
        row.content_hash = content_hash(row, fields, links)
        row.chain_hash = chain_link(tips.get(row.campaign_id, GENESIS), row.content_hash)
        tips[row.campaign_id] = row.chain_hash
        pending.append(row)
        if len(pending) >= batch:
            model._base_manager.bulk_update(pending, ["links", "content_hash", "chain_hash"])
            pending = []
    if pending:
        model._base_manager.bulk_update(pending, ["links", "content_hash", "chain_hash"])


# --- Checking -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainReport:
    """One chain's check: its length and head, and the first row that breaks it."""

    model: type[models.Model]
    campaign_id: int
    length: int
    head: str
    broken_at: int | None = None  # the row's id
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.broken_at is None


def verify_chain(model, campaign_id: int) -> ChainReport:
    """Walk one campaign's chain in order; stop at the first row that does not follow."""
    rows = (
        model._base_manager.filter(campaign_id=campaign_id)
        .order_by("chain_seq", "pk")
        .iterator(chunk_size=2000)
    )
    previous, expected, last_id, length = GENESIS, 1, 0, 0

    def broken(row, problem: str) -> ChainReport:
        return ChainReport(model, campaign_id, length, previous, row.pk, problem)

    for row in rows:
        if row.chain_seq > expected:
            last = row.chain_seq - 1
            gap = f"{expected}" if last == expected else f"{expected}-{last}"
            return broken(row, f"removed: position {gap} is missing before it")
        if row.chain_seq < expected or row.pk < last_id:
            return broken(row, f"inserted out of order at position {row.chain_seq}")
        if content_hash(row) != row.content_hash:
            return broken(
                row, f"edited: its content does not match its hash (position {row.chain_seq})"
            )
        moved = [
            name
            for name, value in written_links(row).items()
            if value is not None and value != (row.links or {}).get(name)
        ]
        if moved:
            return broken(
                row,
                f"edited: {', '.join(moved)} no longer what it was written with "
                f"(position {row.chain_seq})",
            )
        if chain_link(previous, row.content_hash) != row.chain_hash:
            return broken(
                row,
                "edited or inserted out of order: it does not follow the row before it "
                f"(position {row.chain_seq})",
            )
        previous, expected, last_id, length = row.chain_hash, expected + 1, row.pk, length + 1
    return ChainReport(model, campaign_id, length, previous)


# --- Database triggers --------------------------------------------------------------------

REFUSAL = "history rows are append-only: record a correction instead"

# PostgreSQL: one function for the three tables; the trigger passes the link columns.
POSTGRES_FUNCTION = f"""
CREATE OR REPLACE FUNCTION history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    link text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        -- Only a campaign being deleted (campaigns.Campaign.deleting) takes its history.
        IF EXISTS (SELECT 1 FROM campaigns_campaign WHERE id = OLD.campaign_id AND NOT deleting)
        THEN
            RAISE EXCEPTION '{REFUSAL} (%)', TG_TABLE_NAME USING ERRCODE = '23000';
        END IF;
        RETURN OLD;
    END IF;
    -- UPDATE: a link may become NULL (its row was deleted); nothing else may change.
    FOREACH link IN ARRAY TG_ARGV LOOP
        IF to_jsonb(NEW) -> link <> 'null'::jsonb
           AND to_jsonb(NEW) -> link IS DISTINCT FROM to_jsonb(OLD) -> link THEN
            RAISE EXCEPTION '{REFUSAL} (%)', TG_TABLE_NAME USING ERRCODE = '23000';
        END IF;
    END LOOP;
    IF to_jsonb(NEW) - TG_ARGV IS DISTINCT FROM to_jsonb(OLD) - TG_ARGV THEN
        RAISE EXCEPTION '{REFUSAL} (%)', TG_TABLE_NAME USING ERRCODE = '23000';
    END IF;
    RETURN NEW;
END
$$;
"""
POSTGRES_FUNCTION_DROP = "DROP FUNCTION IF EXISTS history_append_only();"


DELETING_REFUSAL = "only deleting the campaign marks it deleting"

# Both databases: `deleting` becomes true only with a CampaignDeletion row for the campaign.
DELETING_GUARD_SQL = {
    "postgresql": (
        [
            f"""
CREATE OR REPLACE FUNCTION campaign_deleting_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.deleting AND (TG_OP = 'INSERT' OR NOT OLD.deleting) AND NOT EXISTS (
        SELECT 1 FROM campaigns_campaigndeletion WHERE campaign_id = NEW.id
    ) THEN
        RAISE EXCEPTION '{DELETING_REFUSAL}' USING ERRCODE = '23000';
    END IF;
    RETURN NEW;
END
$$;
""",
            "CREATE TRIGGER campaign_deleting_guard BEFORE INSERT OR UPDATE OF deleting "
            "ON campaigns_campaign FOR EACH ROW EXECUTE FUNCTION campaign_deleting_guard();",
        ],
        [
            "DROP TRIGGER IF EXISTS campaign_deleting_guard ON campaigns_campaign;",
            "DROP FUNCTION IF EXISTS campaign_deleting_guard();",
        ],
    ),
    "sqlite": (
        [
            f"CREATE TRIGGER campaign_deleting_guard_{event.lower()} BEFORE {event} "
            f"{'OF deleting ' if event == 'UPDATE' else ''}ON campaigns_campaign "
            f"WHEN NEW.deleting AND {condition} AND NOT EXISTS (SELECT 1 FROM "
            "campaigns_campaigndeletion WHERE campaign_id = NEW.id) "
            f"BEGIN SELECT RAISE(ABORT, '{DELETING_REFUSAL}'); END;"
            for event, condition in (("INSERT", "1"), ("UPDATE", "NOT OLD.deleting"))
        ],
        [
            "DROP TRIGGER IF EXISTS campaign_deleting_guard_insert;",
            "DROP TRIGGER IF EXISTS campaign_deleting_guard_update;",
        ],
    ),
}


def remake_deleting_guard(apps, schema_editor) -> None:
    """For a migration that adds a column to campaigns_campaign: SQLite rebuilds the table
    and drops the deletion guard's triggers with it."""
    create, drop = DELETING_GUARD_SQL.get(schema_editor.connection.vendor, ([], []))
    for statement in (*drop, *create):
        schema_editor.execute(statement, None)


def trigger_sql(vendor: str, table: str, fixed: Sequence[str], links: Sequence[str]):
    """(create, drop) statements of the triggers that keep `table` append-only.

    `fixed` are the columns no UPDATE may change (SQLite names them; PostgreSQL compares
    the whole row but `links`), `links` those that may only become NULL.
    """
    if vendor == "postgresql":
        arguments = ", ".join(f"'{link}'" for link in links)
        create = [
            f'CREATE TRIGGER "{table}_append_only" BEFORE UPDATE OR DELETE ON "{table}" '
            f"FOR EACH ROW EXECUTE FUNCTION history_append_only({arguments});"
        ]
        return create, [f'DROP TRIGGER IF EXISTS "{table}_append_only" ON "{table}";']
    if vendor != "sqlite":
        return [], []
    unchanged = [f'NEW."{column}" IS OLD."{column}"' for column in fixed]
    unchanged += [f'(NEW."{link}" IS OLD."{link}" OR NEW."{link}" IS NULL)' for link in links]
    create = [
        f'CREATE TRIGGER "{table}_no_update" BEFORE UPDATE ON "{table}" '
        f"WHEN NOT ({' AND '.join(unchanged)}) "
        f"BEGIN SELECT RAISE(ABORT, '{REFUSAL} ({table})'); END;",
        f'CREATE TRIGGER "{table}_no_delete" BEFORE DELETE ON "{table}" '
        "WHEN EXISTS (SELECT 1 FROM campaigns_campaign "
        "WHERE id = OLD.campaign_id AND NOT deleting) "
        f"BEGIN SELECT RAISE(ABORT, '{REFUSAL} ({table})'); END;",
    ]
    drop = [
        f'DROP TRIGGER IF EXISTS "{table}_no_update";',
        f'DROP TRIGGER IF EXISTS "{table}_no_delete";',
    ]
    return create, drop
