"""Live table benchmark: how soon a roll reaches every open page, and what open streams cost.

Builds a throwaway database (a SQLite file, or the one DATABASE_URL names, e.g. under
scripts/with-postgres.sh): migrate, a GM, 20 players with a session each, one Mundo de
Tinieblas campaign with a character per player. Static files are collected into a
temporary folder (bench/settings.py: production settings, debug off). Then, against ASGI
servers on loopback started the way the site is served:

- uvicorn: one `uvicorn config.asgi:application` process (as `make run`);
- gunicorn: `gunicorn -c config/gunicorn.py --workers 3` (as production);
- two-servers: two uvicorn processes sharing the database, the roller on one and the pages
  on the other, so every change travels through the broker (poll, or LISTEN/NOTIFY).

In each, 20 pages (one per player) load the campaign page, open its stream
(`sse-connect`) and, on each `change` event, fetch its live parts as htmx does: the roll
feed with its `since`, and the page's `#live-refresh` element (the page itself, its
version in X-Cronica-Since), each on its own connection, one fetch at a time (a change
heard meanwhile asks once more afterwards). A player rolls from their sheet's roll panel
(htmx, CSRF header): once alone, which every page must hear of although it is the first
change since it loaded (within 5 s), then 2 warm-up rolls, then 30 rolls 0.5 s apart;
for each (roll, page) pair it measures the time from sending the POST to the page holding
a feed answer with that roll's card (`data-roll`), and the time to the page's `change`
event. The servers' logs are read for errors afterwards.

Capacity: 500 streams on one uvicorn process; the campaign page's time (median of 20 GETs)
before and with them open, the server's RSS growth per stream (/proc VmRSS), its threads
and open database connections, its CPU while nothing happens, and how soon a roll's
`change` reaches all 500 (they fetch nothing here).

The client is plain asyncio streams speaking HTTP/1.1 (gzip accepted, as browsers do).
`--db-pool N` sets CRONICA_DB_POOL (PostgreSQL connections per server process) and names the results
file after it.

The servers run a copy of the last commit (`git archive HEAD`, with this script as it is),
so uncommitted edits in the working tree are left out; `--worktree` serves them instead.
Prints the figures and writes them to bench/results/<date>-live-<database>.txt.

Run: .venv/bin/python bench/live.py [--modes uvicorn,gunicorn,two-servers,capacity]
     .venv/bin/python bench/live.py --postgres   # in a throwaway PostgreSQL 15 cluster
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import html
import http.client
import json
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.processes import cpu_seconds, die_with_parent, free_port  # noqa: E402

BIN = Path(sys.executable).parent
# The demo characters' pool roll (Elena Roldán: Inteligencia + Investigación).
POOL = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}
MODES = ("uvicorn", "gunicorn", "two-servers", "capacity")
ROLL_ID = re.compile(r'data-roll="(\d+)"')
FEED = re.compile(r'id="roll-feed"[^>]*data-version="([^"]*)"')
REFRESH = re.compile(r'id="live-refresh"[^>]*hx-get="([^"]*)"[^>]*hx-headers="([^"]*)"')
SINCE_HEADER = "X-Cronica-Since"  # campaigns/htmx.py
# Longer than the PostgreSQL pool's own wait (20 s), so that wait shows as its answer.
TIMEOUT = 30.0
TALLY: Counter[str] = Counter()  # rolls the site answered as done, to compare with its rows

# --- The site -------------------------------------------------------------------------------


def site_env(folder: Path, database_url: str, broker: str, pool: int | None) -> dict:
    pool_size = {"CRONICA_DB_POOL": str(pool)} if pool else {}
    return {
        **pool_size,
        **os.environ,
        "DATABASE_URL": database_url,
        "BENCH_STATIC_ROOT": str(folder / "static"),
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_DEBUG": "0",
        # Plain HTTP on loopback: no redirect to HTTPS, cookies without Secure.
        "DJANGO_HTTPS": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "CRONICA_LIVE_BROKER": broker,
        "LOG_LEVEL": "WARNING",
    }


def build(env: dict[str, str], players: int, extra_sessions: int) -> dict:
    """The campaign, its people and their sessions, made in this process."""
    os.environ.update(env)
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections

    from campaigns.models import Campaign, Membership
    from characters.models import Character
    from mechanics.demo import seed_characters
    from mechanics.rules.tinieblas.rolls import SYSTEM

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    gm = User.objects.create_user("gm")
    people = [User.objects.create_user(f"player{n:02}") for n in range(players)]
    campaign = Campaign.objects.create(name="Mesa en vivo", system=SYSTEM, created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    for person in people:
        Membership.objects.create(campaign=campaign, user=person, role="player")
    roller = seed_characters(campaign, {"ana": people[0], "bruno": people[1]})[0]
    for person in people[2:]:
        Character.objects.create(campaign=campaign, owner=person, name=f"PJ {person.username}")

    store = import_module(settings.SESSION_ENGINE).SessionStore

    def session(user) -> str:
        # What a login leaves in the session (a real login's slow hash is not measured).
        made = store()
        made[SESSION_KEY] = str(user.pk)
        made[BACKEND_SESSION_KEY] = "accounts.backends.ModelBackend"
        made[HASH_SESSION_KEY] = user.get_session_auth_hash()
        made.save()
        return made.session_key

    ids = {
        "campaign": campaign.pk,
        "roller": roller.pk,
        "listeners": [session(person) for person in people],
        "poster": session(people[0]),
        "crowd": [session(people[n % players]) for n in range(extra_sessions)],
    }
    connections.close_all()
    return ids


def stored_rolls(campaign_id: int) -> int:
    from django.db import connections

    from mechanics.models import Roll

    try:
        return Roll.objects.filter(campaign_id=campaign_id).count()
    finally:
        connections.close_all()


# --- Servers --------------------------------------------------------------------------------


@dataclass
class Server:
    name: str
    port: int
    process: subprocess.Popen
    log: Path

    def pids(self) -> list[int]:
        """The process and its descendants (gunicorn's workers)."""
        found, todo = [], [self.process.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            for task in Path(f"/proc/{pid}/task").glob("*"):
                with contextlib.suppress(OSError):  # the process may have just ended
                    todo += [int(p) for p in (task / "children").read_text().split()]
        return found

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.pids())

    def status(self, key: str) -> int:
        """A /proc status figure (VmRSS in KB, Threads), summed over the processes."""
        total = 0
        for pid in self.pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(f"{key}:"):
                    total += int(line.split()[1])
        return total

    def database_connections(self, database_url: str) -> int:
        """Open connections to the database: SQLite files open, or PostgreSQL sockets."""
        if database_url.startswith("sqlite"):
            targets = {database_url.removeprefix("sqlite:///")}
        else:
            targets = _tcp_inodes(int(re.search(r":(\d+)/", database_url).group(1)))
        count = 0
        for pid in self.pids():
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):  # closed meanwhile
                    count += os.readlink(fd) in targets
        return count

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def problems(self) -> list[str]:
        """The error lines of its log (tracebacks' last lines, ERROR and WARNING lines)."""
        lines = self.log.read_text(errors="replace").splitlines()
        found = []
        for n, line in enumerate(lines):
            text = line.strip()
            if text.startswith("Traceback"):
                # The exception is the first unindented line after the traceback.
                tail = next((x for x in lines[n + 1 :] if x and not x.startswith(" ")), "")
                found.append(f"traceback: {tail.strip()[:160]}")
            elif re.search(r"\b(ERROR|CRITICAL|WARNING)\b", line) or "Exception in" in line:
                found.append(text[:160])
        return found


def _tcp_inodes(port: int) -> set[str]:
    """The sockets connected to a loopback port, as /proc/<pid>/fd names them."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[2].rsplit(":", 1)[1], 16) == port:
                found.add(f"socket:[{fields[9]}]")
    return found


def start_server(name: str, env: dict[str, str], folder: Path, gunicorn: bool = False) -> Server:
    port = free_port()
    log = folder / f"{name}-{port}.log"
    if gunicorn:
        command = [
            str(BIN / "gunicorn"), "-c", "config/gunicorn.py", "--workers", "3",
            "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "config.asgi",
        ]  # fmt: skip
    else:
        command = [
            str(BIN / "uvicorn"), "config.asgi:application", "--no-server-header",
            "--no-proxy-headers", "--lifespan", "off", "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning",
        ]  # fmt: skip
    with log.open("w") as sink:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )  # fmt: skip
    server = Server(name, port, process, log)
    for _attempt in range(300):
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited: {log.read_text()[-2000:]}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/accounts/login/")
            if connection.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.1)
    else:
        server.stop()
        raise RuntimeError(f"{name} did not answer")
    if gunicorn:
        # The first answer came from one worker; give the others time to boot too.
        time.sleep(3)
    return server


# --- An HTTP/1.1 client on asyncio streams --------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    cookies: list[str]
    text: str


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], list[str]]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers, cookies = {}, []
    for line in head[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
            if name.strip().lower() == "set-cookie":
                cookies.append(value.strip())
    return status, headers, cookies


async def _read_chunk(reader: asyncio.StreamReader) -> bytes:
    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
    data = await reader.readexactly(size + 2)  # the chunk and its CRLF (no trailers sent)
    return data[:-2]


class Browser:
    """A browser's cookies and one keep-alive connection, as a tab reuses one."""

    def __init__(self, port: int, session_key: str) -> None:
        self.port = port
        self.cookies = {"sessionid": session_key}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def keep(self, cookies: list[str]) -> None:
        for header in cookies:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value

    def head(self, method: str, path: str, headers: dict[str, str]) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines.append(f"Cookie: {self.cookie_header()}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def request(
        self, method: str, path: str, headers: dict | None = None, form: dict | None = None
    ) -> Answer:
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        body = b""
        if form is not None:
            body = urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        sent["Content-Length"] = str(len(body))
        try:
            async with asyncio.timeout(TIMEOUT):
                return await self._send(method, path, sent, body)
        except TimeoutError:
            self.close()
            raise

    async def _send(self, method: str, path: str, sent: dict, body: bytes) -> Answer:
        # A kept connection the server closed meanwhile (its keep-alive timeout) fails before
        # any answer: sent again on a new one, as browsers do.
        for attempt in range(2):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                self.writer.write(self.head(method, path, sent) + body)
                await self.writer.drain()
                return await self._answer(method)
            except (ConnectionError, asyncio.IncompleteReadError) as error:
                self.close()
                unanswered = not getattr(error, "partial", b"")
                if fresh or attempt or not unanswered:
                    raise
        raise AssertionError("unreachable")

    async def _answer(self, method: str) -> Answer:
        reader = self.reader
        status, headers, cookies = await _read_head(reader)
        if status in (204, 304) or method == "HEAD":
            data = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while chunk := await _read_chunk(reader):
                parts.append(chunk)
            data = b"".join(parts)
        elif "content-length" in headers:
            data = await reader.readexactly(int(headers["content-length"]))
        else:
            data = await reader.read()
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        if headers.get("content-encoding") == "gzip":
            data = zlib.decompress(data, 31)
        self.keep(cookies)
        return Answer(status, headers, cookies, data.decode("utf-8", "replace"))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def sse(browser: Browser, path: str, on_event) -> str:
    """Hold an EventSource's connection; call `on_event(name, data)` per event.
    Returns why it ended."""
    reader, writer = await asyncio.open_connection("127.0.0.1", browser.port)
    headers = {
        "Accept": "text/event-stream",
        "Cache-Control": "no-cache",
        "Accept-Encoding": "gzip",
    }
    try:
        writer.write(browser.head("GET", path, headers))
        await writer.drain()
        status, answer, _cookies = await _read_head(reader)
        if status != 200 or not answer.get("content-type", "").startswith("text/event-stream"):
            return f"stream answered {status} {answer.get('content-type', '')}"
        chunked = answer.get("transfer-encoding", "").lower() == "chunked"
        gunzip = zlib.decompressobj(31) if answer.get("content-encoding") == "gzip" else None
        buffer = ""
        while True:
            data = await _read_chunk(reader) if chunked else await reader.read(65536)
            if not data:
                return "stream closed by the server"
            if gunzip is not None:
                data = gunzip.decompress(data)
            buffer += data.decode("utf-8")
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                name, lines = "message", []
                for line in block.split("\n"):
                    if line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        lines.append(line[5:].strip())
                if lines:
                    on_event(name, "\n".join(lines))
    except (ConnectionError, asyncio.IncompleteReadError) as error:
        return f"stream lost: {error!r}"
    finally:
        writer.close()


# --- A page of the campaign -----------------------------------------------------------------


@dataclass
class Fetch:
    region: str
    started: float
    seconds: float
    status: int


@dataclass
class Region:
    """A live part of the page, fetched again at each change on its own connection (as a
    browser runs the page's htmx requests side by side), one fetch at a time."""

    name: str
    path: str
    version: str
    browser: Browser
    fetching: bool = False
    again: bool = False


@dataclass
class Page:
    """A campaign page left open: its stream, and its live parts fetched at each change:
    the roll feed (`#roll-feed`, `?since=`) and, when the page has one, the element that
    refreshes the page's other parts (`#live-refresh`, its version in a header)."""

    port: int
    session_key: str
    campaign: int
    browser: Browser = field(init=False)
    stream_path: str = ""
    regions: list[Region] = field(default_factory=list)
    up: asyncio.Event = field(default_factory=asyncio.Event)
    events: list[tuple[float, int]] = field(default_factory=list)
    seen: dict[int, float] = field(default_factory=dict)
    fetches: list[Fetch] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ended: str = ""

    def __post_init__(self) -> None:
        self.browser = Browser(self.port, self.session_key)

    async def load(self) -> None:
        answer = await self.browser.request("GET", f"/campaigns/{self.campaign}/")
        found = re.search(r'sse-connect="([^"]+)"', answer.text)
        feed = FEED.search(answer.text)
        if answer.status != 200 or not found or not feed:
            raise RuntimeError(f"the campaign page answered {answer.status} without a stream")
        self.stream_path = html.unescape(found.group(1))
        feed_path = f"/campaigns/{self.campaign}/rolls/feed/"
        self.regions = [Region("feed", feed_path, feed.group(1), self.second_browser())]
        if refresh := REFRESH.search(answer.text):
            path, since = html.unescape(refresh.group(1)), _since(refresh.group(2))
            self.regions.append(Region("page", path, since, self.second_browser()))
        self.note_rolls(answer.text, time.perf_counter())

    def second_browser(self) -> Browser:
        other = Browser(self.port, self.session_key)
        other.cookies = self.browser.cookies  # one browser: one cookie jar
        return other

    def note_rolls(self, text: str, now: float) -> None:
        for roll in ROLL_ID.findall(text):
            self.seen.setdefault(int(roll), now)

    def on_event(self, name: str, data: str) -> None:
        now = time.perf_counter()
        if name == "hello":
            self.up.set()
        elif name == "change":
            self.events.append((now, int(data)))
            for region in self.regions:
                self.refresh(region)

    def refresh(self, region: Region) -> None:
        # As htmx does for a busy element (queue "last"): one more fetch once this one ends.
        if region.fetching:
            region.again = True
        else:
            region.fetching = True
            asyncio.get_running_loop().create_task(self.fetch_loop(region))

    async def fetch_loop(self, region: Region) -> None:
        try:
            while True:
                region.again = False
                if region.name == "feed":
                    path = f"{region.path}?since={quote(region.version)}"
                    headers = {"HX-Target": "roll-feed"}
                else:
                    path, headers = region.path, {SINCE_HEADER: region.version}
                headers |= {"HX-Request": "true"}
                started = time.perf_counter()
                try:
                    answer = await region.browser.request("GET", path, headers)
                except (OSError, asyncio.IncompleteReadError) as error:
                    self.errors.append(f"{region.name} fetch: {error!r}")
                    answer = None
                now = time.perf_counter()
                if answer is not None:
                    self.fetches.append(Fetch(region.name, started, now - started, answer.status))
                    if answer.status == 200:
                        self.note_rolls(answer.text, now)
                        if region.name == "feed" and (found := FEED.search(answer.text)):
                            region.version = found.group(1)
                        elif region.name == "page" and (found := REFRESH.search(answer.text)):
                            region.version = _since(found.group(2))
                    elif answer.status != 204:
                        self.errors.append(f"{region.name} answered {answer.status}")
                if not region.again:
                    return
        finally:
            region.fetching = False

    def close(self) -> None:
        self.browser.close()
        for region in self.regions:
            region.browser.close()

    async def listen(self) -> None:
        try:
            self.ended = await sse(self.browser, self.stream_path, self.on_event)
        except OSError as error:
            self.ended = f"stream could not open: {error!r}"
        self.up.set()  # whoever waits for it stops waiting


def _since(headers: str) -> str:
    """The version a `#live-refresh` element sends, from its hx-headers attribute."""
    return json.loads(html.unescape(headers)).get(SINCE_HEADER, "")


# --- Figures --------------------------------------------------------------------------------


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def spread(values: list[float]) -> str:
    """p50/p95/max of seconds, in milliseconds."""
    if not values:
        return "no values"
    ms = [v * 1000 for v in values]
    return f"p50 {pct(ms, 0.5):6.0f}  p95 {pct(ms, 0.95):6.0f}  max {max(ms):6.0f} ms"


class LoopLag:
    """The client's own stalls: a figure that the server is slow is only worth as much as
    the client's promptness in noticing."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.task = asyncio.get_running_loop().create_task(self.watch())

    async def watch(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            self.worst = max(self.worst, time.perf_counter() - started - 0.01)

    def stop(self) -> float:
        self.task.cancel()
        return self.worst


class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        print(text, flush=True)
        self.lines.append(text)


# --- The runs -------------------------------------------------------------------------------


async def roll(poster: Browser, ids: dict) -> tuple[int | None, float, str]:
    """One roll from the sheet's panel; (its id, seconds, error)."""
    path = f"/campaigns/{ids['campaign']}/characters/{ids['roller']}/roll/"
    started = time.perf_counter()
    try:
        answer = await poster.request("POST", path, {"HX-Request": "true"}, POOL)
    except (OSError, asyncio.IncompleteReadError) as error:
        return None, time.perf_counter() - started, f"roll POST: {error!r}"
    seconds = time.perf_counter() - started
    found = ROLL_ID.search(answer.text)
    if answer.status != 200 or not found:
        return None, seconds, f"roll POST answered {answer.status} without a card"
    TALLY["rolls"] += 1
    return int(found.group(1)), seconds, ""


async def latency(post_port: int, listen_port: int, ids: dict, args, servers: list) -> dict:
    pages = [Page(listen_port, key, ids["campaign"]) for key in ids["listeners"]]
    errors: list[str] = []
    loaded = await asyncio.gather(*(page.load() for page in pages), return_exceptions=True)
    errors += [f"page load: {error!r}" for error in loaded if error is not None]
    pages = [page for page, error in zip(pages, loaded, strict=True) if error is None]
    streams = [asyncio.create_task(page.listen()) for page in pages]
    started = time.perf_counter()
    with contextlib.suppress(TimeoutError):  # the streams that never said hello are counted
        await asyncio.wait_for(asyncio.gather(*(page.up.wait() for page in pages)), 30)
    opened = time.perf_counter() - started
    up = sum(1 for page in pages if page.up.is_set() and not page.ended)
    lag = LoopLag()
    poster = Browser(post_port, ids["poster"])
    try:
        sheet = await poster.request(
            "GET", f"/campaigns/{ids['campaign']}/characters/{ids['roller']}/"
        )
        ready = sheet.status == 200
        errors += [] if ready else [f"the roller's sheet answered {sheet.status}"]
    except OSError as error:
        ready = False
        errors.append(f"the roller's sheet: {error!r}")
    # The first roll since the pages opened, on its own: a stream must announce the first
    # change after the sequence its page loaded with, not only the ones after that.
    first_roll: list[float] = []
    if ready:
        t0 = time.perf_counter()
        first_id, _s, error = await roll(poster, ids)
        errors += [error] if error else []
        deadline = time.perf_counter() + args.first_wait
        while first_id and time.perf_counter() < deadline:
            if all(first_id in page.seen for page in pages):
                break
            await asyncio.sleep(0.05)
        first_roll = [page.seen[first_id] - t0 for page in pages if first_id in page.seen]
    # Warm-up rolls (not counted): the first ones after a start fill each process's caches.
    for _ in range(args.warmup if ready else 0):
        _id, _s, error = await roll(poster, ids)
        errors += [error] if error else []
        await asyncio.sleep(args.spacing)
    await asyncio.sleep(1)
    for page in pages:
        page.fetches.clear()
    sent: dict[int, float] = {}
    before: dict[int, int] = {}  # roll -> the highest sequence any page had heard before it
    posts: list[float] = []
    cpu_before = sum(server.cpu_seconds() for server in servers)
    clock = time.perf_counter()
    failed = 0
    for n in range(args.rolls if ready else 0):
        if failed >= 3:
            # Each failure may be a 20 s wait for a database connection: stop there.
            errors.append(f"rolling stopped after {failed} failed rolls")
            break
        await asyncio.sleep(max(0.0, clock + n * args.spacing - time.perf_counter()))
        heard = max((seq for page in pages for _t, seq in page.events), default=0)
        t0 = time.perf_counter()
        roll_id, seconds, error = await roll(poster, ids)
        posts.append(seconds)
        if error:
            errors.append(error)
            failed += 1
        else:
            sent[roll_id], before[roll_id] = t0, heard
    # Until every page holds every roll, or a bound.
    deadline = time.perf_counter() + args.drain
    while time.perf_counter() < deadline:
        if all(roll in page.seen for page in pages for roll in sent):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)  # let the last fetches end
    cpu = sum(server.cpu_seconds() for server in servers) - cpu_before
    arrived, evented = [], []
    for roll_id, t0 in sent.items():
        for page in pages:
            if roll_id in page.seen:
                arrived.append(page.seen[roll_id] - t0)
            first = next((t for t, seq in page.events if t >= t0 and seq > before[roll_id]), None)
            if first is not None:
                evented.append(first - t0)
    fetches = [fetch for page in pages for fetch in page.fetches]
    for page in pages:
        errors += page.errors
    for stream in streams:
        stream.cancel()
    ended = [page.ended for page in pages if page.ended]
    for page in pages:
        page.close()
    poster.close()
    await asyncio.sleep(0.2)
    return {
        "opened": opened,
        "cpu": cpu,
        "first": first_roll,
        "posts": posts,
        "arrived": arrived,
        "evented": evented,
        "missing": len(sent) * len(ids["listeners"]) - len(arrived),
        "pairs": len(sent) * len(ids["listeners"]),
        "pages": len(ids["listeners"]),
        "up": up,
        "lag": lag.stop(),
        "rolls": len(sent),
        "fetches": fetches,
        "errors": errors + ended,
    }


def print_latency(report: Report, title: str, result: dict, args) -> None:
    rolls, cpu = result["rolls"], result["cpu"]
    report(title)
    report(
        f"  streams up (hello): {result['up']} of {result['pages']}"
        f" in {result['opened'] * 1000:.0f} ms"
    )
    first = result["first"]
    report(
        f"  first roll since the pages opened: in {len(first)} of {result['pages']} pages'"
        f" feeds within {args.first_wait:.0f} s; {spread(first)}"
    )
    report(f"  roll POST answered             {spread(result['posts'])}")
    report(f"  change event at the page       {spread(result['evented'])}")
    report(
        f"  roll in the page's feed        {spread(result['arrived'])}"
        f"  ({len(result['arrived'])} of {result['pairs']} pairs)"
    )
    for region, label in (("feed", "roll feed"), ("page", "#live-refresh")):
        fetches = [f for f in result["fetches"] if f.region == region]
        if not fetches:
            continue
        ok = sum(1 for f in fetches if f.status == 200)
        empty = sum(1 for f in fetches if f.status == 204)
        report(
            f"  {label} fetches: {len(fetches)} ({ok} 200, {empty} 204),"
            f" {len(fetches) / max(1, rolls):.1f} a roll; {spread([f.seconds for f in fetches])}"
        )
    report(
        f"  server CPU over the {rolls} rolls (their POSTs and fetches): {cpu:.1f} s,"
        f" {cpu / max(1, rolls) * 1000:.0f} ms a roll"
    )
    report(f"  client's event loop: longest stall {result['lag'] * 1000:.0f} ms")
    if result["missing"]:
        report(f"  MISSING: {result['missing']} (roll, page) pairs never reached the page")
    problems = sorted(set(result["errors"]))
    report(f"  client errors: {len(result['errors'])}" + (":" if problems else ""))
    for problem in problems[:8]:
        report(f"    {problem}")


async def run_latency(report: Report, mode: str, env: dict, folder: Path, ids: dict, args):
    if mode == "two-servers":
        servers = [start_server("uvicorn-a", env, folder), start_server("uvicorn-b", env, folder)]
        post_port, listen_port = servers[0].port, servers[1].port
        title = "two uvicorn processes, roll on one, pages on the other"
    else:
        gunicorn = mode == "gunicorn"
        servers = [start_server(mode, env, folder, gunicorn=gunicorn)]
        post_port = listen_port = servers[0].port
        title = "gunicorn, 3 uvicorn workers" if gunicorn else "uvicorn, 1 process"
    try:
        result = await latency(post_port, listen_port, ids, args, servers)
        # What one request costs this server, to read the fan-out's times against.
        costs = await request_costs(servers[0], ids) if mode == "uvicorn" else []
    finally:
        for server in servers:
            server.stop()
    print_latency(report, f"\n{title} (broker: {env['CRONICA_LIVE_BROKER']})", result, args)
    if costs:
        report("  one request at a time, 50 each (server CPU per request, median wall time):")
        for name, cpu_ms, wall_ms, statuses in costs:
            report(f"    {name:<26} {cpu_ms:5.1f} ms CPU  {wall_ms:5.1f} ms  {statuses}")
    server_problems(report, servers)
    return result


async def request_costs(server: Server, ids: dict) -> list[tuple[str, float, float, str]]:
    browser = Browser(server.port, ids["listeners"][0])
    feed = f"/campaigns/{ids['campaign']}/rolls/feed/?since="
    htmx = {"HX-Request": "true"}
    page = f"/campaigns/{ids['campaign']}/"
    version = since = ""
    try:
        found = FEED.search((await browser.request("GET", feed + "0", htmx)).text)
        version = quote(found.group(1)) if found else ""
        found = REFRESH.search((await browser.request("GET", page)).text)
        since = _since(found.group(2)) if found else ""
    except OSError:
        pass
    asked = [
        ("bare view (bench/urls.py)", "/bench/bare/", {}),
        ("feed, unchanged (204)", feed + version, htmx),
        ("feed, changed (200)", feed + "0", htmx),
        ("campaign page", page, {}),
        ("#live-refresh, unchanged", page, {**htmx, SINCE_HEADER: since}),
        ("#live-refresh, changed", page, {**htmx, SINCE_HEADER: "0"}),
    ]
    costs = []
    try:
        for name, path, headers in asked:
            walls, statuses = [], set()
            cpu = server.cpu_seconds()
            for _ in range(50):
                started = time.perf_counter()
                try:
                    status = (await browser.request("GET", path, headers)).status
                except OSError as error:
                    status = type(error).__name__
                walls.append(time.perf_counter() - started)
                statuses.add(status)
                if status not in (200, 204):
                    break  # a failure may be a 20 s wait for a connection: not 50 of them
            cpu = (server.cpu_seconds() - cpu) / len(walls)
            shown = ",".join(str(status) for status in sorted(statuses, key=str))
            costs.append((name, cpu * 1000, statistics.median(walls) * 1000, shown))
    finally:
        browser.close()
    return costs


def server_problems(report: Report, servers: list[Server]) -> None:
    for server in servers:
        lines = [line for line in server.log.read_text(errors="replace").splitlines() if line]
        problems = server.problems() or lines
        if problems:
            report(f"  {server.name} log: {len(lines)} lines, {len(problems)} errors, e.g.:")
            for line in sorted(set(problems))[:6]:
                report(f"    {line}")


async def page_time(browser: Browser, path: str, count: int) -> tuple[float, list]:
    """Median seconds of `count` GETs in a row (fewer past 30 s), and what was not 200."""
    times, bad = [], []
    budget = time.perf_counter() + 30
    while len(times) < count and time.perf_counter() < budget:
        started = time.perf_counter()
        try:
            answer = await browser.request("GET", path)
        except OSError as error:
            bad.append(repr(error))
        else:
            if answer.status != 200:
                bad.append(answer.status)
        times.append(time.perf_counter() - started)
    return statistics.median(times), bad


async def idle_cpu(server: Server, seconds: float) -> float:
    """The server's CPU share while the client does nothing."""
    before = server.cpu_seconds()
    await asyncio.sleep(seconds)
    return (server.cpu_seconds() - before) / seconds


async def capacity(report: Report, env: dict, folder: Path, ids: dict, args) -> None:
    server = start_server("uvicorn-capacity", env, folder)
    campaign = ids["campaign"]
    page = f"/campaigns/{campaign}/"
    try:
        browser = Browser(server.port, ids["listeners"][0])
        await page_time(browser, page, 5)  # warm-up
        idle_before, bad = await page_time(browser, page, args.gets)
        cpu_before = await idle_cpu(server, 5)
        rss_before = server.status("VmRSS")
        threads_before = server.status("Threads")
        connections_before = server.database_connections(env["DATABASE_URL"])
        crowd = [Page(server.port, key, campaign) for key in ids["crowd"]]
        stream_path = f"/campaigns/{campaign}/live/"
        for member in crowd:
            member.stream_path = stream_path
        started = time.perf_counter()
        tasks = []
        # In batches, as pages of a busy evening open over a while, not in one burst.
        for n in range(0, len(crowd), 50):
            tasks += [asyncio.create_task(member.listen()) for member in crowd[n : n + 50]]
            await asyncio.sleep(0.05)
        with contextlib.suppress(TimeoutError):  # counted below
            await asyncio.wait_for(asyncio.gather(*(m.up.wait() for m in crowd)), 60)
        opened = time.perf_counter() - started
        up = sum(1 for m in crowd if m.up.is_set() and not m.ended)
        # Past one membership recheck (LIVE_RECHECK_SECONDS) of every stream.
        await asyncio.sleep(6)
        rss_with = server.status("VmRSS")
        threads_with = server.status("Threads")
        connections_with = server.database_connections(env["DATABASE_URL"])
        cpu_with = await idle_cpu(server, 10)
        idle_with, bad_with = await page_time(browser, page, args.gets)
        # A roll's change at all the streams (they fetch nothing here).
        poster = Browser(server.port, ids["poster"])
        fanout, all_heard, errors = [], [], []
        try:
            path = f"/campaigns/{campaign}/characters/{ids['roller']}/"
            ready = (await poster.request("GET", path)).status == 200
        except OSError as error:
            ready = False
            errors.append(f"the roller's sheet: {error!r}")
        lag = LoopLag()
        posts = []
        for _ in range(5 if ready else 0):
            heard = max((seq for m in crowd for _t, seq in m.events), default=0)
            t0 = time.perf_counter()
            _id, seconds, error = await roll(poster, ids)
            posts.append(seconds)
            errors += [error] if error else []

            def first_news(member: Page, t0: float = t0, heard: int = heard) -> float | None:
                return next((t for t, seq in member.events if t >= t0 and seq > heard), None)

            # Until every open stream has the news, or a bound.
            deadline = time.perf_counter() + 15
            while time.perf_counter() < deadline:
                if all(first_news(m) is not None for m in crowd if not m.ended):
                    break
                await asyncio.sleep(0.05)
            got = [t - t0 for m in crowd if (t := first_news(m)) is not None]
            fanout += got
            if len(got) == len(crowd):
                all_heard.append(max(got))
            await asyncio.sleep(0.5)
        stall = lag.stop()
        still = sum(1 for m in crowd if not m.ended)
        ended = [m.ended for m in crowd if m.ended]
        for task in tasks:
            task.cancel()
        browser.close()
        poster.close()
        await asyncio.sleep(0.5)
    finally:
        server.stop()
    n = len(crowd)
    report(f"\ncapacity: {n} streams on one uvicorn process (broker: {env['CRONICA_LIVE_BROKER']})")
    report(f"  streams up (hello): {up} of {n} in {opened:.1f} s; open at the end: {still}")
    report(
        f"  campaign page, median of {args.gets} GETs: {idle_before * 1000:.1f} ms before,"
        f" {idle_with * 1000:.1f} ms with the streams open (x{idle_with / idle_before:.2f})"
        + (f"; non-200: {bad + bad_with}" if bad or bad_with else "")
    )
    report(
        f"  server RSS: {rss_before / 1024:.1f} MB before, {rss_with / 1024:.1f} MB with the"
        f" streams: +{(rss_with - rss_before) / 1024:.1f} MB for {up} streams up,"
        f" {(rss_with - rss_before) / max(1, up):.0f} KB a stream"
    )
    report(
        f"  server threads: {threads_before} before, {threads_with} with the streams;"
        f" database connections open: {connections_before} before, {connections_with} with them"
    )
    report(
        f"  server CPU while nothing happens: {cpu_before * 100:.1f}% before,"
        f" {cpu_with * 100:.1f}% with the streams open"
    )
    report(f"  5 rolls: POST answered {spread(posts)}")
    report(f"    change event at each stream      {spread(fanout)}")
    report(
        f"    change event at all {n} streams  {spread(all_heard)}"
        f" ({len(all_heard)} of 5 rolls reached all in 15 s)"
    )
    report(f"  client's event loop: longest stall {stall * 1000:.0f} ms")
    problems = sorted(set(errors + ended))
    report(f"  client errors: {len(errors) + len(ended)}" + (":" if problems else ""))
    for problem in problems[:8]:
        report(f"    {problem}")
    server_problems(report, [server])


def git_state() -> str:
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    changed = subprocess.run(
        ["git", "status", "--short", "--", ".", ":!bench"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split("\n")
    changed = [line[3:] for line in changed if line.strip()]
    return head + (f" + uncommitted changes in {', '.join(changed)}" if changed else "")


def run_from_snapshot() -> None:
    """Run again from a copy of the last commit (and this script as it is): edits others
    are making meanwhile neither break the servers nor blur the figures."""
    folder = tempfile.mkdtemp(prefix="cronica-live-code-")
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
    copy = Path(folder) / "bench" / "live.py"
    shutil.copy(Path(__file__).resolve(), copy)
    env = {
        **os.environ,
        "CRONICA_BENCH_SNAPSHOT": folder,
        "CRONICA_BENCH_CODE": f"{git_state().split()[0]} (a copy of the last commit)",
        "CRONICA_BENCH_RESULTS": str(ROOT / "bench" / "results"),
    }
    os.execve(sys.executable, [sys.executable, str(copy), *sys.argv[1:]], env)


async def run(args, env: dict, folder: Path, ids: dict, report: Report) -> None:
    for mode in args.modes:
        if mode == "capacity":
            await capacity(report, env, folder, ids, args)
        else:
            await run_latency(report, mode, env, folder, ids, args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default=",".join(MODES), help=f"any of {', '.join(MODES)}")
    parser.add_argument("--listeners", type=int, default=20)
    parser.add_argument("--rolls", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=2, help="rolls before measuring")
    parser.add_argument("--spacing", type=float, default=0.5, help="seconds between rolls")
    parser.add_argument("--drain", type=float, default=15, help="max wait after the last roll")
    parser.add_argument(
        "--first-wait", type=float, default=5, help="max wait for the first roll, in seconds"
    )
    parser.add_argument("--streams", type=int, default=500, help="for the capacity run")
    parser.add_argument("--gets", type=int, default=20, help="page GETs per median")
    parser.add_argument("--broker", default="", choices=("", "poll", "postgres"))
    parser.add_argument("--postgres", action="store_true", help="throwaway PostgreSQL cluster")
    parser.add_argument("--db-pool", type=int, help="CRONICA_DB_POOL for the servers")
    parser.add_argument("--no-save", action="store_true", help="print only")
    parser.add_argument(
        "--worktree", action="store_true", help="serve the working tree, not the last commit"
    )
    args = parser.parse_args()
    args.modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    if unknown := set(args.modes) - set(MODES):
        parser.error(f"unknown modes: {', '.join(sorted(unknown))}")
    if args.postgres and "DATABASE_URL" not in os.environ:
        # Run again inside a throwaway cluster; the script sets DATABASE_URL.
        script = str(ROOT / "scripts" / "with-postgres.sh")
        os.execv(script, [script, sys.executable, str(Path(__file__).resolve()), *sys.argv[1:]])
    snapshot = os.environ.get("CRONICA_BENCH_SNAPSHOT")
    if not args.worktree and not snapshot:
        run_from_snapshot()
    try:
        return measure(args)
    finally:
        if snapshot:
            shutil.rmtree(snapshot, ignore_errors=True)


def measure(args) -> int:
    report = Report()
    with tempfile.TemporaryDirectory(prefix="cronica-live-") as name:
        folder = Path(name)
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder / 'live.sqlite3'}"
        database = "postgresql" if database_url.startswith("postgres") else "sqlite"
        broker = args.broker or ("postgres" if database == "postgresql" else "poll")
        env = site_env(folder, database_url, broker, args.db_pool)
        began = time.perf_counter()
        ids = build(env, args.listeners, args.streams)
        now = datetime.datetime.now(datetime.UTC)
        code = os.environ.get("CRONICA_BENCH_CODE") or git_state()
        report(f"bench/live.py on {database}, {now:%Y-%m-%d %H:%M} UTC, code {code}")
        report(
            f"machine: {os.cpu_count()} CPUs (client and servers share them), load average"
            f" when it started: {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
        )
        pool = env.get("CRONICA_DB_POOL", "10 (the default)")
        pooled = f"; PostgreSQL pool per process: {pool}" if database == "postgresql" else ""
        report(f"built in {time.perf_counter() - began:.0f} s{pooled}")
        report(
            f"{args.listeners} pages (one per player) each hold the campaign page's stream and"
            f" fetch its live parts at each change. A first roll alone, then {args.warmup}"
            f" warm-up rolls, then {args.rolls} rolls {args.spacing} s apart."
            " Times from sending the roll's POST."
        )
        rolls_before = stored_rolls(ids["campaign"])
        asyncio.run(run(args, env, folder, ids, report))
        stored = stored_rolls(ids["campaign"]) - rolls_before
        report(f"\nrolls stored: {stored}; answered as done: {TALLY['rolls']}")
        report(f"whole run: {time.perf_counter() - began:.0f} s")
        # Other work on the machine (tests, browsers) blurs every figure above.
        report(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if not args.no_save:
        results = Path(os.environ.get("CRONICA_BENCH_RESULTS") or ROOT / "bench" / "results")
        pool = f"-pool{args.db_pool}" if args.db_pool else ""
        out = results / f"{datetime.date.today()}-live-{database}{pool}.txt"
        out.write_text("\n".join(report.lines) + "\n")
        print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
