"""The live table's hub: which campaigns have open streams here, and their sequences.

One hub per event loop (one per server process). Streams wait on a campaign's channel;
a broker (live/brokers.py) tells the hub each campaign's latest `change_seq` (every
change, which GMs follow) and `public_seq` (those players and observers may see), which
every write bumps in its own transaction (campaigns/versions.py). Only those numbers
travel: a page that hears of a change fetches its regions again through the usual
permission-checked views, so the stream never carries what its reader may not see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from asgiref.sync import sync_to_async
from django.db import connections

if TYPE_CHECKING:
    from live.readers import Readers


class Channel:
    """One campaign's latest sequences; `changed` is set, and replaced, on news."""

    def __init__(self, change: int, public: int) -> None:
        self.change, self.public = change, public
        self.changed = asyncio.Event()
        self.listeners = 0

    def seq(self, sees_everything: bool) -> int:
        return self.change if sees_everything else self.public

    def advance(self, change: int, public: int) -> None:
        if change > self.change or public > self.public:
            self.change, self.public = max(change, self.change), max(public, self.public)
            # A fresh event for the next change: whoever waits on this one wakes up.
            changed, self.changed = self.changed, asyncio.Event()
            changed.set()


class Hub:
    def __init__(self, broker_factory: Callable[[Hub], Broker], readers: Readers | None) -> None:
        self.channels: dict[int, Channel] = {}
        self.broker = broker_factory(self)
        # Who may still read (live/readers.py).
        self.readers = readers

    def watched(self) -> list[int]:
        return list(self.channels)

    def open(self, campaign_id: int, change: int, public: int) -> Channel:
        """A stream opens on the campaign, whose sequences its reader has just loaded."""
        channel = self.channels.get(campaign_id)
        if channel is None:
            channel = self.channels[campaign_id] = Channel(change, public)
        else:
            channel.advance(change, public)
        channel.listeners += 1
        self.broker.start()
        return channel

    def close(self, campaign_id: int) -> None:
        channel = self.channels.get(campaign_id)
        if channel is not None:
            channel.listeners -= 1
            if channel.listeners <= 0:
                del self.channels[campaign_id]

    def update(self, seqs: Iterable[tuple[int, int, int]]) -> None:
        """The broker's news: (campaign id, change_seq, public_seq) triples."""
        for campaign_id, change, public in seqs:
            channel = self.channels.get(campaign_id)
            if channel is not None:
                channel.advance(change, public)


class Broker:
    """Tells a hub of changes; started by the first stream, runs as long as the loop."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        raise NotImplementedError


def released(function):
    """Run `function` in a thread and close its database connection afterwards: a stream
    lasts hours, and must not hold a connection meanwhile."""

    def run(*args):
        try:
            return function(*args)
        finally:
            connections.close_all()

    return sync_to_async(run, thread_sensitive=False)
