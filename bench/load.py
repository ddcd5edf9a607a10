"""Mixed load on loopback against gunicorn: what a busy table does to the site.

Prepares a throwaway database (migrate, seed_demo, a scene for the Mundo de Tinieblas demo
campaign and a large XP balance for its two characters), collects the static files into
staticfiles/ as a deployment does (debug is off), starts gunicorn on loopback
(2 workers by default), and runs 32 simulated users for 60 seconds, each with its own
session and no think time. The players (ana, bruno) view their sheet, poll the roll feed,
roll, save their diary and spend XP; the GM (master) views sheets, polls and rolls.
Sessions are made beforehand, as
a logged-in browser has them (a real login costs a deliberately slow password hash, which is
not what this measures), and the clock starts once every user has its CSRF cookie.
Then it stops gunicorn and prints requests/s, latency percentiles and the errors (any
answer other than the one the site gives a correct request, or no answer), and checks in
the database that every roll, diary save and XP spend answered as done was stored.

Run: .venv/bin/python bench/load.py [--users 32] [--seconds 60] [--workers 2]
     .venv/bin/python bench/load.py --postgres   # in a throwaway PostgreSQL 15 cluster
The exit status is 1 if there was any error.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from http.client import HTTPConnection
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.processes import free_port  # noqa: E402

PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))
CAMPAIGN = "Sombras sobre Madrid"  # the Mundo de Tinieblas demo campaign
POOL = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}
# What each kind of user does, with weights.
PLAYER_MIX = {"sheet": 30, "feed": 35, "roll": 15, "diary": 10, "xp": 10}
GM_MIX = {"sheet": 40, "feed": 45, "roll": 15}
HTMX = {"HX-Request": "true"}
NAMES = ("ana", "bruno", "master")


def django_env(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


def prepare(env: dict[str, str], users: int) -> dict:
    """Demo data plus what the load needs; returns the ids and sessions the users use."""
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "seed_demo")
    manage(env, "collectstatic", "--noinput", "-v0")
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User as Account
    from django.db import connections

    from accounts.sessions import SessionStore
    from campaigns import services as campaign_services
    from campaigns.models import Campaign
    from characters import services

    campaign = Campaign.objects.get(name=CAMPAIGN)
    campaign.xp_purchases_need_approval = False
    campaign.save(update_fields=["xp_purchases_need_approval"])
    gm = campaign.memberships.get(role="gm").user
    characters = list(campaign.characters.select_related("owner").order_by("pk"))
    for character in characters:
        services.xp_adjust(character=character, user=gm, amount=1_000_000, reason="Carga")
    scene = campaign_services.scene_create(
        campaign=campaign, title="Escena de carga", participants=characters
    )
    sessions = []
    for number in range(users):
        account = Account.objects.get(username=NAMES[number % len(NAMES)])
        session = SessionStore()
        session[SESSION_KEY] = str(account.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.ModelBackend"
        session[HASH_SESSION_KEY] = account.get_session_auth_hash()
        session.save()
        sessions.append((account.username, session.session_key))
    ids = {
        "campaign": campaign.pk,
        "scene": scene.pk,
        "characters": {c.owner.username: c.pk for c in characters},
        "sessions": sessions,
    }
    connections.close_all()
    return ids


def count_rows(ids: dict) -> dict[str, int]:
    from characters.models import DiaryEntry, XpPurchase
    from mechanics.models import Roll

    return {
        "rolls": Roll.objects.filter(campaign_id=ids["campaign"]).count(),
        "xp": XpPurchase.objects.filter(character__campaign_id=ids["campaign"]).count(),
        "diary": DiaryEntry.objects.filter(scene_id=ids["scene"]).count(),
    }


# --- The client ---------------------------------------------------------------------------


@dataclass
class Result:
    action: str
    seconds: float
    error: str = ""


@dataclass
class User:
    port: int
    username: str
    ids: dict
    rng: random.Random
    cookies: dict[str, str] = field(default_factory=dict)
    version: str = ""
    spends: int = 0

    def request(self, method: str, path: str, body: dict | None = None, headers=None):
        connection = HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            data = None
            if body is not None:
                data = urlencode(body)
                sent["Content-Type"] = "application/x-www-form-urlencoded"
                sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            connection.request(method, path, body=data, headers={**sent, **(headers or {})})
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, text
        finally:
            connection.close()

    def open_site(self, session_key: str) -> None:
        """The first page of a logged-in browser: it sets the CSRF cookie."""
        self.cookies["sessionid"] = session_key
        status, _ = self.request("GET", f"/campaigns/{self.ids['campaign']}/")
        if status != 200 or "csrftoken" not in self.cookies:
            raise RuntimeError(f"{self.username} has no working session ({status})")

    @property
    def character(self) -> int:
        own = self.ids["characters"].get(self.username)
        return own or self.rng.choice(list(self.ids["characters"].values()))

    def act(self, action: str) -> str:
        """Do one action; return "" or what was wrong with the answer."""
        campaign, character = self.ids["campaign"], self.character
        base = f"/campaigns/{campaign}"
        if action == "sheet":
            status, _ = self.request("GET", f"{base}/characters/{character}/")
            expected = {200}
        elif action == "feed":
            status, text = self.request(
                "GET", f"{base}/rolls/feed/?since={self.version}", headers=HTMX
            )
            if status == 200:
                self.version = re.search(r'data-version="([^"]*)"', text).group(1)
            expected = {200, 204}
        elif action == "roll":
            status, _ = self.request(
                "POST", f"{base}/characters/{character}/roll/", POOL, headers=HTMX
            )
            expected = {200}
        elif action == "diary":
            body = {
                "body": f"Sesión de {self.username}: *{self.rng.random()}*",
                "visibility": "group",
                "action": "publish",
            }
            path = f"{base}/characters/{character}/diary/{self.ids['scene']}/"
            status, _ = self.request("POST", path, body)
            expected = {302}
        else:
            self.spends += 1
            name = f"Contacto {self.username} {id(self)} {self.spends}"
            body = {"kind": "merit", "merit": "custom", "name": name}
            status, _ = self.request("POST", f"{base}/characters/{character}/xp/buy/", body)
            expected = {302}
        return "" if status in expected else f"{action} answered {status}"


def run_user(user: User, session_key: str, start: threading.Barrier, clock: dict, results, lock):
    mix = GM_MIX if user.username not in user.ids["characters"] else PLAYER_MIX
    actions, weights = list(mix), list(mix.values())
    mine: list[Result] = []
    ready = True
    try:
        user.open_site(session_key)
    except Exception as error:  # reported as an error of this user, not a crash
        mine.append(Result("session", 0.0, repr(error)))
        ready = False
    start.wait()
    while ready and time.monotonic() < clock["deadline"]:
        action = user.rng.choices(actions, weights)[0]
        start = time.perf_counter()
        try:
            error = user.act(action)
        except Exception as problem:  # connection refused, reset, timeout
            error = f"{action}: {problem!r}"
        mine.append(Result(action, time.perf_counter() - start, error))
    with lock:
        results.extend(mine)


# --- The run ------------------------------------------------------------------------------


def wait_until_up(port: int, server: subprocess.Popen) -> None:
    for _attempt in range(200):
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited before it served")
        try:
            connection = HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/accounts/login/")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not answer")


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def report(results: list[Result], seconds: float, database: str, args) -> int:
    errors = [result for result in results if result.error]
    timings = defaultdict(list)
    for result in results:
        if not result.error:
            timings[result.action].append(result.seconds * 1000)
    every = [ms for values in timings.values() for ms in values]
    print(f"\n{database}: {args.users} users, gunicorn {args.workers} workers, {seconds:.0f} s")
    # Figures from a shared machine mean little without its load.
    print("machine load average (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    print(
        f"requests: {len(results)}  requests/s: {len(results) / seconds:.1f}  errors: {len(errors)}"
    )
    if len(every) >= 2:
        print(
            f"latency ms  p50 {percentile(every, 0.50):.0f}  p95 {percentile(every, 0.95):.0f}"
            f"  p99 {percentile(every, 0.99):.0f}"
        )
    for action, values in sorted(timings.items()):
        if len(values) >= 2:
            print(
                f"  {action:<6} {len(values):>6}  p50 {percentile(values, 0.50):>5.0f}"
                f"  p95 {percentile(values, 0.95):>5.0f}  p99 {percentile(values, 0.99):>5.0f}"
            )
    for message, count in Counter(error.error for error in errors).most_common(10):
        print(f"  error ×{count}: {message}")
    return len(errors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--postgres", action="store_true", help="throwaway PostgreSQL cluster")
    args = parser.parse_args()
    if args.postgres and "DATABASE_URL" not in os.environ:
        # Run again inside a throwaway cluster; the script sets DATABASE_URL.
        script = str(ROOT / "scripts" / "with-postgres.sh")
        os.execv(script, [script, PYTHON, str(Path(__file__).resolve()), *sys.argv[1:]])
    with tempfile.TemporaryDirectory(prefix="cronica-load-") as folder:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/load.sqlite3"
        env = django_env(database_url)
        ids = prepare(env, args.users)
        before = count_rows(ids)
        port = free_port()
        server = subprocess.Popen(
            [GUNICORN, "config.wsgi", "--workers", str(args.workers),
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=ROOT, env=env,
        )  # fmt: skip
        try:
            wait_until_up(port, server)
            results: list[Result] = []
            lock = threading.Lock()
            clock: dict[str, float] = {}

            def start_clock() -> None:
                clock["start"] = time.monotonic()
                clock["deadline"] = clock["start"] + args.seconds

            start = threading.Barrier(args.users, action=start_clock)
            threads = [
                threading.Thread(
                    target=run_user,
                    args=(
                        User(port, name, ids, random.Random(n)),
                        key,
                        start,
                        clock,
                        results,
                        lock,
                    ),
                )
                for n, (name, key) in enumerate(ids["sessions"])
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - clock["start"]
        finally:
            server.terminate()
            server.wait(timeout=30)
        vendor = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
        errors = report(results, elapsed, vendor, args)
        # Every write answered as done is in the database.
        after = count_rows(ids)
        done = Counter(r.action for r in results if not r.error)
        print(
            f"stored: rolls +{after['rolls'] - before['rolls']} of {done['roll']} answered,"
            f" XP spends +{after['xp'] - before['xp']} of {done['xp']},"
            f" diary entries {after['diary']} (one per character, rewritten {done['diary']} times)"
        )
        if (
            after["rolls"] - before["rolls"] != done["roll"]
            or after["xp"] - before["xp"] != done["xp"]
        ):
            print("MISMATCH between answers and stored rows")
            errors += 1
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
