"""The XP summary (`XpSummary`), kept by the database: a trigger adds each new XP entry
to its character's row of every span in the statement that inserts it, so no write path
(a service, a bulk insert, plain SQL) can leave it behind.

Only INSERT needs it: entries are never updated (campaigns.history refuses it, but for a
scene link set to NULL, which the summary does not hold) and deleted only with their
campaign, which deletes the summary's rows too. The trigger is made again after every
`migrate`, as the version triggers are (SQLite drops a table's triggers when a migration
rebuilds it); `fill` sums the entries already there, for the migrations that change what
it sums.
"""

from __future__ import annotations

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from characters.xp_buckets import SPANS

ENTRY = "characters_xpentry"
SUMMARY = "characters_xpsummary"
TRIGGER = "characters_xpentry_summary"
COLUMNS = (
    "campaign_id, character_id, span, bucket, first_at, last_at, total, earned, entries, low, peak"
)
CONFLICT = "(campaign_id, span, character_id, bucket)"


def _bucket(vendor: str, moment: str) -> str:
    """Which span since 1970 `moment` falls in, in the database's own arithmetic."""
    if vendor == "sqlite":
        return f"CAST(strftime('%s', {moment}) AS INTEGER) / spans.span"
    return f"FLOOR(EXTRACT(EPOCH FROM {moment}) / spans.span)::bigint"


def _spans(vendor: str) -> str:
    if vendor == "sqlite":
        return "(" + " UNION ALL ".join(f"SELECT {s} AS span" for s in SPANS) + ") AS spans"
    return "(VALUES " + ", ".join(f"({s})" for s in SPANS) + ") AS spans(span)"


def _earned(row: str) -> str:
    return f"CASE WHEN {row}.kind = 'spend' THEN 0 ELSE {row}.amount END"


def _add_entry(vendor: str) -> str:
    """The upsert adding NEW to its rows of every span."""
    least, greatest = ("min", "max") if vendor == "sqlite" else ("LEAST", "GREATEST")
    return (
        f"INSERT INTO {SUMMARY} ({COLUMNS}) "
        f"SELECT NEW.campaign_id, NEW.character_id, spans.span, "
        f"{_bucket(vendor, 'NEW.created_at')}, NEW.created_at, NEW.created_at, "
        f"NEW.amount, {_earned('NEW')}, 1, NEW.balance_after, NEW.balance_after "
        # WHERE: SQLite would read ON CONFLICT as the join's ON without it.
        f"FROM {_spans(vendor)} WHERE true "
        f"ON CONFLICT {CONFLICT} DO UPDATE SET "
        f"first_at = {least}({SUMMARY}.first_at, excluded.first_at), "
        f"last_at = {greatest}({SUMMARY}.last_at, excluded.last_at), "
        f"total = {SUMMARY}.total + excluded.total, "
        f"earned = {SUMMARY}.earned + excluded.earned, "
        f"entries = {SUMMARY}.entries + excluded.entries, "
        f"low = {least}({SUMMARY}.low, excluded.low), "
        f"peak = {greatest}({SUMMARY}.peak, excluded.peak);"
    )


def drop_sql(vendor: str) -> list[str]:
    if vendor == "sqlite":
        return [f'DROP TRIGGER IF EXISTS "{TRIGGER}";']
    return [f'DROP FUNCTION IF EXISTS "{TRIGGER}"() CASCADE;']


def trigger_sql(vendor: str) -> list[str]:
    """Statements (re)making the trigger on `vendor` (dropping it first)."""
    if vendor == "sqlite":
        return [
            *drop_sql(vendor),
            f'CREATE TRIGGER "{TRIGGER}" AFTER INSERT ON "{ENTRY}" BEGIN {_add_entry(vendor)} END;',
        ]
    return [
        *drop_sql(vendor),
        f'CREATE FUNCTION "{TRIGGER}"() RETURNS trigger LANGUAGE plpgsql '
        f"AS $$ BEGIN {_add_entry(vendor)} RETURN NULL; END $$;",
        f'CREATE TRIGGER "{TRIGGER}" AFTER INSERT ON "{ENTRY}" '
        f'FOR EACH ROW EXECUTE FUNCTION "{TRIGGER}"();',
    ]


def fill_sql(vendor: str) -> list[str]:
    """Statements summing every entry afresh."""
    return [
        f"DELETE FROM {SUMMARY};",
        f"INSERT INTO {SUMMARY} ({COLUMNS}) "
        f"SELECT e.campaign_id, e.character_id, spans.span, {_bucket(vendor, 'e.created_at')}, "
        f"MIN(e.created_at), MAX(e.created_at), SUM(e.amount), SUM({_earned('e')}), "
        "COUNT(*), MIN(e.balance_after), MAX(e.balance_after) "
        f"FROM {ENTRY} e CROSS JOIN {_spans(vendor)} GROUP BY 1, 2, 3, 4;",
    ]


def _execute(connection: BaseDatabaseWrapper, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(connection: BaseDatabaseWrapper) -> None:
    _execute(connection, trigger_sql(connection.vendor))


def uninstall(connection: BaseDatabaseWrapper) -> None:
    _execute(connection, drop_sql(connection.vendor))


def fill(connection: BaseDatabaseWrapper) -> None:
    _execute(connection, fill_sql(connection.vendor))


def install_trigger(*, using: str = "default", plan=None, **_signal) -> None:
    """`post_migrate` (`flush` sends it without a plan, and leaves triggers alone). After
    a migration back past the summary's table, the trigger goes with it."""
    if plan is None:
        return
    connection = connections[using]
    if SUMMARY in connection.introspection.table_names():
        install(connection)
    else:
        uninstall(connection)
