"""The site's ASGI application: `make run` (uvicorn), and gunicorn's uvicorn workers in
production (config/gunicorn.py).

Django's own handler runs the middleware in its async mode: most of ours (Django's own
included) are synchronous, so each hook of each one hops to a thread and back, and every
request gets a thread of its own, so a database connection cannot outlive it (on SQLite
every request connected again and parsed the whole schema). Here a request hops once: its
middleware and view run as under WSGI, one request after another, in the process's one
synchronous thread (asgiref's default), which keeps its connection (`CONN_MAX_AGE`). An
async view (the live stream) is awaited from there, and its stream is sent from the event
loop, on no thread (live/views.py).
"""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import FileResponse

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class OneThreadHandler(ASGIHandler):
    """Django's ASGI handler with the synchronous middleware chain, run in one thread."""

    def __init__(self):
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # Without ThreadSensitiveContext: no thread per request.
        await self.handle(scope, receive, send)

    async def run_get_response(self, request):
        response = await sync_to_async(self.get_response)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        return response


django.setup(set_prefix=False)
application = OneThreadHandler()
