"""Two app servers sharing one database, as behind a load balancer: a roll posted to one
reaches, within moments, a live stream held open by the other (live/brokers.py: polling
on SQLite, LISTEN/NOTIFY on PostgreSQL). Real uvicorn processes, real HTTP, real cookies."""

from __future__ import annotations

import http.client
import os
import re
import sqlite3
import subprocess
import sys
import time
import zlib
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from mechanics.models import Roll
from tests.mechanics_web.rolls import store_roll
from tests.ports import free_port

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Starting a server takes a second or two; an event arrives in well under one.
START_SECONDS = 60.0
EVENT_SECONDS = 5.0


def database_url() -> str:
    """The test database (the one this process writes to), as DATABASE_URL says it."""
    params = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{params['NAME']}"
    user = quote(params.get("USER") or "", safe="")
    password = params.get("PASSWORD")
    if password:
        user += ":" + quote(password, safe="")
    host = params.get("HOST") or "localhost"
    port = f":{params['PORT']}" if params.get("PORT") else ""
    return f"postgres://{user}@{host}{port}/{params['NAME']}"


def shares_the_database(campaign) -> bool:
    """The servers, opening the test database anew, find this test's rows. (A SQLite file
    deleted by another process while this one holds it open is a new, empty database to
    the servers: that has been seen when other test runs share the checkout.)"""
    if connection.vendor != "sqlite":
        return True
    path = connection.settings_dict["NAME"]
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as fresh:
            found = fresh.execute(
                "SELECT name FROM campaigns_campaign WHERE id = ?", [campaign.pk]
            ).fetchone()
    except sqlite3.Error:
        return False
    return found == (campaign.name,)


def lost_database() -> str:
    return (
        f"{connection.settings_dict['NAME']} is no longer this test's database (deleted or "
        "replaced by another process): the servers cannot share it"
    )


def server_env() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_DEBUG": "0",
        # The test process's key: the sessions it signs in are valid on the servers.
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_HTTPS": "0",
        "CRONICA_LIVE_BROKER": "postgres" if connection.vendor == "postgresql" else "poll",
    }


class Server:
    def __init__(self, name: str, port: int, process: subprocess.Popen, log: Path) -> None:
        self.name, self.port, self.process, self.log = name, port, process, log

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def connection(self, timeout: float = 10.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def wait_until_up(self, deadline: float) -> None:
        while True:
            try:
                probe = self.connection(timeout=5)
                probe.request("GET", "/")
                probe.getresponse().read()
                probe.close()
                return
            except OSError:
                assert self.process.poll() is None, f"{self.name} stopped:\n{self.output()}"
                assert time.monotonic() < deadline, f"{self.name} never answered:\n{self.output()}"
                time.sleep(0.1)


def uvicorn(port: int) -> list[str]:
    """As `make run` starts it."""
    return [
        str(BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--no-server-header", "--no-proxy-headers", "--lifespan", "off",
    ]  # fmt: skip


@contextmanager
def servers(tmp_path, *names: str):
    """Uvicorn servers on free ports, sharing the test database; stopped whatever happens,
    their output printed (pytest shows it when the test fails)."""
    with ExitStack() as stack:
        started = []
        for name in names:
            port = free_port()
            log = tmp_path / f"{name}.log"
            output = stack.enter_context(log.open("wb"))
            process = subprocess.Popen(
                uvicorn(port),
                cwd=ROOT,
                env=server_env(),
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
            server = Server(name, port, process, log)
            started.append(server)
            stack.callback(_stop, server)
        deadline = time.monotonic() + START_SECONDS
        for server in started:
            server.wait_until_up(deadline)
        yield started


def _stop(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(10)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(10)
    print(f"--- server {server.name} (port {server.port}) ---\n{server.output()}")


class EventStream:
    """An open stream, read as a browser's EventSource reads it (gzip included)."""

    def __init__(self, server: Server, path: str, cookies: dict[str, str]) -> None:
        self.connection = server.connection()
        self.connection.request(
            "GET",
            path,
            headers={
                "Accept": "text/event-stream",
                "Cache-Control": "no-cache",
                "Accept-Encoding": "gzip",
                "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            },
        )
        self.response = self.connection.getresponse()
        gzipped = self.response.getheader("Content-Encoding") == "gzip"
        self.decompress = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
        self.text = ""

    def until(self, pattern: str, seconds: float = EVENT_SECONDS) -> re.Match:
        deadline = time.monotonic() + seconds
        while not (found := re.search(pattern, self.text)):
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {pattern!r} within {seconds} s; the stream:\n{self.text}"
            self.connection.sock.settimeout(remaining)
            try:
                chunk = self.response.read1(65536)
            except TimeoutError:
                continue
            assert chunk, f"the stream ended; it sent:\n{self.text}"
            if self.decompress is not None:
                chunk = self.decompress.decompress(chunk)
            self.text += chunk.decode()
        return found

    def close(self) -> None:
        self.connection.close()


def session_cookies(user, url: str | None = None) -> dict[str, str]:
    """A signed-in session of `user`, made here in the test process (its database is the
    servers'); with `url`, the CSRF cookie a GET of that page leaves too."""
    client = Client()
    client.force_login(user)
    if url is not None:
        assert client.get(url).status_code == 200
    return {name: morsel.value for name, morsel in client.cookies.items()}


def post_free_roll(server: Server, campaign, cookies: dict[str, str]) -> int:
    """The GM's free roll, posted as the roller's form posts it; the new roll's id."""
    url = reverse("mechanics:free_roll", args=[campaign.pk])
    post = server.connection()
    post.request(
        "POST",
        url,
        body=urlencode({"expression": "2d6", "label": "Emboscada"}),
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            "X-CSRFToken": cookies["csrftoken"],
            "Origin": f"http://127.0.0.1:{server.port}",
        },
    )
    response = post.getresponse()
    body = response.read().decode(errors="replace")
    post.close()
    assert response.status == 302, f"{response.status}: {body[:500]}"
    location = response.getheader("Location")
    assert location.startswith(f"{url}?roll="), location
    return int(location.rpartition("=")[2])


def test_a_roll_posted_to_one_server_reaches_streams_open_on_another(
    tmp_path, campaign, gm, player, observer
):
    roller = reverse("mechanics:free_roll", args=[campaign.pk])
    gm_cookies = session_cookies(gm, roller)
    assert "csrftoken" in gm_cookies
    player_cookies, observer_cookies = session_cookies(player), session_cookies(observer)
    # A secret roll first: GMs follow a sequence ahead of the players' from then on.
    store_roll(campaign, gm, label="Secreta", secret=True)
    before = Campaign.objects.get(pk=campaign.pk)
    assert before.change_seq != before.public_seq
    assert shares_the_database(campaign), lost_database()
    stream_url = reverse("live:stream", args=[campaign.pk])

    with servers(tmp_path, "A", "B") as (server_a, server_b), ExitStack() as streams:
        # On B, the GM's page (every change) and the player's (what players may see); on
        # A, where the roll goes, the observer's.
        opened = {
            "gm on B": (EventStream(server_b, stream_url, gm_cookies), "change_seq"),
            "player on B": (EventStream(server_b, stream_url, player_cookies), "public_seq"),
            "observer on A": (EventStream(server_a, stream_url, observer_cookies), "public_seq"),
        }
        for stream, field in opened.values():
            streams.callback(stream.close)
            assert stream.response.status == 200, (
                f"{stream.response.status}: {stream.response.read()[:300]!r}"
                + ("" if shares_the_database(campaign) else f"\n{lost_database()}")
            )
            assert stream.response.getheader("Content-Type") == "text/event-stream"
            stream.until(rf"event: hello\ndata: {getattr(before, field)}\n\n")

        started = time.monotonic()
        roll_id = post_free_roll(server_a, campaign, gm_cookies)
        roll = Roll.objects.get(pk=roll_id)
        assert (roll.campaign_id, roll.user_id, roll.label) == (campaign.pk, gm.pk, "Emboscada")
        after = Campaign.objects.get(pk=campaign.pk)
        assert after.change_seq > before.change_seq
        assert after.public_seq > before.public_seq
        for name, (stream, field) in opened.items():
            seq = getattr(after, field)
            stream.until(rf"id: {seq}\nevent: change\ndata: {seq}\n\n")
            print(f"{name}: change {seq} heard {time.monotonic() - started:.3f} s after the post")
            # Numbers only, never the roll: the page fetches it through its own views.
            assert "Emboscada" not in stream.text
