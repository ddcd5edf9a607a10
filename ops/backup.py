"""Consistent backups of the live site, and their restore into an empty database.

A backup is a folder:

    manifest.json   what was copied: per table its row count and a SHA-256 of its rows,
                    per media file its size and SHA-256, and the tip (length and head)
                    of every history chain, a checkpoint `verify_history --checkpoint`
                    compares a later database with
    db.sqlite3      SQLite: a copy made with the online backup API (readers and writers
                    may go on while it runs; the copy is one consistent snapshot)
    db.dump         PostgreSQL: `pg_dump --format=custom` of an exported snapshot
    media/          the files under MEDIA_ROOT, when it is set

The row hashes are computed on the snapshot itself (the SQLite copy, or the PostgreSQL
snapshot pg_dump reads), so the manifest describes exactly what was saved. A restore
recomputes them on the restored database and fails loudly on any difference.

Rows are hashed in the database's own text form (SQLite `quote()`, PostgreSQL
`row::text`), ordered by primary key, so the hash does not depend on Python adapters.
This module uses only Django's connection and settings: it never imports the apps.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

FORMAT = "cronica-backup"
VERSION = 1
MANIFEST = "manifest.json"
SQLITE_FILE = "db.sqlite3"
POSTGRES_FILE = "db.dump"
MEDIA_DIR = "media"
VENDORS = ("sqlite", "postgresql")


class BackupError(Exception):
    """Something the operator must fix; the message says what."""


# --- Row hashes ---------------------------------------------------------------------------


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sqlite_tables(cursor) -> list[str]:
    cursor.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    )
    return [name for (name,) in cursor.fetchall()]


def _sqlite_rows_query(cursor, table: str) -> str:
    cursor.execute(f"PRAGMA table_info({_quote(table)})")
    columns = cursor.fetchall()  # cid, name, type, notnull, default, pk
    names = [_quote(column[1]) for column in columns]
    keys = [_quote(column[1]) for column in sorted(columns, key=lambda c: c[5]) if column[5]]
    row = " || ',' || ".join(f"quote({name})" for name in names)
    order = ", ".join(keys or names)
    return f"SELECT {row} FROM {_quote(table)} ORDER BY {order}"


def _postgres_tables(cursor) -> list[str]:
    cursor.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
    )
    return [name for (name,) in cursor.fetchall()]


def _postgres_rows_query(cursor, table: str) -> str:
    cursor.execute(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a "
        "ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
        "WHERE i.indrelid = %s::regclass AND i.indisprimary ORDER BY a.attnum",
        [_quote(table)],
    )
    keys = [_quote(name) for (name,) in cursor.fetchall()]
    alias = _quote(table)
    # Without a primary key, the row's own text orders it (equal rows hash alike).
    order = ", ".join(keys) if keys else f"{alias}::text"
    return f"SELECT {alias}::text FROM {alias} ORDER BY {order}"


def table_digests(cursor, vendor: str) -> dict[str, dict]:
    """{table: {"rows": count, "sha256": hash of its rows}} for every table."""
    if vendor == "sqlite":
        tables, query_for = _sqlite_tables(cursor), _sqlite_rows_query
    else:
        tables, query_for = _postgres_tables(cursor), _postgres_rows_query
    digests = {}
    for table in tables:
        cursor.execute(query_for(cursor, table))
        digest, count = hashlib.sha256(), 0
        while batch := cursor.fetchmany(1000):
            for (text,) in batch:
                digest.update(text.encode("utf-8", "surrogateescape") + b"\n")
                count += 1
        digests[table] = {"rows": count, "sha256": digest.hexdigest()}
    return digests


def _columns(cursor, vendor: str, table: str) -> set[str]:
    if vendor == "sqlite":
        cursor.execute(f"PRAGMA table_info({_quote(table)})")
        return {column[1] for column in cursor.fetchall()}
    cursor.execute(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = %s",
        [table],
    )
    return {name for (name,) in cursor.fetchall()}


def chain_tips(cursor, vendor: str) -> dict[str, dict[str, dict]]:
    """{table: {campaign id: {"length", "head"}}} of every history chain (the tables
    with chain_seq and chain_hash, campaigns.history): its newest row's place and hash."""
    tables = _sqlite_tables(cursor) if vendor == "sqlite" else _postgres_tables(cursor)
    tips = {}
    for table in tables:
        if not {"campaign_id", "chain_seq", "chain_hash"} <= _columns(cursor, vendor, table):
            continue
        name = _quote(table)
        cursor.execute(
            f"SELECT campaign_id, chain_seq, chain_hash FROM {name} AS tip WHERE chain_seq = "
            f"(SELECT max(chain_seq) FROM {name} WHERE campaign_id = tip.campaign_id) "
            "ORDER BY campaign_id"
        )
        tips[table] = {
            str(campaign): {"length": length, "head": head}
            for campaign, length, head in cursor.fetchall()
        }
    return tips


def database_digests(connection: BaseDatabaseWrapper) -> dict[str, dict]:
    """The digests of a live database, read in one transaction."""
    _check_vendor(connection.vendor)
    with connection.cursor() as cursor:
        return table_digests(cursor, connection.vendor)


# --- Media --------------------------------------------------------------------------------


def _media_root() -> Path | None:
    return Path(settings.MEDIA_ROOT) if settings.MEDIA_ROOT else None


def _file_digests(root: Path) -> dict[str, dict]:
    files = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
        files[path.relative_to(root).as_posix()] = {
            "bytes": path.stat().st_size,
            "sha256": digest.hexdigest(),
        }
    return files


# --- PostgreSQL tools ---------------------------------------------------------------------


def _pg_tool(name: str, connection: BaseDatabaseWrapper) -> str:
    """pg_dump/pg_restore of the server's major version: PG_BIN, Debian's folder, or PATH."""
    major = connection.pg_version // 10000
    candidates = [
        Path(os.environ["PG_BIN"]) / name if os.environ.get("PG_BIN") else None,
        Path(f"/usr/lib/postgresql/{major}/bin") / name,
    ]
    for candidate in candidates:
        if candidate is not None and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} was not found: install the PostgreSQL {major} client tools "
            "or set PG_BIN to their folder."
        )
    return found


def _pg_args(connection: BaseDatabaseWrapper) -> tuple[list[str], dict[str, str]]:
    """Connection arguments for the PostgreSQL tools; the password goes by environment."""
    params = connection.settings_dict
    args = ["--dbname", params["NAME"]]
    if params.get("HOST"):
        args += ["--host", params["HOST"]]
    if params.get("PORT"):
        args += ["--port", str(params["PORT"])]
    if params.get("USER"):
        args += ["--username", params["USER"]]
    env = {**os.environ}
    if params.get("PASSWORD"):
        env["PGPASSWORD"] = params["PASSWORD"]
    return args, env


def _run(command: list[str], env: dict[str, str]) -> None:
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {result.stderr.strip()}")


# --- Backup -------------------------------------------------------------------------------


@dataclass
class Summary:
    path: Path
    tables: int
    rows: int
    media_files: int


def _check_vendor(vendor: str) -> None:
    if vendor not in VENDORS:
        raise BackupError(f"Backups support SQLite and PostgreSQL, not {vendor}.")


def _prepare_folder(path: Path) -> None:
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise BackupError(f"{path} already exists and is not an empty folder.")
    path.mkdir(parents=True, exist_ok=True)


def _backup_sqlite(connection: BaseDatabaseWrapper, path: Path) -> tuple[dict, dict]:
    connection.ensure_connection()
    target = sqlite3.connect(path / SQLITE_FILE)
    try:
        connection.connection.backup(target)
    finally:
        target.close()
    # Hash the copy: it is exactly what was saved, whatever the site wrote since.
    copy = sqlite3.connect(f"file:{path / SQLITE_FILE}?mode=ro", uri=True)
    try:
        return table_digests(copy.cursor(), "sqlite"), chain_tips(copy.cursor(), "sqlite")
    finally:
        copy.close()


def _backup_postgres(connection: BaseDatabaseWrapper, path: Path) -> tuple[dict, dict]:
    if connection.in_atomic_block:
        raise BackupError("Run the backup outside a transaction.")
    pg_dump = _pg_tool("pg_dump", connection)
    args, env = _pg_args(connection)
    connection.set_autocommit(False)
    try:
        with connection.cursor() as cursor:
            # One snapshot for pg_dump and the hashes: both see the same database.
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            (snapshot,) = cursor.fetchone()
            _run(
                [pg_dump, *args, "--format=custom", "--no-owner", "--no-privileges",
                 f"--snapshot={snapshot}", f"--file={path / POSTGRES_FILE}"],
                env,
            )  # fmt: skip
            return table_digests(cursor, "postgresql"), chain_tips(cursor, "postgresql")
    finally:
        connection.rollback()
        connection.set_autocommit(True)


def backup(path: Path, connection: BaseDatabaseWrapper) -> Summary:
    """Copy the database and the media files into the new folder `path`."""
    _check_vendor(connection.vendor)
    _prepare_folder(path)
    if connection.vendor == "sqlite":
        tables, history = _backup_sqlite(connection, path)
    else:
        tables, history = _backup_postgres(connection, path)
    media_root, media = _media_root(), {}
    if media_root is not None and media_root.is_dir():
        shutil.copytree(media_root, path / MEDIA_DIR)
        media = _file_digests(path / MEDIA_DIR)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": timezone.now().isoformat(timespec="seconds"),
        "database": {
            "vendor": connection.vendor,
            "file": SQLITE_FILE if connection.vendor == "sqlite" else POSTGRES_FILE,
        },
        "tables": tables,
        "media": media,
        "history": history,
    }
    (path / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return Summary(path, len(tables), sum(t["rows"] for t in tables.values()), len(media))


# --- Restore ------------------------------------------------------------------------------


def read_manifest(path: Path) -> dict:
    try:
        manifest = json.loads((path / MANIFEST).read_text())
    except (OSError, ValueError) as error:
        raise BackupError(f"{path} has no readable {MANIFEST}: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{path / MANIFEST} is not a Crónica backup manifest.")
    if manifest.get("version") != VERSION:
        raise BackupError(f"Backup format version {manifest.get('version')} is not supported.")
    return manifest


def _differences(expected: dict[str, dict], found: dict[str, dict]) -> list[str]:
    return [
        f"{table}: expected {expected.get(table)}, found {found.get(table)}"
        for table in sorted(set(expected) | set(found))
        if expected.get(table) != found.get(table)
    ]


def _load(vendor: str, source: Path, connection: BaseDatabaseWrapper) -> None:
    if vendor == "sqlite":
        connection.ensure_connection()
        copy = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            copy.backup(connection.connection)
        finally:
            copy.close()
    else:
        args, env = _pg_args(connection)
        _run(
            [_pg_tool("pg_restore", connection), *args, "--no-owner", "--no-privileges",
             "--single-transaction", "--exit-on-error", str(source)],
            env,
        )  # fmt: skip


# PostgreSQL objects in the current schema and the extensions ("KIND name", as DROP takes
# them); an extension's own functions go with the extension.
_POSTGRES_OBJECTS = """
SELECT 'TABLE ' || format('%I', c.relname) FROM pg_class c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
UNION ALL
SELECT 'VIEW ' || format('%I', c.relname) FROM pg_class c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'v'
UNION ALL
SELECT 'SEQUENCE ' || format('%I', c.relname) FROM pg_class c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'S'
UNION ALL
SELECT 'FUNCTION ' || p.oid::regprocedure::text FROM pg_proc p
WHERE p.pronamespace = current_schema()::regnamespace
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
UNION ALL
SELECT 'TEXT SEARCH CONFIGURATION ' || format('%I', t.cfgname) FROM pg_ts_config t
WHERE t.cfgnamespace = current_schema()::regnamespace
UNION ALL
SELECT 'EXTENSION ' || format('%I', e.extname) FROM pg_extension e
"""


def _postgres_objects(connection: BaseDatabaseWrapper) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(_POSTGRES_OBJECTS)
        return {name for (name,) in cursor.fetchall()}


def _empty_database(vendor: str, connection: BaseDatabaseWrapper, before: set[str]) -> None:
    """Drop what the restore created, leaving the database as empty as it was found."""
    if vendor == "sqlite":
        connection.ensure_connection()
        # Copying an empty database over the file replaces every page of it.
        empty = sqlite3.connect(":memory:")
        try:
            empty.backup(connection.connection)
        finally:
            empty.close()
        return
    with connection.cursor() as cursor:
        # Tables first: CASCADE takes their indexes, triggers and owned sequences, and
        # a later DROP ... IF EXISTS skips what already went with them.
        for entry in sorted(_postgres_objects(connection) - before, key=_drop_order):
            kind = _DROP_ORDER[_drop_order(entry)]
            cursor.execute(f"DROP {kind} IF EXISTS {entry[len(kind) + 1 :]} CASCADE")


_DROP_ORDER = ("TABLE", "VIEW", "SEQUENCE", "FUNCTION", "TEXT SEARCH CONFIGURATION", "EXTENSION")


def _drop_order(entry: str) -> int:
    return next(i for i, kind in enumerate(_DROP_ORDER) if entry.startswith(f"{kind} "))


def _empty_folder(folder: Path) -> None:
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def restore(path: Path, connection: BaseDatabaseWrapper) -> Summary:
    """Load the backup in `path` into `connection`'s database, which must be empty."""
    manifest = read_manifest(path)
    vendor = manifest["database"]["vendor"]
    if vendor != connection.vendor:
        raise BackupError(f"This is a {vendor} backup; the database is {connection.vendor}.")
    existing = connection.introspection.table_names()
    if existing:
        raise BackupError(
            f"The database {connection.settings_dict['NAME']} is not empty "
            f"({len(existing)} tables). Restore only into an empty database: create a new "
            "one, point DATABASE_URL at it and run restore again."
        )
    media_root = _media_root()
    if manifest["media"]:
        if media_root is None:
            raise BackupError("The backup has media files but MEDIA_ROOT is not set.")
        if media_root.exists() and any(media_root.iterdir()):
            raise BackupError(f"MEDIA_ROOT ({media_root}) is not empty.")
    source = path / manifest["database"]["file"]
    before = _postgres_objects(connection) if vendor == "postgresql" else set()
    try:
        _load(vendor, source, connection)
        if manifest["media"]:
            shutil.copytree(path / MEDIA_DIR, media_root, dirs_exist_ok=True)
            problems = _differences(manifest["media"], _file_digests(media_root))
            if problems:
                raise BackupError("The restored media files differ: " + "; ".join(problems))
        problems = _differences(manifest["tables"], database_digests(connection))
        if problems:
            raise BackupError(
                "The restored database differs from the manifest: " + "; ".join(problems)
            )
    except BaseException:
        # A refused restore must not leave a half-trusted copy behind that someone might
        # start the site on: the target goes back to empty, as it was.
        _empty_database(vendor, connection, before)
        if manifest["media"] and media_root.is_dir():
            _empty_folder(media_root)
        raise
    tables = manifest["tables"]
    return Summary(
        path, len(tables), sum(t["rows"] for t in tables.values()), len(manifest["media"])
    )
