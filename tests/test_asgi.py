"""config/asgi.py: the requests of a process run in its one synchronous thread, which keeps
its database connection from one request to the next (Django's handler gives each request
a thread of its own, and with it a connection of its own)."""

import asyncio

import pytest
from django.core.signals import request_finished
from django.db import connection

from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def _get(path: str) -> int:
    sent = []
    body = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive():
        # The body, then nothing: the client never leaves.
        return body.pop() if body else await asyncio.Future()

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    await application(scope, receive, send)
    return sent[0]["status"]


@pytest.mark.skipif(
    connection.vendor != "sqlite",
    reason="PostgreSQL's connections go back to the pool (tests/test_speed_settings.py)",
)
def test_the_next_request_uses_the_connection_the_last_one_left_open():
    held = []

    def note(**kwargs):
        # After Django's own receiver, which closes a connection too old to keep.
        if not held:
            connection.ensure_connection()
        held.append(connection.connection)
        if len(held) == 2:
            connection.close()

    request_finished.connect(note)
    try:
        assert [asyncio.run(_get("/accounts/login/")) for _ in range(2)] == [200, 200]
    finally:
        request_finished.disconnect(note)
    assert held[0] is not None
    assert held[1] is held[0]
