"""gunicorn's settings for Crónica: `.venv/bin/gunicorn -c config/gunicorn.py config.wsgi`.

Command-line options still win (`--workers 5`, `--bind ...`).
"""

from gunicorn.http.wsgi import Response

bind = "127.0.0.1:8000"  # loopback: the TLS proxy in front is the only client
workers = 3

# gunicorn names itself in a `Server` header on every answer and has no setting to stop
# it; the name and the version it implies only help someone looking for a known flaw.
_default_headers = Response.default_headers


def _without_server(self) -> list[str]:
    return [line for line in _default_headers(self) if not line.startswith("Server:")]


Response.default_headers = _without_server
