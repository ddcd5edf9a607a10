"""gunicorn's settings for Crónica: `.venv/bin/gunicorn -c config/gunicorn.py config.asgi`.

gunicorn manages the processes; each runs uvicorn's event loop (`config.gunicorn.Worker`),
which serves the pages and holds the live table's streams (live/). Command-line options
still win (`--workers 5`, `--bind ...`).
"""

from uvicorn_worker import UvicornWorker

bind = "127.0.0.1:8000"  # loopback: the TLS proxy in front is the only client
workers = 3
worker_class = "config.gunicorn.Worker"


class Worker(UvicornWorker):
    # No `Server` header: the name and the version it implies only help someone looking
    # for a known flaw. No proxy headers either: the client's address is worked out from
    # X-Forwarded-For by config/throttling.py, which trusts only the configured proxies.
    CONFIG_KWARGS = {
        **UvicornWorker.CONFIG_KWARGS,
        "server_header": False,
        "proxy_headers": False,
        "lifespan": "off",
    }
