"""The servers the benchmarks start: a free port on loopback for each, and a child process
that ends with the benchmark, however the benchmark ends."""

import contextlib
import ctypes
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
REDIS_CONF = Path(__file__).resolve().parents[1] / "scripts" / "redis-cache.conf"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def die_with_parent() -> None:
    """In the child (`preexec_fn`): get SIGTERM when the benchmark exits."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def http_get(port: int, path: str, headers: dict) -> tuple[int, int]:
    """One GET on loopback: its status and the size of its body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, len(response.read())
    finally:
        connection.close()


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def cpu_seconds(pids: list[int]) -> float:
    """What these processes have spent, in user and system time (those that have ended
    meanwhile left nothing to read)."""
    total = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        # Fields after the command name (which may hold spaces): utime is 14th, stime 15th.
        fields = stat.rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


@contextlib.contextmanager
def gunicorn(root: Path, workers: int, env: dict[str, str], headers: dict):
    """gunicorn serving the site (sync workers) on a free loopback port, once it answers
    the bench's bare view: yields (port, the workers' pids)."""
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            f"--workers={workers}",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
        ],
        cwd=root,
        env=env,
        preexec_fn=die_with_parent,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                http_get(port, "/bench/bare/", headers)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        while len(children(server.pid)) < workers:
            time.sleep(0.1)
        yield port, children(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)


@contextlib.contextmanager
def redis_server():
    """A throwaway Redis server on loopback, as scripts/with-redis.sh starts one: yields
    its URL, for CACHE_URL."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        listen = ["--bind", "127.0.0.1", "--port", str(port), "--dir", folder]
        server = subprocess.Popen(
            ["redis-server", REDIS_CONF, *listen],
            stdout=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise RuntimeError("redis-server did not start") from None
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait(timeout=30)
