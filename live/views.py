"""The live table's stream: Server-Sent Events telling a campaign's open pages of changes.

Each event is `change`, its id and data the campaign's sequence its reader follows: every
change for a GM, only those they may see for a player or observer (`Campaign.public_seq`),
so that not even the moment of a secret roll reaches them. A number, never content: the
page then fetches each live region through its own permission-checked view
(static/js/live.js), so a reader only ever sees what those views show them.

A reconnect sends the last id it had (`Last-Event-ID`, or `since` from the page for the
first connection): a change made meanwhile, a server restart included, is sent at once.
The reader's login and membership are checked again every few seconds; logging out,
a new password or leaving the campaign ends the stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from campaigns.htmx import unchanged
from campaigns.permissions import campaign_access
from live.brokers import configured_broker
from live.hub import Hub, released
from live.readers import Reader, Readers, still_readers

_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The running loop's hub, made on first use with the configured broker."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(configured_broker(), Readers(released(still_readers)))
    return found


def _reader(request: HttpRequest, campaign_id: int) -> tuple[int, bool, int, int]:
    """The reader's id, whether they see everything, and the campaign's two sequences;
    Http404 for anyone not a member. The session and the user are loaded here too, in a
    thread whose connection is closed after (`request.auser()` left one checked out of the
    pool for as long as the stream lasted)."""
    access = campaign_access(request.user, campaign_id)
    campaign = access.campaign
    return request.user.pk, access.is_gm, campaign.change_seq, campaign.public_seq


def _since(request: HttpRequest, seq: int) -> int:
    """The last sequence the page has: the browser's Last-Event-ID on a reconnect, else
    the page's own; anything unreadable counts as the current one."""
    value = request.headers.get("Last-Event-ID") or request.GET.get("since") or ""
    return int(value) if value.isdigit() and len(value) < 19 else seq


def _event(seq: int) -> str:
    return f"id: {seq}\nevent: change\ndata: {seq}\n\n"


async def _events(
    request: HttpRequest, user_id: int, campaign_id: int, reader: tuple[bool, int, int]
) -> AsyncIterator[str]:
    sees_everything, change, public = reader
    the_hub = hub()
    channel = the_hub.open(campaign_id, change, public)
    seq = channel.seq(sees_everything)
    since = _since(request, seq)
    who = Reader(request.session.session_key, user_id, campaign_id)
    the_hub.readers.add(who)
    loop = asyncio.get_running_loop()
    ping_at = loop.time() + settings.LIVE_HEARTBEAT_SECONDS
    try:
        # How long the browser waits before reconnecting, and `hello`: the page knows the
        # stream is up only once an event gets through (a buffering proxy holds it back,
        # and the page goes on polling).
        yield f"retry: {settings.LIVE_RETRY_MS}\nevent: hello\ndata: {seq}\n\n"
        while True:
            if channel.seq(sees_everything) > since:
                since = channel.seq(sees_everything)
                yield _event(since)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(channel.changed.wait(), settings.LIVE_RECHECK_SECONDS)
            if not the_hub.readers.allowed(who):
                return
            if loop.time() >= ping_at:
                # A comment line keeps proxies from timing the stream out.
                yield ": ping\n\n"
                ping_at = loop.time() + settings.LIVE_HEARTBEAT_SECONDS
    finally:
        the_hub.readers.remove(who)
        the_hub.close(campaign_id)


@require_GET
def check(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The poll of a page without a stream (static/js/live.js): 204 while the reader's
    sequence is still the one the page sends (as a live refresh sends its version), else
    the sequence, after which the page's live parts fetch themselves, as on a `change`
    event. One request a poll, not one per part (a sheet has four); Http404 for a stranger
    or a visitor, as the stream."""
    seq = campaign_access(request.user, campaign_id).live_seq
    return unchanged(request, seq) or HttpResponse(
        str(seq), content_type="text/plain; charset=utf-8"
    )


@require_GET
async def stream(request: HttpRequest, campaign_id: int) -> HttpResponse:
    # Http404 for a stranger or a visitor, as every campaign view answers them.
    if not hasattr(request, "scope"):
        # A WSGI server cannot hold a stream without holding a thread: 204 tells the
        # browser not to reconnect, and the page polls instead (static/js/live.js). The
        # check runs in the request's own thread, on its own connection, like any view.
        await sync_to_async(_reader)(request, campaign_id)
        return HttpResponse(status=204)
    user_id, *sequences = await released(_reader)(request, campaign_id)
    response = StreamingHttpResponse(
        _events(request, user_id, campaign_id, tuple(sequences)),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    # nginx passes the stream on as it comes, whatever its proxy_buffering.
    response["X-Accel-Buffering"] = "no"
    return response
