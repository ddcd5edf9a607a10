"""The live table's hub: which campaigns have open streams here, and their change sequence.

One hub per event loop (one per server process). Streams wait on a campaign's channel;
a broker (live/brokers.py) tells the hub each campaign's latest `Campaign.change_seq`,
which every write bumps in its own transaction (campaigns/versions.py). Only that number
travels: a page that hears of a change fetches its regions again through the usual
permission-checked views, so the stream never carries what its reader may not see.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Iterable


class Channel:
    """One campaign's latest change sequence; `changed` is set, and replaced, on news."""

    def __init__(self, seq: int) -> None:
        self.seq = seq
        self.changed = asyncio.Event()
        self.listeners = 0

    def advance(self, seq: int) -> None:
        if seq > self.seq:
            self.seq = seq
            # A fresh event for the next change: whoever waits on this one wakes up.
            changed, self.changed = self.changed, asyncio.Event()
            changed.set()


class Hub:
    def __init__(self, broker_factory: Callable[[Hub], Broker]) -> None:
        self.channels: dict[int, Channel] = {}
        self.broker = broker_factory(self)

    def watched(self) -> list[int]:
        return list(self.channels)

    def open(self, campaign_id: int, seq: int) -> Channel:
        """A stream opens on the campaign, whose sequence its reader loaded as `seq`."""
        channel = self.channels.get(campaign_id)
        if channel is None:
            channel = self.channels[campaign_id] = Channel(seq)
        else:
            channel.advance(seq)
        channel.listeners += 1
        self.broker.start()
        return channel

    def close(self, campaign_id: int) -> None:
        channel = self.channels.get(campaign_id)
        if channel is not None:
            channel.listeners -= 1
            if channel.listeners <= 0:
                del self.channels[campaign_id]

    def update(self, seqs: Iterable[tuple[int, int]]) -> None:
        """The broker's news: (campaign id, change sequence) pairs."""
        for campaign_id, seq in seqs:
            channel = self.channels.get(campaign_id)
            if channel is not None:
                channel.advance(seq)


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


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The running loop's hub, made on first use with the configured broker."""
    from live.brokers import configured_broker

    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(configured_broker())
    return found
