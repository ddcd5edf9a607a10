"""Settings that make every request cheaper and the server sound: compressed HTML, and
database connections kept between requests (pooled on PostgreSQL)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

from django.urls import reverse

ROOT = Path(__file__).resolve().parents[1]
FNAME = 0x08  # gzip header flag: a file name follows (Django's random BREACH padding)


def test_pages_are_gzipped_for_browsers_that_accept_it(client, campaign, player):
    client.force_login(player)
    response = client.get(
        reverse("campaigns:detail", args=[campaign.pk]), HTTP_ACCEPT_ENCODING="gzip, br"
    )
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert campaign.name in gzip.decompress(response.content).decode()


def test_pages_are_sent_plain_to_clients_that_do_not_accept_gzip(client, campaign, gm):
    client.force_login(gm)
    response = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert not response.has_header("Content-Encoding")
    assert campaign.name in response.text


def test_every_compressed_page_carries_random_padding_against_breach(client, campaign, observer):
    client.force_login(observer)
    url = reverse("campaigns:detail", args=[campaign.pk])
    bodies = [client.get(url, HTTP_ACCEPT_ENCODING="gzip").content for _ in range(12)]
    assert all(body[3] & FNAME for body in bodies)
    # The padding is 0-99 bytes long, drawn afresh for each response.
    assert len({body.index(b"\x00", 10) for body in bodies}) > 1


def _in_fresh_interpreter(code: str, database_url: str, **more) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="1",
        DATABASE_URL=database_url,
        **more,
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_sqlite_keeps_its_connection_and_postgresql_borrows_from_a_pool():
    """Pages run in one thread per process (config/asgi.py, tests/test_asgi.py), which
    keeps its SQLite connection; Django's pool excludes persistent connections."""
    code = (
        "import django; django.setup(); from django.db import connection as c;"
        "pool = c.settings_dict.get('OPTIONS', {}).get('pool');"
        "print(c.settings_dict['CONN_MAX_AGE'], pool and pool['max_size'])"
    )
    (ROOT / "test-results").mkdir(exist_ok=True)
    sqlite = _in_fresh_interpreter(
        code, f"sqlite:///{ROOT / 'test-results' / 'connections.sqlite3'}"
    )
    postgres = _in_fresh_interpreter(
        code, "postgres://cronica@127.0.0.1:9/cronica", CRONICA_DB_POOL="7"
    )
    assert sqlite.stdout.split() == ["60", "None"], sqlite.stderr
    assert postgres.stdout.split() == ["0", "7"], postgres.stderr
