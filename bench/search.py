"""Search latency on a big campaign, on SQLite or PostgreSQL.

Builds the big campaign (bench/data.py: 500 scenes, 2,950 diaries, 100,000 rolls,
20,000 XP entries...) in the database DATABASE_URL names (a throw-away SQLite file when
unset). Rolls and XP entries reach the index through its triggers as they are inserted;
the rows data.py bulk-inserts past the services (scenes, diaries) are indexed once with
`search.index.rebuild`, as the migration does for an existing site. Then times whole
search requests (Django's test client: middleware, permission checks, both queries,
rendering) as a player and as the GM, for queries that hit a few rows, thousands of
diaries or tens of thousands of rolls, and prints the median server time, the queries
and the hits. The figures are also written to bench/results/.

Run: .venv/bin/python bench/search.py [--rolls 100000] [--repeat 15] [--label after]
     scripts/with-postgres.sh .venv/bin/python bench/search.py

The machine the figures come from may be shared: the load average is written with them,
and the fastest request beside the median shows how much of the median is waiting.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (what is typed, extra parameters, what it stands for)
QUERIES = [
    ("catacumbas", {}, "one GM note (rare word)"),
    ("noelia", {}, "a character's name: sheet, diaries"),
    ("volveremos", {}, "a word of every diary (~2,950)"),
    ('"flores podridas"', {}, "a phrase of every diary"),
    ("puerta -ladrillo", {}, "every diary, all excluded"),
    ("sigilo", {}, "a skill in ~4,000 roll labels"),
    ("destreza", {}, "an attribute in ~11,000 roll labels"),
    ("destreza", {"kind": "roll", "page": "3"}, "the same, third page of rolls"),
    ("prometió", {}, "nothing matches"),
]


def _time_request(client, url: str, repeat: int) -> tuple[float, float, int, int]:
    """Median and fastest ms of the request, its queries, and its hits."""
    from django.db import close_old_connections, connection

    executed = []

    def count(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    hits = response.content.decode().count('class="search-hit')
    times = []
    for _ in range(repeat):
        close_old_connections()
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), min(times), len(executed), hits


def _time_engine(access, typed: str, extra: dict, repeat: int) -> float:
    """Median ms of the search alone (search.engine.search: its two queries)."""
    from search.engine import Filters, search
    from search.text import parse

    query = parse(typed)
    filters = Filters(kind=extra.get("kind", ""))
    page = int(extra.get("page", 1))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        search(access, query, filters, page=page)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--label", default="", help="in the results file's name")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(folder) / 'search.sqlite3'}")
        os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "x" * 40)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
        os.environ["DJANGO_HTTPS"] = "0"
        os.environ.setdefault("LOG_LEVEL", "ERROR")
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client
        from django.urls import reverse

        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        from bench.data import Sizes, build_big_campaign, results_heading, write_results
        from campaigns import services
        from campaigns.permissions import campaign_access
        from search.index import rebuild
        from search.models import SearchEntry

        call_command("migrate", verbosity=0)
        sizes = Sizes(rolls=args.rolls)
        started = time.perf_counter()
        big = build_big_campaign(sizes)
        built = time.perf_counter() - started
        started = time.perf_counter()
        rebuild(campaign_id=big.campaign.pk)
        indexed = time.perf_counter() - started
        services.scene_note_save(
            scene=big.scenes[-3], author=big.gm, body="Bajo la iglesia hay catacumbas."
        )
        with connection.cursor() as cursor:
            # Planner statistics, and on PostgreSQL no dead rows left by the rebuild's
            # delete: a live database has both from autovacuum.
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
        entries = SearchEntry.objects.filter(campaign=big.campaign).count()
        lines = [
            *results_heading(
                "bench/search.py",
                f"{sizes}",
                f"built in {built:.0f} s; rebuild of the campaign's index: {indexed:.1f} s, "
                f"{entries} entries",
                f"median of {args.repeat} requests, server time (test client, whole request), "
                "and of the search alone (engine: its two queries)",
            ),
            f"{'query':<32} {'reader':<7} {'request':>8} {'fastest':>8} {'engine':>7} "
            f"{'queries':>8} {'hits':>5}  what",
        ]
        print("\n".join(lines))
        url = reverse("search:search", args=[big.campaign.pk])
        worst = 0.0
        worst_engine = 0.0
        for reader, user in (("player", big.player), ("GM", big.gm)):
            client = Client()
            client.force_login(user)
            access = campaign_access(user, big.campaign.pk)
            ms, fastest, queries, _hits = _time_request(client, url, args.repeat)
            line = (
                f"{'(no query: the form alone)':<32} {reader:<7} {ms:8.1f} {fastest:8.1f} "
                f"{'':>7} {queries:8d}"
            )
            print(line)
            lines.append(line)
            for typed, extra, what in QUERIES:
                full = f"{url}?{urlencode({'q': typed, **extra})}"
                ms, fastest, queries, hits = _time_request(client, full, args.repeat)
                engine = _time_engine(access, typed, extra, args.repeat)
                worst, worst_engine = max(worst, ms), max(worst_engine, engine)
                shown = typed + ("".join(f" {k}={v}" for k, v in extra.items()))
                line = (
                    f"{shown:<32} {reader:<7} {ms:8.1f} {fastest:8.1f} {engine:7.1f} {queries:8d} "
                    f"{hits:5d}  {what}"
                )
                print(line)
                lines.append(line)
        lines += [
            "",
            f"slowest median: request {worst:.1f} ms, engine {worst_engine:.1f} ms (goal: 50 ms)",
        ]
        print(lines[-1])
        label = f"-{args.label}" if args.label else ""
        write_results(lines, f"search{label}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
