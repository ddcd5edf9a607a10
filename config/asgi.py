"""The site's ASGI application: `make run` (uvicorn), and gunicorn's uvicorn workers in
production (config/gunicorn.py).

Django's own handler runs the synchronous part of each request (the middleware and every
view but the live stream) in a thread made for that request, so a database connection
cannot outlive it: every request would connect again, which on SQLite means parsing the
whole schema (about 8 ms more a page, bench/results/2026-12-04-live-sqlite.txt). Here they
run one after another in the process's one synchronous thread (asgiref's default, as under
a sync worker), which keeps its connection (`CONN_MAX_AGE`). The live streams are async
and wait in the event loop, each on no thread (live/views.py).
"""

import os

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class OneThreadHandler(ASGIHandler):
    """Django's handler without its per-request thread (`ThreadSensitiveContext`)."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)


django.setup(set_prefix=False)
application = OneThreadHandler()
