"""Who may still read the open streams: every few seconds, one check for all the streams of
a server process (three queries), rather than one per stream (500 streams checked one by
one kept a core busy while nothing happened).

A reader keeps their stream while their session is still signed in as them, with the same
password (Django's session hash), and they are still a member of the campaign.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from campaigns.models import Membership


@dataclass(frozen=True)
class Reader:
    session_key: str | None
    user_id: int
    campaign_id: int


class Readers:
    """A server process's open readers, and those refused at the last check."""

    def __init__(self, check: Callable[[list[Reader]], Awaitable[set[Reader]]]) -> None:
        self.check = check
        self.open: Counter[Reader] = Counter()
        self.refused: set[Reader] = set()
        self.task: asyncio.Task | None = None

    def add(self, reader: Reader) -> None:
        self.open[reader] += 1
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def remove(self, reader: Reader) -> None:
        self.open[reader] -= 1
        if self.open[reader] <= 0:
            del self.open[reader]

    def allowed(self, reader: Reader) -> bool:
        return reader not in self.refused

    async def run(self) -> None:
        while True:
            await asyncio.sleep(settings.LIVE_RECHECK_SECONDS)
            readers = list(self.open)
            if readers:
                self.refused = set(readers) - await self.check(readers)


def still_readers(readers: Iterable[Reader]) -> set[Reader]:
    """Those of `readers` still signed in as themselves and still members."""
    readers = list(readers)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    keys = {reader.session_key for reader in readers if reader.session_key}
    sessions = {
        row.session_key: store().decode(row.session_data)
        for row in store.get_model_class().objects.filter(
            session_key__in=keys, expire_date__gt=timezone.now()
        )
    }
    users = get_user_model()._default_manager.in_bulk({reader.user_id for reader in readers})
    members = set(
        Membership.objects.filter(
            user_id__in={reader.user_id for reader in readers},
            campaign_id__in={reader.campaign_id for reader in readers},
        ).values_list("user_id", "campaign_id")
    )

    def signed_in(reader: Reader) -> bool:
        session, user = sessions.get(reader.session_key), users.get(reader.user_id)
        if session is None or user is None or not user.is_active:
            return False
        return str(session.get(SESSION_KEY)) == str(user.pk) and constant_time_compare(
            session.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash()
        )

    return {
        reader
        for reader in readers
        if signed_in(reader) and (reader.user_id, reader.campaign_id) in members
    }
