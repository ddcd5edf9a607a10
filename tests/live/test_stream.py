"""The live table's stream (live/views.py), read as a browser's EventSource reads it, under
ASGI: who may open it, what it carries, what a reconnect gets, and when it ends."""

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient
from django.urls import reverse

from campaigns.models import Membership
from tests.mechanics_web.rolls import CANARY, store_roll

pytestmark = pytest.mark.django_db(transaction=True)

# Every line the stream may send: numbers and event names, never content.
LINE = re.compile(r"(|retry: \d+|event: (hello|change)|id: \d+|data: \d+|: ping)")


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.LIVE_RECHECK_SECONDS = 0.3
    settings.LIVE_HEARTBEAT_SECONDS = 0.3
    yield
    # The async client signs in on asgiref's one thread for sync code, whose connection
    # would stay checked out of PostgreSQL's pool: the test database could not be dropped.
    asyncio.run(sync_to_async(connections.close_all)())


def stream_url(campaign, since=None):
    url = reverse("live:stream", args=[campaign.pk])
    return url if since is None else f"{url}?since={since}"


class Reader:
    """The text of an open stream, read chunk by chunk."""

    def __init__(self, response):
        self.chunks = aiter(response.streaming_content)
        self.text = ""

    async def until(self, pattern: str, seconds: float = 5.0) -> re.Match:
        async def read():
            while not (found := re.search(pattern, self.text)):
                self.text += (await anext(self.chunks)).decode()
            return found

        return await asyncio.wait_for(read(), seconds)

    async def close(self) -> None:
        """What the server sees when the browser goes away."""
        await self.chunks.aclose()

    async def ended(self, seconds: float = 5.0) -> bool:
        async def drain():
            async for chunk in self.chunks:
                self.text += chunk.decode()
            return True

        return await asyncio.wait_for(drain(), seconds)


async def opened(user, campaign, **get):
    client = AsyncClient()
    await client.aforce_login(user)
    response = await client.get(stream_url(campaign, get.pop("since", None)), **get)
    return client, response


def seq_of(campaign, member: str = "gm") -> int:
    """The sequence the member follows: every change for a GM, public ones otherwise."""
    campaign.refresh_from_db(fields=["change_seq", "public_seq"])
    return campaign.change_seq if member == "gm" else campaign.public_seq


@pytest.mark.parametrize("member", ["gm", "player", "observer"])
def test_a_member_hears_of_a_roll_with_its_change_sequence(request, campaign, gm, member):
    user = request.getfixturevalue(member)

    async def scenario():
        _client, response = await opened(user, campaign)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert "no-cache" in response["Cache-Control"]
        assert response["X-Accel-Buffering"] == "no"
        reader = Reader(response)
        await reader.until(r"event: hello\ndata: \d+\n\n")
        await sync_to_async(store_roll)(campaign, gm, label="Pelea")
        seq = await sync_to_async(seq_of)(campaign, member)
        await reader.until(rf"id: {seq}\nevent: change\ndata: {seq}\n\n")
        await reader.close()
        return reader.text

    text = asyncio.run(scenario())
    assert "retry: 2000" in text


@pytest.mark.parametrize("member", ["gm", "player", "observer"])
def test_the_stream_carries_numbers_only_and_a_secret_roll_reaches_gms_alone(
    request, campaign, gm, member
):
    """Not even the moment of a secret roll reaches a player or an observer."""
    user = request.getfixturevalue(member)

    async def scenario():
        _client, response = await opened(user, campaign)
        reader = Reader(response)
        await reader.until("event: hello")
        await sync_to_async(store_roll)(campaign, gm, label=CANARY, secret=True)
        if member == "gm":
            await reader.until("event: change")
        await reader.until(r"(: ping\n\n.*){3}")
        await reader.close()
        return reader.text

    text = asyncio.run(scenario())
    assert CANARY not in text
    assert all(LINE.fullmatch(line) for line in text.split("\n")), text
    assert ("event: change" in text) == (member == "gm")


def test_strangers_and_visitors_get_a_404_and_no_stream(campaign, stranger):
    async def scenario():
        _client, response = await opened(stranger, campaign)
        anonymous = await AsyncClient().get(stream_url(campaign))
        return response.status_code, anonymous.status_code

    assert asyncio.run(scenario()) == (404, 404)


def test_under_wsgi_the_stream_answers_204_so_the_page_polls(client, campaign, player):
    client.force_login(player)
    assert client.get(stream_url(campaign)).status_code == 204


def test_a_page_behind_the_campaign_gets_the_change_at_once(campaign, player, gm):
    """`since` (the page's own sequence) or, on a reconnect, Last-Event-ID: a change
    made in between, a server restart's included, comes first."""
    before = seq_of(campaign, "player")
    store_roll(campaign, gm, label="Mientras tanto")
    now = seq_of(campaign, "player")

    async def scenario(**get):
        _client, response = await opened(player, campaign, **get)
        reader = Reader(response)
        await reader.until(rf"event: change\ndata: {now}\n")
        await reader.close()

    asyncio.run(scenario(since=before))
    asyncio.run(scenario(headers={"Last-Event-ID": str(before)}, since=now))


def test_a_page_up_to_date_gets_no_change_until_there_is_one(campaign, player):
    seq = seq_of(campaign, "player")

    async def scenario():
        _client, response = await opened(player, campaign, since=seq)
        reader = Reader(response)
        await reader.until(": ping")
        await reader.close()
        return reader.text

    assert "event: change" not in asyncio.run(scenario())


async def _log_out(client, player, campaign):
    await client.alogout()


async def _leave(client, player, campaign):
    await Membership.objects.filter(user=player, campaign=campaign).adelete()


async def _new_password(client, player, campaign):
    player.set_password("otra-clave-larga-9")
    await player.asave()


@pytest.mark.parametrize("end", [_log_out, _leave, _new_password])
def test_logging_out_leaving_or_a_new_password_ends_the_stream(campaign, player, end):
    async def scenario():
        client, response = await opened(player, campaign)
        reader = Reader(response)
        await reader.until("event: hello")
        await end(client, player, campaign)
        return await reader.ended()

    assert asyncio.run(scenario())


def test_a_member_still_signed_in_keeps_the_stream(campaign, player):
    async def scenario():
        _client, response = await opened(player, campaign)
        reader = Reader(response)
        await reader.until("event: hello")
        # Several rechecks pass, and the stream is still open.
        await reader.until(r"(: ping\n\n.*){4}")
        await reader.close()

    asyncio.run(scenario())
