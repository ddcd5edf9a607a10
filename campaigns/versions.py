"""Versions: one change, one version, bumped by the database itself.

Every row a campaign's pages show belongs to one campaign, directly or through the rows
it links to. Triggers made here from the models add one, in the same transaction as the
write:
- to `Campaign.change_seq` for any INSERT, UPDATE or DELETE of any of the campaign's rows:
  the campaign's change sequence, for what shows the whole campaign (its pages, the
  scenes, the feeds) and for the live table; and to `Campaign.public_seq` likewise, but
  for rows only GMs see (`PRIVATE`), which players' pages and streams follow instead;
  and to `Campaign.nonroll_seq` likewise, but for rolls (`SEQUENCE_ONLY`), for what lists
  everything of the campaign but its roll cards (the rest of a scene's timeline); and
  to a counter of one table's own (`LEDGERS`) for a new row of that table, and to a
  second one for a new row players may see (`PUBLIC_LEDGERS`: a player's roll feed);
- to `Character.version` for a write to the character's own row or to a row that links to
  the character (its traits, wounds, XP...), rolls aside (`SEQUENCE_ONLY`) but for those
  a roll panel reads back (`READ_BACK`); and to `Character.grid_version` likewise, but for
  its health and XP (`APART`), which the sheet's grid shows in pieces cached apart;
- to `Campaign.version` for a write to the campaign's own row or to a row that links to
  no character (members, stories, scenes, combats, house rules...).
A user's new name bumps the campaigns they are a member of and the characters they own.

A fragment is cached under the versions of what it shows, read with the rows the request
loads anyway (the access check loads the campaign, a sheet its character): no query to
make a key, nothing to list by hand, and no write path, ORM or not, can forget a bump.
The triggers are made again after every `migrate` (`post_migrate`), so a new model or
field is covered without a migration of its own, and `tests/test_versions.py` checks
every table of the project against them.

A version only grows: a `save()` that writes back the value it loaded still ends one
above what the database held. It counts changes, not rows: on PostgreSQL a statement that
adds or deletes many rows (a new character's traits) bumps each campaign and character
once, from the statement's rows at once (a transition table), where SQLite, which has no
such triggers, bumps once per row.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.db import connections, models

CAMPAIGN = "campaigns.Campaign"
CHARACTER = "characters.Character"
# The counters themselves, each model's own: writing them is a bump, not a change to bump for.
CAMPAIGN_COUNTERS = (
    "change_seq",
    "nonroll_seq",
    "public_roll_seq",
    "public_seq",
    "roll_seq",
    "version",
    "xp_seq",
)
COUNTERS = frozenset({*CAMPAIGN_COUNTERS, "grid_version"})
# The user's columns that pages show.
USER_NAMES = ("username", "first_name", "last_name")
# A character's columns that the campaign's pages and other characters' show (the
# campaign page's list, a healer list, an attack's card): a change to them bumps the
# campaign's version too, like a new or deleted character.
CHARACTER_SHOWN = (
    "name", "concept", "is_npc", "owner_id", "portrait_thumb", "approved_over_budget",
    "campaign_id",
)  # fmt: skip
PROJECT_APPS = ("campaigns", "characters", "mechanics")
# A character's health and XP: their rows and its own columns that hold them. A write to
# them bumps `Character.version` but not `grid_version`: the sheet's grid shows them in
# pieces of its own (characters/views/sheet_context.py), so a wound or an award does not
# render the rest of the sheet again.
APART = frozenset({"mechanics.HealthEvent", "characters.XpEntry"})
APART_COLUMNS = ("health", "xp_balance")
CHARACTER_BUMP = "version = version + 1, grid_version = grid_version + 1"
# Rolls show as cards cached by id, in lists under the change sequence: a roll bumps the
# sequence alone, so a sheet stays cached through the rolls made on it. What a roll
# changes on the sheet (a pool spent) its service writes to the character's own rows.
SEQUENCE_ONLY = frozenset({"mechanics.Roll"})
# Rows of those that a character's roll panel reads back, as SQL true for such a row
# `{row}`: the rolls of an extended action hold its progress. They bump their characters'
# versions too, so a panel follows its character and not every roll in the campaign.
READ_BACK = {"mechanics.Roll": "{row}.kind = 'extended'"}
# Rows only GMs see, as SQL true for such a row `{row}`: their changes leave the players'
# sequence as it is (a diary counts for both sides of a publication, OLD and NEW).
PRIVATE = {
    "mechanics.Roll": "{row}.secret",
    "campaigns.SceneNote": "1 = 1",
    "characters.DiaryEntry": (
        "NOT ({row}.status = 'published' AND {row}.visibility = 'group' "
        "AND {row}.hidden_at IS NULL)"
    ),
}
# Sums a trigger keeps from another table's rows, in the same statement as their write,
# which has bumped all there is to bump (characters/xp_summary.py): no triggers of their own.
DERIVED = frozenset({"characters.XpSummary"})
# Append-only tables whose new rows also bump a counter of the campaign's that only they
# move: what draws them alone (the XP chart, a scene's page of rolls) is kept through
# every other write.
LEDGERS = {"characters.XpEntry": "xp_seq", "mechanics.Roll": "roll_seq"}
# Of those, the ones whose new rows players may see (not PRIVATE ones) also move this
# counter: a player's roll feed follows it, which a secret roll leaves.
PUBLIC_LEDGERS = {"mechanics.Roll": "public_roll_seq"}
CHANGE = "change_seq = change_seq + 1"
NONROLL = "nonroll_seq = nonroll_seq + 1"
SEQUENCES = f"{CHANGE}, public_seq = public_seq + 1, {NONROLL}"


@dataclass(frozen=True)
class Scoped:
    """A table of a campaign: how a row reaches its campaign and its characters."""

    model: type[models.Model]
    # SQL giving the campaign's id from a row named `{row}` (NEW or OLD).
    campaign: str
    # The row's own columns that hold a character's id.
    characters: tuple[str, ...]

    @property
    def table(self) -> str:
        return self.model._meta.db_table


def _campaign_path(model: type[models.Model], seen: frozenset = frozenset()) -> str | None:
    """SQL for the id of the campaign a row of `model` belongs to, `{row}` standing for
    the row; None when it belongs to none."""
    if model._meta.label == CAMPAIGN:
        return "{row}.id"
    links = [f for f in model._meta.concrete_fields if f.is_relation and f.related_model]
    for field in links:
        if field.related_model._meta.label == CAMPAIGN:
            return f'{{row}}."{field.column}"'
    for field in links:
        related = field.related_model
        if related in seen or related is model or related._meta.app_label not in PROJECT_APPS:
            continue
        inner = _campaign_path(related, seen | {model})
        if inner is not None:
            table = related._meta.db_table
            path = inner.replace("{row}", f'"{table}"')
            where = f'"{table}"."{related._meta.pk.column}" = {{row}}."{field.column}"'
            return f'(SELECT {path} FROM "{table}" WHERE {where})'
    return None


def scoped_tables() -> Iterator[Scoped]:
    """Every table of the project whose rows belong to a campaign (the campaign's and the
    characters' own rows included)."""
    for model in apps.get_models(include_auto_created=True):
        if (
            model._meta.app_label not in PROJECT_APPS
            or not model._meta.managed
            or model._meta.label in DERIVED
        ):
            continue
        campaign = _campaign_path(model)
        if campaign is None:
            continue
        characters = tuple(
            field.column
            for field in model._meta.concrete_fields
            if field.is_relation and field.related_model._meta.label == CHARACTER
        )
        yield Scoped(model, campaign, characters)


def _bumps(scoped: Scoped, row: str, event: str = "update", rows: str | None = None) -> list[str]:
    """The statements that bump, for the row `row` (NEW or OLD) of a scoped table, what
    it changes: the campaign's sequences, and its characters' or the campaign's version.
    (The campaign's and a character's own version are bumped by the triggers on their
    own columns.) With `rows`, a statement's transition table on PostgreSQL: the same for
    all its rows at once, `row` naming each of them, so a statement bumps each campaign
    and character once however many rows it writes (a new character's traits)."""
    campaign = scoped.campaign.format(row=row)
    label = scoped.model._meta.label
    private = PRIVATE.get(label)
    # A private row's change moves the players' sequence only when the row is not private
    # (one side of a diary's publication). One UPDATE of the campaign's row per write, and
    # none while the campaign is deleted: on PostgreSQL a transaction that writes many rows
    # walks that row's versions at each one (bench/delete.py).
    public = (
        "1" if private is None else f"CASE WHEN NOT ({private.format(row=row)}) THEN 1 ELSE 0 END"
    )
    if rows is not None:
        # Any of the statement's rows players may see moves their sequence, once.
        campaign_rows = (
            f"(SELECT {campaign} AS id, max({public}) AS public FROM {rows} {row} GROUP BY 1)"
        )
        public = "written.public"
    sequences = f"{CHANGE}, public_seq = public_seq + {public}"
    if label not in SEQUENCE_ONLY:
        sequences += f", {NONROLL}"
    if label in LEDGERS and event == "insert":
        sequences += f", {LEDGERS[label]} = {LEDGERS[label]} + 1"
    if label in PUBLIC_LEDGERS and event == "insert":
        sequences += f", {PUBLIC_LEDGERS[label]} = {PUBLIC_LEDGERS[label]} + {public}"
    if label == CAMPAIGN:
        return []

    def campaign_bump(sets: str) -> str:
        if rows is None:
            return f"UPDATE campaigns_campaign SET {sets} WHERE id = {campaign} AND NOT deleting;"
        return (
            f"UPDATE campaigns_campaign SET {sets} FROM {campaign_rows} written "
            "WHERE campaigns_campaign.id = written.id AND NOT deleting;"
        )

    def characters_bump(counters: str, condition: str | None = None) -> str:
        if rows is None:
            ids = ", ".join(f'{row}."{column}"' for column in scoped.characters)
            where = "" if condition is None else f" AND {condition.format(row=row)}"
            return f"UPDATE characters_character SET {counters} WHERE id IN ({ids}){where};"
        where = "" if condition is None else f" WHERE {condition.format(row=row)}"
        ids = " UNION ".join(
            f'SELECT {row}."{column}" FROM {rows} {row}{where}' for column in scoped.characters
        )
        return f"UPDATE characters_character SET {counters} WHERE id IN ({ids});"

    bump = campaign_bump(sequences)
    if label in SEQUENCE_ONLY or (label == CHARACTER and event == "update"):
        read_back = READ_BACK.get(label)
        # Such rows go only with their character or campaign: a deletion bumps nothing more.
        if read_back is None or event == "delete":
            return [bump]
        return [characters_bump(CHARACTER_BUMP, read_back), bump]
    if scoped.characters and label != CHARACTER:
        counters = "version = version + 1" if label in APART else CHARACTER_BUMP
        return [characters_bump(counters), bump]
    return [campaign_bump(f"{sequences}, version = version + 1")]


def _own_columns(model: type[models.Model], but: tuple[str, ...] = ()) -> str:
    """The columns of `model` but its counters (and `but`), for an `UPDATE OF` trigger."""
    return ", ".join(
        f'"{f.column}"'
        for f in model._meta.concrete_fields
        if f.column not in COUNTERS and f.column not in but
    )


def _counters(label: str, target: str) -> str:
    """The own counters of a campaign or character row, set to one above OLD's."""
    names = CAMPAIGN_COUNTERS if label == CAMPAIGN else ("version",)
    return ", ".join(f"{target}{name} = OLD.{name} + 1" for name in names)


def _name(table: str, event: str) -> str:
    return f"{table}_version_{event}"


def _sqlite(scoped: Scoped) -> tuple[list[str], list[str]]:
    table, label = scoped.table, scoped.model._meta.label
    events = ("insert", "update", "delete", "shown", "grid")
    drop = [f'DROP TRIGGER IF EXISTS "{_name(table, e)}";' for e in events]
    changes = _bumps(scoped, "OLD") + _bumps(scoped, "NEW")
    if label in (CAMPAIGN, CHARACTER):
        # SQLite cannot set NEW: the row's counters are set again after the update (a
        # trigger never fires itself again), from OLD, so a stale save still counts up.
        own = f'UPDATE "{table}" SET {_counters(label, "")} WHERE id = NEW.id;'
        update = f"AFTER UPDATE OF {_own_columns(scoped.model)}"
        changes = [own, *changes]
    else:
        update = "AFTER UPDATE"
    create = [f'CREATE TRIGGER "{_name(table, "update")}" {update} ON "{table}" '
              f"BEGIN {' '.join(changes)} END;"]  # fmt: skip
    if label != CAMPAIGN:
        create += [
            f'CREATE TRIGGER "{_name(table, event)}" AFTER {event.upper()} ON "{table}" '
            f"BEGIN {' '.join(_bumps(scoped, row, event))} END;"
            for event, row in (("insert", "NEW"), ("delete", "OLD"))
        ]
    if label == CHARACTER:
        grid = f'UPDATE "{table}" SET grid_version = OLD.grid_version + 1 WHERE id = NEW.id;'
        create += [
            f'CREATE TRIGGER "{_name(table, "shown")}" AFTER UPDATE OF {_shown()} '
            f'ON "{table}" BEGIN {_shown_bump(scoped)} END;',
            f'CREATE TRIGGER "{_name(table, "grid")}" AFTER UPDATE OF {_grid_columns()} '
            f'ON "{table}" BEGIN {grid} END;',
        ]
    return drop, create


def _grid_columns() -> str:
    """A character's own columns that its sheet's grid shows: all but its health and XP."""
    return _own_columns(apps.get_model(CHARACTER), but=APART_COLUMNS)


def _shown() -> str:
    return ", ".join(f'"{column}"' for column in CHARACTER_SHOWN)


def _shown_bump(scoped: Scoped) -> str:
    """A character's name (or the like) changed: the campaign's version, before and after."""
    campaigns = ", ".join(scoped.campaign.format(row=row) for row in ("OLD", "NEW"))
    return f"UPDATE campaigns_campaign SET version = version + 1 WHERE id IN ({campaigns});"


def _function(name: str, body: str, result: str = "NULL") -> str:
    return (
        f'CREATE FUNCTION "{name}"() RETURNS trigger LANGUAGE plpgsql '
        f"AS $$ BEGIN {body} RETURN {result}; END $$;"
    )


def _postgresql(scoped: Scoped) -> tuple[list[str], list[str]]:
    table, label = scoped.table, scoped.model._meta.label
    own, bump, shown = _name(table, "own"), _name(table, "bump"), _name(table, "shown")
    grid = _name(table, "grid")
    inserted, deleted = _name(table, "inserted"), _name(table, "deleted")
    drop = [
        f'DROP FUNCTION IF EXISTS "{name}"() CASCADE;'
        for name in (own, bump, shown, grid, inserted, deleted)
    ]
    create = []
    if label in (CAMPAIGN, CHARACTER):
        columns = _own_columns(scoped.model)
        create += [
            _function(own, _counters(label, "NEW.").replace(", ", "; ") + ";", "NEW"),
            f'CREATE TRIGGER "{own}" BEFORE UPDATE OF {columns} ON "{table}" '
            f'FOR EACH ROW EXECUTE FUNCTION "{own}"();',
        ]
    if label == CHARACTER:
        # Characters are written one at a time: their bumps go row by row.
        old, new = (" ".join(_bumps(scoped, row)) for row in ("OLD", "NEW"))
        on_insert = " ".join(_bumps(scoped, "NEW", "insert"))
        on_delete = " ".join(_bumps(scoped, "OLD", "delete"))
        body = (
            f"IF TG_OP = 'INSERT' THEN {on_insert} ELSIF TG_OP = 'DELETE' THEN {on_delete} "
            f"ELSE {old} {new} END IF;"
        )
        create += [
            _function(bump, body),
            f'CREATE TRIGGER "{bump}" AFTER INSERT OR DELETE OR UPDATE OF {columns} '
            f'ON "{table}" FOR EACH ROW EXECUTE FUNCTION "{bump}"();',
        ]
    elif label != CAMPAIGN:
        # An update, row by row (its two sides); new and deleted rows, a statement's at
        # once (a transition table, which PostgreSQL allows for one event per trigger).
        old, new = (" ".join(_bumps(scoped, row)) for row in ("OLD", "NEW"))
        create += [
            _function(bump, f"{old} {new}"),
            f'CREATE TRIGGER "{bump}" AFTER UPDATE ON "{table}" '
            f'FOR EACH ROW EXECUTE FUNCTION "{bump}"();',
        ]
        for event, side, name in (("insert", "NEW", inserted), ("delete", "OLD", deleted)):
            body = " ".join(_bumps(scoped, "r", event, rows=f"{event}_rows"))
            create += [
                _function(name, body),
                f'CREATE TRIGGER "{name}" AFTER {event.upper()} ON "{table}" '
                f"REFERENCING {side} TABLE AS {event}_rows "
                f'FOR EACH STATEMENT EXECUTE FUNCTION "{name}"();',
            ]
    if label == CHARACTER:
        create += [
            _function(shown, _shown_bump(scoped)),
            f'CREATE TRIGGER "{shown}" AFTER UPDATE OF {_shown()} ON "{table}" '
            f'FOR EACH ROW EXECUTE FUNCTION "{shown}"();',
            _function(grid, "NEW.grid_version = OLD.grid_version + 1;", "NEW"),
            f'CREATE TRIGGER "{grid}" BEFORE UPDATE OF {_grid_columns()} ON "{table}" '
            f'FOR EACH ROW EXECUTE FUNCTION "{grid}"();',
        ]
    return drop, create


def _users(vendor: str) -> tuple[list[str], list[str]]:
    """A user's new name: their campaigns' members lists and their characters' sheets."""
    table = apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table
    name = _name(table, "bump")
    names = ", ".join(f'"{column}"' for column in USER_NAMES)
    bumps = (
        f"UPDATE campaigns_campaign SET {SEQUENCES}, version = version + 1 "
        "WHERE id IN (SELECT campaign_id FROM campaigns_membership WHERE user_id = NEW.id); "
        f"UPDATE characters_character SET {CHARACTER_BUMP} WHERE owner_id = NEW.id;"
    )
    if vendor == "sqlite":
        return [f'DROP TRIGGER IF EXISTS "{name}";'], [
            f'CREATE TRIGGER "{name}" AFTER UPDATE OF {names} ON "{table}" BEGIN {bumps} END;'
        ]
    return [f'DROP FUNCTION IF EXISTS "{name}"() CASCADE;'], [
        _function(name, bumps),
        f'CREATE TRIGGER "{name}" AFTER UPDATE OF {names} ON "{table}" '
        f'FOR EACH ROW EXECUTE FUNCTION "{name}"();',
    ]


# The live table's channel on PostgreSQL (live/brokers.py):
# "<campaign id>:<change_seq>:<public_seq>".
CHANNEL = "cronica_changes"


def _announce() -> tuple[list[str], list[str]]:
    """PostgreSQL: a campaign's new change sequence is announced to every app server
    listening; NOTIFY is delivered at commit, and never for a rolled-back change."""
    name = _name("campaigns_campaign", "announce")
    body = (
        f"PERFORM pg_notify('{CHANNEL}', "
        "NEW.id::text || ':' || NEW.change_seq::text || ':' || NEW.public_seq::text);"
    )
    return [f'DROP FUNCTION IF EXISTS "{name}"() CASCADE;'], [
        _function(name, body),
        f'CREATE TRIGGER "{name}" AFTER UPDATE ON "campaigns_campaign" FOR EACH ROW '
        "WHEN (OLD.change_seq IS DISTINCT FROM NEW.change_seq "
        f'OR OLD.public_seq IS DISTINCT FROM NEW.public_seq) EXECUTE FUNCTION "{name}"();',
    ]


def trigger_sql(vendor: str) -> tuple[list[str], list[str]]:
    """(drop, create) statements of every version trigger, for `vendor`."""
    make = {"sqlite": _sqlite, "postgresql": _postgresql}.get(vendor)
    if make is None:
        return [], []
    drop, create = _users(vendor)
    if vendor == "postgresql":
        announce_drop, announce_create = _announce()
        drop += announce_drop
        create += announce_create
    for scoped in scoped_tables():
        more_drop, more_create = make(scoped)
        drop += more_drop
        create += more_create
    return drop, create


def install_triggers(*, using: str = "default", plan=None, **_signal) -> None:
    """(Re)make every version trigger: connected to `post_migrate`, which `flush` sends
    too (without a plan: it leaves the triggers as they were)."""
    if plan is None:
        return
    connection = connections[using]
    drop, create = trigger_sql(connection.vendor)
    with connection.cursor() as cursor:
        for statement in drop + create:
            cursor.execute(statement)
