"""Backups: a consistent copy of a site with some play restores into a fresh database whole.

Runs on SQLite and, through scripts/with-postgres.sh, on PostgreSQL (the fresh database
is a second one in the same cluster). The restore runs `manage.py restore` in its own
process, as an operator would.
"""

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import CommandError, call_command
from django.db import DEFAULT_DB_ALIAS, connection, connections

from campaigns import services as campaign_services
from campaigns.models import Campaign, Scene
from characters import services
from characters.models import Character
from mechanics.models import Roll
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from ops.backup import MANIFEST, database_digests
from tests.factories import UserFactory
from tests.mechanics_web.rolls import store_roll

ROOT = Path(__file__).resolve().parents[1]


def play_some() -> None:
    """The demo campaigns, and a session of play in the Tinieblas one."""
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(system="tinieblas")
    gm = campaign.memberships.get(role="gm").user
    characters = list(Character.objects.filter(campaign=campaign).order_by("pk"))
    scene = campaign_services.scene_create(
        campaign=campaign, title="La cripta", summary="Las **llamas**", participants=characters
    )
    for number, character in enumerate(characters):
        store_roll(campaign, character.owner, character=character, scene=scene, seed=number)
        services.xp_adjust(character=character, user=gm, amount=3, reason="Sesión cero")
        health_services.character_apply_damage(
            character=character, user=gm, damage=DamageInput(2, "L"), scene=scene
        )
        services.diary_save(
            scene=scene,
            character=character,
            user=character.owner,
            body=f"Diario de {character.name}: *ñandú* ✓",
            status="published",
            visibility="group",
        )
    store_roll(campaign, gm, label="Secreta", secret=True, scene=scene)
    campaign_services.scene_note_save(scene=scene, author=gm, body="Nota del máster")
    # La cripta, and the three scenes of each demo campaign's chronicle.
    assert Scene.objects.count() == 1 + 3 * Campaign.objects.count()


def database_url(settings_dict) -> str:
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings_dict['NAME']}"
    user = quote(settings_dict["USER"] or "")
    password = f":{quote(settings_dict['PASSWORD'])}" if settings_dict["PASSWORD"] else ""
    host = settings_dict["HOST"] or "localhost"
    port = f":{settings_dict['PORT']}" if settings_dict["PORT"] else ""
    return f"postgres://{user}{password}@{host}{port}/{settings_dict['NAME']}"


@pytest.fixture
def fresh_database(tmp_path):
    """Settings of an empty database beside the test one, dropped afterwards."""
    settings_dict = {**connection.settings_dict}
    if connection.vendor == "sqlite":
        settings_dict["NAME"] = str(tmp_path / "restored.sqlite3")
        yield settings_dict
        return
    settings_dict["NAME"] = f"{connection.settings_dict['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{settings_dict["NAME"]}"')
        cursor.execute(f'CREATE DATABASE "{settings_dict["NAME"]}"')
    yield settings_dict
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{settings_dict["NAME"]}" WITH (FORCE)')


@contextmanager
def open_database(settings_dict):
    """A connection of its own to another database. It borrows the default alias, the one
    the test may use and the one django.contrib.postgres looks up when it connects; it is
    not the default connection. Without a pool: Django keeps one per alias, which would
    hand out the default database's connections."""
    options = {k: v for k, v in settings_dict.get("OPTIONS", {}).items() if k != "pool"}
    settings_dict = {**settings_dict, "OPTIONS": options}
    opened = type(connections[DEFAULT_DB_ALIAS])(settings_dict, alias=DEFAULT_DB_ALIAS)
    try:
        yield opened
    finally:
        opened.close()


def manage(*args, database: dict, media_root: Path):
    env = {
        **os.environ,
        "DATABASE_URL": database_url(database),
        "DJANGO_MEDIA_ROOT": str(media_root),
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_a_fresh_database_with_every_row(tmp_path, settings, fresh_database):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    (tmp_path / "media" / "retratos").mkdir(parents=True)
    (tmp_path / "media" / "retratos" / "lucia.png").write_bytes(b"\x89PNG fake portrait")
    play_some()
    backup = tmp_path / "backup"

    call_command("backup", str(backup), stdout=StringIO())

    manifest = json.loads((backup / MANIFEST).read_text())
    source = database_digests(connection)
    assert manifest["tables"] == source
    for table in ("mechanics_roll", "characters_xpentry", "campaigns_diaryentry"):
        assert manifest["tables"][table]["rows"] > 0, table
    # The demo's portraits (seed_demo draws them) and the file put there by hand.
    media = {
        path.relative_to(tmp_path / "media").as_posix()
        for path in (tmp_path / "media").rglob("*")
        if path.is_file()
    }
    assert "retratos/lucia.png" in media
    assert set(manifest["media"]) == media

    restored_media = tmp_path / "restored-media"
    result = manage("restore", str(backup), database=fresh_database, media_root=restored_media)
    assert result.returncode == 0, result.stderr
    assert "every table matches the manifest" in result.stdout

    with open_database(fresh_database) as restored:
        assert database_digests(restored) == source
    assert (restored_media / "retratos" / "lucia.png").read_bytes() == b"\x89PNG fake portrait"

    # The restored history checks out, chain for chain the same as the live site's.
    live = StringIO()
    call_command("verify_history", stdout=live)
    checked = manage("verify_history", database=fresh_database, media_root=restored_media)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout == live.getvalue()
    played = Campaign.objects.get(system="tinieblas")
    rolls = Roll.objects.filter(campaign=played).count()
    assert rolls > 1
    assert f"Campaign {played.pk} ({played.name}): OK: Roll {rolls} " in checked.stdout


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_database_that_is_not_empty(tmp_path):
    UserFactory(username="dora")
    call_command("backup", str(tmp_path / "backup"), stdout=StringIO())
    with pytest.raises(CommandError, match="is not empty"):
        call_command("restore", str(tmp_path / "backup"))


@pytest.mark.django_db(transaction=True)
def test_restore_finds_a_backup_that_was_tampered_with_and_leaves_the_target_empty(
    tmp_path, settings, fresh_database
):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "lucia.png").write_bytes(b"\x89PNG fake portrait")
    UserFactory(username="dora")
    backup = tmp_path / "backup"
    call_command("backup", str(backup), stdout=StringIO())
    if connection.vendor == "sqlite":
        with sqlite3.connect(backup / "db.sqlite3") as copy:
            copy.execute("UPDATE auth_user SET username = 'eva' WHERE username = 'dora'")
    else:
        # pg_dump's custom format is compressed: the manifest is what disagrees instead.
        manifest = json.loads((backup / MANIFEST).read_text())
        manifest["tables"]["auth_user"]["sha256"] = "0" * 64
        (backup / MANIFEST).write_text(json.dumps(manifest))
    restored_media = tmp_path / "restored-media"

    result = manage("restore", str(backup), database=fresh_database, media_root=restored_media)

    assert result.returncode != 0
    assert "auth_user" in result.stderr
    # Nothing of the refused copy is left to start a site on, and a second try may run.
    with open_database(fresh_database) as restored:
        assert restored.introspection.table_names() == []
        if connection.vendor == "postgresql":
            with restored.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_class "
                    "WHERE relnamespace = current_schema()::regnamespace"
                )
                assert cursor.fetchone() == (0,)
                cursor.execute(
                    "SELECT count(*) FROM pg_proc "
                    "WHERE pronamespace = current_schema()::regnamespace"
                )
                assert cursor.fetchone() == (0,)
                # The search's extension and text search configuration went too.
                cursor.execute(
                    "SELECT count(*) FROM pg_ts_config "
                    "WHERE cfgnamespace = current_schema()::regnamespace"
                )
                assert cursor.fetchone() == (0,)
                cursor.execute("SELECT extname FROM pg_extension")
                assert cursor.fetchall() == [("plpgsql",)]
    assert list(restored_media.iterdir()) == []


def test_backup_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "old.txt").write_text("x")
    with pytest.raises(CommandError, match="not an empty folder"):
        call_command("backup", str(tmp_path))


def test_restore_refuses_a_folder_without_a_manifest(tmp_path):
    with pytest.raises(CommandError, match=MANIFEST):
        call_command("restore", str(tmp_path))
