"""The database side of the index, one set of statements per engine (applied by
migration 0002): the full-text structures, and the triggers that index rolls and XP
entries as they are inserted (bulk inserts too), in the inserting statement."""

from __future__ import annotations

COLUMNS = "campaign_id, kind, object_id, story_id, scene_id, character_id, secret, title, body, at"

# Rows of the index drawn from rolls and XP entries: `{source}` is the table read (or
# PostgreSQL's transition table of the inserted rows), `{where}` narrows it.
ROLL_ROWS = (
    "SELECT r.campaign_id, 'roll', r.id, NULL, r.scene_id, r.character_id, r.secret, "
    "r.label, '', r.created_at FROM {source} r WHERE r.label <> ''{where}"
)
XP_ROWS = (
    "SELECT r.campaign_id, 'xp', r.id, NULL, r.scene_id, r.character_id, FALSE, "
    "r.reason, '', r.created_at FROM {source} r WHERE r.reason <> ''{where}"
)
TRIGGERED = {"mechanics_roll": ROLL_ROWS, "characters_xpentry": XP_ROWS}

SQLITE = [
    # External content: the text stays in search_searchentry, FTS5 keeps only the index.
    "CREATE VIRTUAL TABLE search_fts USING fts5(title, body, content='search_searchentry', "
    "content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
    "CREATE TRIGGER search_fts_insert AFTER INSERT ON search_searchentry BEGIN "
    "INSERT INTO search_fts(rowid, title, body) VALUES (new.id, new.title, new.body); END",
    "CREATE TRIGGER search_fts_delete AFTER DELETE ON search_searchentry BEGIN "
    "INSERT INTO search_fts(search_fts, rowid, title, body) "
    "VALUES ('delete', old.id, old.title, old.body); END",
    "CREATE TRIGGER search_fts_update AFTER UPDATE OF title, body ON search_searchentry BEGIN "
    "INSERT INTO search_fts(search_fts, rowid, title, body) "
    "VALUES ('delete', old.id, old.title, old.body); "
    "INSERT INTO search_fts(rowid, title, body) VALUES (new.id, new.title, new.body); END",
    *(
        f"CREATE TRIGGER search_{table} AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO search_searchentry ({COLUMNS}) "
        + rows.format(source=table, where=" AND r.id = new.id")
        + "; END"
        for table, rows in TRIGGERED.items()
    ),
]
SQLITE_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS search_{table}" for table in TRIGGERED),
    "DROP TRIGGER IF EXISTS search_fts_update",
    "DROP TRIGGER IF EXISTS search_fts_delete",
    "DROP TRIGGER IF EXISTS search_fts_insert",
    "DROP TABLE IF EXISTS search_fts",
]

CONFIG = "cronica_es"
POSTGRESQL = [
    # unaccent ships with Debian's postgresql-15 and is a trusted extension: the
    # database's owner may create it.
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    f"CREATE TEXT SEARCH CONFIGURATION {CONFIG} (COPY = pg_catalog.spanish)",
    # Words with accents lose them before they are stemmed ("prometió" -> prometi -> promet).
    f"ALTER TEXT SEARCH CONFIGURATION {CONFIG} "
    "ALTER MAPPING FOR hword, hword_part, word WITH unaccent, spanish_stem",
    # The title weighs more than the body in the ranking.
    "CREATE FUNCTION search_entry_document() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"NEW.document := setweight(to_tsvector('{CONFIG}', coalesce(NEW.title, '')), 'A') "
    f"|| setweight(to_tsvector('{CONFIG}', coalesce(NEW.body, '')), 'B'); "
    "RETURN NEW; END $$",
    "CREATE TRIGGER search_entry_document BEFORE INSERT OR UPDATE OF title, body "
    "ON search_searchentry FOR EACH ROW EXECUTE FUNCTION search_entry_document()",
    # No pending list (fastupdate): each write updates the index at once, so a search
    # never reads through megabytes of entries waiting for the next vacuum.
    "CREATE INDEX search_entry_document ON search_searchentry USING gin (document) "
    "WITH (fastupdate = off)",
    *(
        statement
        for table, rows in TRIGGERED.items()
        for statement in (
            f"CREATE FUNCTION search_{table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"INSERT INTO search_searchentry ({COLUMNS}) "
            + rows.format(source="added", where="")
            + "; RETURN NULL; END $$",
            # Once per statement, from its inserted rows: a bulk insert is one INSERT here.
            f"CREATE TRIGGER search_{table} AFTER INSERT ON {table} "
            "REFERENCING NEW TABLE AS added FOR EACH STATEMENT "
            f"EXECUTE FUNCTION search_{table}()",
        )
    ),
]
POSTGRESQL_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS search_{table} ON {table}" for table in TRIGGERED),
    *(f"DROP FUNCTION IF EXISTS search_{table}()" for table in TRIGGERED),
    "DROP INDEX IF EXISTS search_entry_document",
    "DROP TRIGGER IF EXISTS search_entry_document ON search_searchentry",
    "DROP FUNCTION IF EXISTS search_entry_document()",
    f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {CONFIG}",
]


def statements(vendor: str, *, reverse: bool = False) -> list[str]:
    if vendor == "postgresql":
        return POSTGRESQL_REVERSE if reverse else POSTGRESQL
    if vendor == "sqlite":
        return SQLITE_REVERSE if reverse else SQLITE
    raise NotImplementedError(f"search has no index for {vendor}")


def triggered_rows(table: str, campaign_id: int | None) -> tuple[str, list]:
    """The INSERT that (re)indexes a triggered table's rows, of one campaign or all."""
    where, params = ("", []) if campaign_id is None else (" AND r.campaign_id = %s", [campaign_id])
    sql = f"INSERT INTO search_searchentry ({COLUMNS}) " + TRIGGERED[table].format(
        source=table, where=where
    )
    return sql, params
