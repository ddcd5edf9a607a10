"""Several workers paging back through old scenes: the big campaign's scene pages under
gunicorn, with the fragments kept in each process (the default) or shared in Redis
(CACHE_URL), with 2 and then 4 sync workers.

Builds the big campaign (bench/data.py). For each set-up it starts gunicorn on loopback
(and, for Redis, a throwaway server); the GM first asks for `--scenes` other scene pages
(each worker loads its templates, the shared pieces are cached), then for `--scenes`
scene pages from 4 client threads: the first pass finds them uncached; the second asks
for the same pages again, each answered by whichever worker takes it. Prints the CPU
per request of each pass (what the workers spent, utime + stime, over the requests they
answered) and its median latency. With a cache per process a page comes back cached
only from the worker that drew it; with Redis from any.

Run: .venv/bin/python bench/workers.py [--scenes 40] [--rolls 20000] [--workers 2 4]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import site
from bench.processes import cpu_seconds, gunicorn, http_get, redis_server

CLIENTS = 4


def _pass(port: int, paths: list[str], headers: dict) -> tuple[list[float], set[int]]:
    """Every path once, from CLIENTS threads: the latencies and the statuses seen."""
    todo: queue.SimpleQueue[str] = queue.SimpleQueue()
    for path in paths:
        todo.put(path)
    latencies: list[float] = []
    statuses: set[int] = set()
    lock = threading.Lock()

    def client() -> None:
        while True:
            try:
                path = todo.get_nowait()
            except queue.Empty:
                return
            start = time.perf_counter()
            status, _size = http_get(port, path, headers)
            with lock:
                latencies.append(time.perf_counter() - start)
                statuses.add(status)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, statuses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--rolls", type=int, default=20_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        site.configure(Path(folder))
        site.prepare_database()
        from django.conf import settings
        from django.test import Client
        from django.urls import reverse

        from bench.data import Sizes, build_big_campaign

        big = build_big_campaign(Sizes(rolls=args.rolls))
        scenes = sorted(big.scenes, key=lambda scene: scene.pk)
        warm, paths = (
            [reverse("campaigns:scene", args=[big.campaign.pk, s.pk]) for s in part]
            for part in (scenes[: args.scenes], scenes[args.scenes : 2 * args.scenes])
        )
        client = Client()
        client.force_login(big.gm)
        headers = {
            "Host": "127.0.0.1",
            "X-Forwarded-Proto": "https",
            "Accept-Encoding": "gzip, deflate, br",
            "Cookie": f"{settings.SESSION_COOKIE_NAME}="
            f"{client.cookies[settings.SESSION_COOKIE_NAME].value}",
        }
        print(
            f"gunicorn (sync workers), SQLite, DEBUG={settings.DEBUG}; the GM asks for "
            f"{len(paths)} scene pages of the big campaign ({args.rolls} rolls) from "
            f"{CLIENTS} client threads, twice"
        )
        header = (
            f"{'fragments':10} {'workers':>7} {'status':>6} | {'1st pass CPU ms/req':>19} "
            f"{'median ms':>9} | {'2nd pass CPU ms/req':>19} {'median ms':>9}"
        )
        print(header)
        print("-" * len(header))
        for cache in ("process", "redis"):
            for workers in args.workers:
                with contextlib.ExitStack() as stack:
                    env = {k: v for k, v in os.environ.items() if k != "CACHE_URL"}
                    if cache == "redis":
                        env["CACHE_URL"] = stack.enter_context(redis_server())
                    port, pids = stack.enter_context(gunicorn(site.ROOT, workers, env, headers))
                    _latencies, statuses = _pass(port, warm, headers)
                    row = []
                    for _ in ("first", "second"):
                        before = cpu_seconds(pids)
                        latencies, seen = _pass(port, paths, headers)
                        cpu = (cpu_seconds(pids) - before) / len(paths) * 1e3
                        row.append((cpu, statistics.median(latencies) * 1e3))
                        statuses |= seen
                shown = ",".join(str(status) for status in sorted(statuses))
                (cold, cold_ms), (again, again_ms) = row
                print(
                    f"{cache:10} {workers:>7} {shown:>6} | {cold:19.1f} {cold_ms:9.1f} | "
                    f"{again:19.1f} {again_ms:9.1f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
