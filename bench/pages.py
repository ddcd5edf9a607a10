"""Page latency beside a bare Django view, on the demo and on a big campaign.

Builds a throw-away SQLite site with production settings (debug off, manifest static
files, HTTPS behind a proxy, the configured CONN_MAX_AGE), loads the demo (`seed_demo`
plus a scene of play) and a big campaign (bench/data.py: 20 characters, 500 scenes,
2,950 diaries, 100,000 rolls, 20,000 XP entries, 5,000 health events), then times every
page with Django's test client, logged in as the GM or a player, all interleaved in one
process: each round runs every page of both campaigns and the bare view (a tiny
template, no query; and the same behind a login, which reads the session and the user)
in a shuffled order; the pages that write (the roll POST) have their
rounds after all the others', so that what they write reaches no other page's figure.
Around each request the connection handlers of request_started/request_finished run as
they do in production (the test client skips them), so a site that reconnects per
request pays for it here too.

Prints, per page: median ms, ratio to the bare view, and of one request made as the timed
ones are (after the mode's write, or into an empty cache): its status, queries and HTML
bytes (and gzipped); for the demo and the big campaign, and big/demo.

Modes (`--mode`): `warm`, repeats of an unchanged page; `cold`, the fragment cache
emptied before each timed request (a restart, a new worker, an evicted entry);
`after-roll`, `after-wound`, `after-xp`, the first request after that write, made
through the services (not timed) before each timed request of its campaign.

Run: .venv/bin/python bench/pages.py [--quick] [--rounds N] [--rolls N] [--mode MODE]
     scripts/with-redis.sh .venv/bin/python bench/pages.py ...   # fragments in Redis
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import site


def _request(client, page, url: str):
    from django.db import close_old_connections

    extra = {**site.PROXY, **(site.HTMX if page.htmx else {}), **page.headers}
    close_old_connections()  # request_started
    response = getattr(client, page.method)(url, page.data, **extra)
    close_old_connections()  # request_finished
    return response


def _count_queries(client, page, url: str) -> tuple[int, object]:
    from django.db import connection

    executed = []

    def count(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = _request(client, page, url)
    return len(executed), response


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of 25")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--rolls", type=int, default=None, help="rolls in the big campaign")
    parser.add_argument("--only", default="", help="measure only pages whose name has this")
    parser.add_argument(
        "--mode", default="warm", choices=("warm", "cold", "after-roll", "after-wound", "after-xp")
    )
    args = parser.parse_args()
    rounds = args.rounds or (5 if args.quick else 25)
    with tempfile.TemporaryDirectory() as folder:
        site.configure(Path(folder))
        site.prepare_database()
        from django.conf import settings
        from django.test import Client

        from bench.data import Sizes

        started = time.perf_counter()
        worlds = [site.build_demo()]
        sizes = Sizes() if args.rolls is None else Sizes(rolls=args.rolls)
        worlds.append(site.build_big(sizes))
        took = time.perf_counter() - started
        print(f"built the demo and the big campaign ({sizes}) in {took:.0f} s")
        database = settings.DATABASES["default"]
        fragments = "Redis (CACHE_URL)" if settings.CACHE_URL else "in this process"
        print(
            f"{database['ENGINE'].rsplit('.', 1)[-1]}, CONN_MAX_AGE={database['CONN_MAX_AGE']}, "
            f"DEBUG={settings.DEBUG}, {rounds} rounds, mode {args.mode}, fragments {fragments}"
        )
        from django.core.cache import caches

        from campaigns.fragments import CACHE

        by_name = {world.name: world for world in worlds}
        writes = {name: iter(range(10**9)) for name in by_name}

        def before(world_name: str) -> None:
            """What the mode does before a timed request (not timed)."""
            if args.mode == "cold":
                caches[CACHE].clear()
            elif args.mode.startswith("after-") and world_name in by_name:
                site.write(
                    by_name[world_name], args.mode.removeprefix("after-"), next(writes[world_name])
                )

        clients = {
            (world.name, who): client
            for world in worlds
            for who, client in site.clients(world).items()
        }
        anonymous = Client()
        bare = site.Page("bare view", "-", "/bench/bare/")
        signed_in = site.Page("bare view, signed in", "player", "/bench/signed-in/")
        cases = [("-", bare, anonymous), ("-", signed_in, clients["demo", "player"])] + [
            (world.name, page, clients[world.name, page.who])
            for world in worlds
            for page in site.pages(world)
            if args.only in page.name
        ]
        times: dict[tuple, list[float]] = {}
        wall: dict[tuple, list[float]] = {}
        facts: dict[tuple, tuple] = {}
        for world_name, page, client in cases:  # warm up, and count once, in the mode
            url = page.url(client) if callable(page.url) else page.url
            _request(client, page, url)
            url = page.url(client) if callable(page.url) else page.url
            before(world_name)
            queries, response = _count_queries(client, page, url)
            body = response.content
            if response.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            if page.method == "post":
                # A refused form re-renders the panel with 200: make sure a roll was made.
                assert "cronica:roll" in response.get("HX-Trigger", ""), body[:2000]
            facts[world_name, page.name, page.who] = (
                queries,
                len(body),
                len(gzip.compress(body)),
                response.status_code,
            )
        # Pages that write (the roll POST) run after all the others, so a read in the warm
        # mode follows no write of the benchmark's own.
        reads = [case for case in cases if case[1].method == "get"]
        posting = [case for case in cases if case[1].method != "get"]
        shuffle = random.Random(3)
        for order in (reads, posting):
            for _ in range(rounds):
                shuffle.shuffle(order)
                for world_name, page, client in order:
                    url = page.url(client) if callable(page.url) else page.url
                    key = (world_name, page.name, page.who)
                    before(world_name)
                    start, cpu = time.perf_counter(), time.process_time()
                    _request(client, page, url)
                    times.setdefault(key, []).append((time.process_time() - cpu) * 1e3)
                    wall.setdefault(key, []).append((time.perf_counter() - start) * 1e3)
        print_table([(w, p.name, p.who) for w, p, _c in cases], times, wall, facts)
    return 0


def print_table(keys: list, times: dict, wall: dict, facts: dict) -> None:
    """CPU milliseconds of this process (the database is SQLite, in process), so other
    work on the machine does not blur the ratios; wall-clock medians beside them."""
    bare = statistics.median(times["-", "bare view", "-"])
    rows = [(name, who) for world, name, who in keys if world != "big"]
    header = (
        f"{'page':26} {'who':6} {'st':>3} | {'demo ms':>8} {'wall':>6} {'×bare':>6} {'q':>3} "
        f"{'KB':>6} "
        f"{'gz KB':>6} | {'big ms':>8} {'wall':>7} {'×bare':>7} {'q':>3} {'KB':>7} {'gz KB':>6} | "
        f"{'big/demo':>8}"
    )
    bare_wall = statistics.median(wall["-", "bare view", "-"])
    print(f"bare view: {bare:.2f} ms CPU, {bare_wall:.2f} ms wall (medians)")
    print(header)
    print("-" * len(header))
    for name, who in rows:
        world = "-" if ("-", name, who) in times else "demo"
        demo_ms = statistics.median(times[world, name, who])
        demo_wall = statistics.median(wall[world, name, who])
        queries, size, gz, status = facts[world, name, who]
        line = (
            f"{name:26} {who:6} {status:>3} | {demo_ms:8.2f} {demo_wall:6.1f} "
            f"{demo_ms / bare:6.1f} {queries:>3} "
            f"{size / 1024:6.1f} {gz / 1024:6.1f} |"
        )
        if ("big", name, who) in times:
            big_ms = statistics.median(times["big", name, who])
            b_queries, b_size, b_gz, b_status = facts["big", name, who]
            flag = "" if b_status == status else f" (big: {b_status})"
            big_wall = statistics.median(wall["big", name, who])
            line += (
                f" {big_ms:8.2f} {big_wall:7.1f} {big_ms / bare:7.1f} {b_queries:>3} "
                f"{b_size / 1024:7.1f} "
                f"{b_gz / 1024:6.1f} | {big_ms / demo_ms:8.1f}{flag}"
            )
        print(line)


if __name__ == "__main__":
    raise SystemExit(main())
