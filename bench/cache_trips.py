"""Round trips to the shared fragment cache of every benchmarked page: run it under
scripts/with-redis.sh (CACHE_URL). For each page of the demo, in each mode, one request
made as bench/pages.py times it (into an empty cache, after a wound, or repeated), and
the times this process wrote to Redis during it: each is a round trip, a read or a
pipeline of writes.

Run: scripts/with-redis.sh .venv/bin/python bench/cache_trips.py [--modes cold warm]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import site

MODES = ("cold", "after-roll", "after-wound", "after-xp", "warm")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", nargs="+", choices=MODES, default=MODES)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        site.configure(Path(folder))
        site.prepare_database()
        import redis.connection
        from django.conf import settings
        from django.core.cache import caches

        from bench.pages import _request
        from campaigns.fragments import CACHE

        if not settings.CACHE_URL:
            parser.error("no CACHE_URL: run it under scripts/with-redis.sh")
        world = site.build_demo()
        clients = site.clients(world)
        cache = caches[CACHE]
        sent = []
        send = redis.connection.AbstractConnection.send_packed_command

        def counted(connection, *args, **kwargs):
            sent.append(args)
            return send(connection, *args, **kwargs)

        print(f"{'page':28} {'who':7}" + "".join(f" {mode:>11}" for mode in args.modes))
        for page in site.pages(world):
            client = clients[page.who]
            trips = []
            for mode in args.modes:
                url = page.url(client) if callable(page.url) else page.url
                for n in range(2):  # the second time as the timed requests are made
                    if mode == "cold":
                        cache.clear()
                    elif mode != "warm":
                        site.write(world, mode.removeprefix("after-"), n)
                    sent.clear()
                    with mock.patch.object(
                        redis.connection.AbstractConnection, "send_packed_command", counted
                    ):
                        _request(client, page, url)
                trips.append(len(sent))
            print(f"{page.name:28} {page.who:7}" + "".join(f" {n:>11}" for n in trips))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
