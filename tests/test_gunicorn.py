"""The production server as the README starts it: gunicorn with config/gunicorn.py and
its uvicorn workers."""

import http.client
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[1]


def test_gunicorn_does_not_name_itself_in_a_server_header(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
    }
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.py",
         "--workers=1", f"--bind=127.0.0.1:{port}", "config.asgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.request("GET", "/static/css/cronica.css")
                response = connection.getresponse()
                break
            except OSError:
                assert server.poll() is None, "gunicorn stopped"
                assert time.monotonic() < deadline, "gunicorn did not answer"
                time.sleep(0.2)
        response.read()
        connection.close()
        assert response.status == 200
        assert response.getheader("Date")  # gunicorn's own headers are still sent
        assert response.getheader("Server") is None
    finally:
        server.terminate()
        server.wait(30)
