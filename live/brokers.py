"""How a server process hears of changes made by any process sharing its database.

- `PollBroker` (the default on SQLite): reads the watched campaigns' change sequences ten
  times a second, in one small query. Every process sharing the database file sees every
  write, so it also serves several processes of one machine.
- `PostgresBroker` (the default on PostgreSQL): `LISTEN`s on the channel that a trigger
  notifies at each commit (campaigns/versions.py), so any number of app servers sharing
  the database hear each change at once, with no query while nothing happens. After a
  lost connection it reads the sequences once, then listens again: nothing is missed.

`CRONICA_LIVE_BROKER` (`poll` or `postgres`) overrides the choice.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connections

from campaigns.versions import CHANNEL
from live.hub import Broker, Hub

logger = logging.getLogger(__name__)

# After a failure, wait this long before trying again (the database restarting, say).
RETRY_SECONDS = 1.0


class _Reader:
    """The broker's one thread, which reads the sequences and gives its connection back
    each time (to the pool on PostgreSQL)."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-broker")

    async def seqs(self, campaign_ids: list[int]) -> list[tuple[int, int, int]]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, _read_seqs, campaign_ids)


def _read_seqs(campaign_ids: list[int]) -> list[tuple[int, int, int]]:
    from campaigns.models import Campaign

    try:
        return list(
            Campaign.objects.filter(pk__in=campaign_ids)
            .order_by()
            .values_list("pk", "change_seq", "public_seq")
        )
    finally:
        connections["default"].close()


class PollBroker(Broker):
    interval = settings.LIVE_POLL_SECONDS

    def __init__(self, hub: Hub) -> None:
        super().__init__(hub)
        self.reader = _Reader()

    async def run(self) -> None:
        while True:
            watched = self.hub.watched()
            if watched:
                try:
                    self.hub.update(await self.reader.seqs(watched))
                except Exception:
                    logger.exception("The live table could not read the change sequences")
                    await asyncio.sleep(RETRY_SECONDS)
            await asyncio.sleep(self.interval)


class PostgresBroker(Broker):
    def __init__(self, hub: Hub) -> None:
        super().__init__(hub)
        self.reader = _Reader()

    async def run(self) -> None:
        while True:
            try:
                await self.listen()
            except Exception:
                logger.exception("The live table lost its LISTEN connection; listening again")
            await asyncio.sleep(RETRY_SECONDS)

    async def listen(self) -> None:
        import psycopg

        async with await psycopg.AsyncConnection.connect(
            **conninfo(), autocommit=True
        ) as connection:
            await connection.execute(f"LISTEN {CHANNEL}")
            # Whatever was committed while nobody listened.
            watched = self.hub.watched()
            if watched:
                self.hub.update(await self.reader.seqs(watched))
            async for notice in connection.notifies():
                try:
                    campaign_id, change, public = (int(n) for n in notice.payload.split(":"))
                except ValueError:
                    # An older release's payload during a rolling deploy: skip it.
                    logger.warning("The live table skipped a notice: %r", notice.payload)
                    continue
                self.hub.update([(campaign_id, change, public)])


def conninfo() -> dict:
    """The default database's connection parameters (the test database's under tests)."""
    params = connections["default"].settings_dict
    found = {
        "dbname": params["NAME"],
        "user": params.get("USER"),
        "password": params.get("PASSWORD"),
        "host": params.get("HOST"),
        "port": params.get("PORT"),
        # A connection that dies silently (a NAT's timeout, a failover) is noticed within
        # about a minute, and the broker listens again.
        "keepalives": 1,
        "keepalives_idle": 30,
        "keepalives_interval": 10,
        "keepalives_count": 3,
    }
    tls = ("sslmode", "sslrootcert")
    options = {key: value for key, value in params.get("OPTIONS", {}).items() if key in tls}
    return {key: value for key, value in (found | options).items() if value}


BROKERS = {"poll": PollBroker, "postgres": PostgresBroker}


def configured_broker() -> type[Broker]:
    name = settings.LIVE_BROKER
    if not name:
        name = "postgres" if connections["default"].vendor == "postgresql" else "poll"
    return BROKERS[name]
