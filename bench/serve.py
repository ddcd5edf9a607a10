"""Load benchmark: the site under gunicorn (2 sync workers on loopback), requests per
second and CPU per request for the bare view, a sheet and the live feed's poll.

Builds the same throw-away site as bench/pages.py (production settings, the demo),
starts gunicorn on a free loopback port, and for each page sends requests from a few
client threads for a fixed time, in interleaved rounds. CPU per request is what the
worker processes spent (utime + stime from /proc/<pid>/stat) divided by the requests
they answered, so the client's own CPU does not count. Everything stops by itself:
each round is bounded in time, and gunicorn is stopped at the end (and dies with this
process if it is killed).

Run: .venv/bin/python bench/serve.py [--quick] [--seconds 4] [--rounds 3] [--threads 4]
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import site
from bench.processes import cpu_seconds, gunicorn, http_get


def _load(port: int, path: str, headers: dict, seconds: float, threads: int) -> dict:
    """Requests from `threads` clients for `seconds`: count, latencies, statuses."""
    stop = time.perf_counter() + seconds
    latencies: list[float] = []
    statuses: set[int] = set()
    lock = threading.Lock()

    def client() -> None:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            status, _size = http_get(port, path, headers)
            elapsed = time.perf_counter() - start
            with lock:
                latencies.append(elapsed)
                statuses.add(status)

    pool = [threading.Thread(target=client) for _ in range(threads)]
    started = time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return {
        "elapsed": time.perf_counter() - started,
        "latencies": latencies,
        "statuses": statuses,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 round of 2 s per page")
    parser.add_argument("--seconds", type=float, default=4.0, help="per page and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4, help="client threads")
    args = parser.parse_args()
    seconds, rounds = (2.0, 1) if args.quick else (args.seconds, args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        site.configure(Path(folder))
        site.prepare_database()
        from django.conf import settings
        from django.test import Client
        from django.urls import reverse

        demo = site.build_demo()
        client = Client()
        client.force_login(demo.player)
        cookie = (
            f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        )
        base = {
            "Host": "127.0.0.1",
            "X-Forwarded-Proto": "https",
            "Accept-Encoding": "gzip, deflate, br",
            "Cookie": cookie,
        }
        htmx = {**base, "HX-Request": "true"}
        plain = {k: v for k, v in htmx.items() if k != "Accept-Encoding"}
        feed = reverse("mechanics:feed", args=[demo.campaign.pk])
        sheet = reverse("characters:sheet", args=[demo.campaign.pk, demo.character.pk])
        database = settings.DATABASES["default"]
        with gunicorn(site.ROOT, 2, os.environ.copy(), base) as (port, workers):
            # The version the feed shows now: an unchanged poll sends it back.
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", f"{feed}?since=stale", headers=plain)
            text = connection.getresponse().read().decode()
            connection.close()
            version = text.split('data-version="')[1].split('"')[0]
            cases = [
                ("bare view", "/bench/bare/", base),
                ("sheet (tinieblas)", sheet, base),
                ("feed poll, unchanged", f"{feed}?since={version}", htmx),
            ]
            for _name, path, headers in cases:  # warm both workers up
                _load(port, path, headers, 0.5, args.threads)
            results: dict[str, list] = {name: [] for name, _p, _h in cases}
            for _ in range(rounds):
                for name, path, headers in cases:
                    before = cpu_seconds(workers)
                    run = _load(port, path, headers, seconds, args.threads)
                    run["cpu"] = cpu_seconds(workers) - before
                    results[name].append(run)
        print(
            f"gunicorn, 2 sync workers, {args.threads} client threads, {rounds} × {seconds:.0f} s "
            f"per page, SQLite, CONN_MAX_AGE={database['CONN_MAX_AGE']}, DEBUG={settings.DEBUG}"
        )
        print_table(cases, results)
    return 0


def print_table(cases, results) -> None:
    header = (
        f"{'page':24} {'status':>6} {'req/s':>8} {'CPU ms/req':>10} {'×bare':>6} "
        f"{'median ms':>9} {'requests':>8}"
    )
    print(header)
    print("-" * len(header))
    bare_cpu = None
    for name, _path, _headers in cases:
        runs = results[name]
        requests = sum(len(run["latencies"]) for run in runs)
        rate = requests / sum(run["elapsed"] for run in runs)
        cpu = sum(run["cpu"] for run in runs) / requests * 1e3
        bare_cpu = bare_cpu or cpu
        latency = statistics.median(x for run in runs for x in run["latencies"]) * 1e3
        statuses = ",".join(str(s) for s in sorted(set().union(*(r["statuses"] for r in runs))))
        print(
            f"{name:24} {statuses:>6} {rate:8.0f} {cpu:10.2f} {cpu / bare_cpu:6.1f} "
            f"{latency:9.1f} {requests:>8}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
