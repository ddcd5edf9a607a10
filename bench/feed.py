"""Live feed benchmark: what one poll costs when every open page polls every 2 seconds.

Builds a throwaway SQLite database with a campaign holding many rolls (some secret), made
by a rule system's own roll set-up for one of its demo characters, then
runs full requests through Django's middleware (session, auth, htmx) as a player:
- unchanged poll: `?since=<version>` answered 204 No Content;
- conditional GET: If-None-Match answered 304 Not Modified;
- changed poll: the version is stale, the list of the 10 newest rolls is rendered (200).
Prints the queries of each kind of poll and the median time over many requests.

Run: .venv/bin/python bench/feed.py [--rolls 20000] [--polls 300] [--system KEY]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def setup_django(database: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "x" * 40)
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DJANGO_HTTPS"] = "0"
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    # Templates render {% static %} without a collectstatic manifest.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build(rolls: int, system_key: str | None):
    """A campaign of the system (by default the first that rolls) with `rolls` rolls of its
    first demo character, made by its own roll set-up from the panel's default choices."""
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, Membership, Scene
    from characters.models import Character
    from mechanics.demo import seed_characters
    from mechanics.forms.roll import default_data
    from mechanics.models import Roll
    from mechanics.setup import load_sheet
    from mechanics.systems.registry import all_systems, get_system

    rolling = [system for system in all_systems() if system.roll_setup is not None]
    system = get_system(system_key) if system_key else rolling[0]
    gm = User.objects.create_user("gm")
    player = User.objects.create_user("player")
    campaign = Campaign.objects.create(name="Bench", system=system.key, created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    Membership.objects.create(campaign=campaign, user=player, role="player")
    other = Campaign.objects.create(name="Other", system=system.key, created_by=gm)
    owners = {sheet["owner"]: player for sheet in system.demo_characters}
    roller = seed_characters(campaign, owners)[0]
    characters = [roller] + [
        Character.objects.create(campaign=campaign, owner=player, name=f"PJ {n}") for n in range(19)
    ]
    scenes = [Scene.objects.create(campaign=campaign, title=f"Escena {n}") for n in range(30)]
    sheet = load_sheet(roller, campaign)
    setup = system.roll_setup
    open_actions = setup.open_actions(roller)
    untouched = system.roll_form(None, sheet=sheet, open_actions=open_actions)
    form = system.roll_form(default_data(untouched), sheet=sheet, open_actions=open_actions)
    assert form.is_valid(), form.errors
    plan = setup.plan(sheet, form.cleaned_data, open_actions=open_actions)
    rng = random.Random(1)
    batch = []
    for n in range(rolls):
        record = plan.roll(rng)[0].record
        batch.append(
            Roll(
                campaign=other if n % 4 == 0 else campaign,
                character=rng.choice(characters),
                scene=rng.choice(scenes),
                user=player,
                system=record.system,
                kind=record.kind,
                label=f"Tirada {n}",
                record=record.to_dict(),
                result=record.result,
                outcome=record.outcome,
                secret=n % 10 == 0,
            )
        )
    Roll.objects.bulk_create(batch, batch_size=2000)
    return campaign, gm, player


def timed(client, url: str, polls: int, **headers) -> tuple[float, int, int]:
    """Median milliseconds, queries of one request, and its status code."""
    from django.db import connection

    executed = []

    def count(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    # A wrapper survives the reconnect each request makes (CONN_MAX_AGE is 0 on SQLite).
    with connection.execute_wrapper(count):
        status = client.get(url, **headers).status_code
    for _ in range(20):  # warm up
        client.get(url, **headers)
    times = []
    for _ in range(polls):
        start = time.perf_counter()
        client.get(url, **headers)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3, len(executed), status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=20_000)
    parser.add_argument("--polls", type=int, default=300)
    parser.add_argument("--system", help="a rule system's key (default: the first that rolls)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        from django.test import Client
        from django.urls import reverse

        campaign, _gm, player = build(args.rolls, args.system)
        client = Client()
        client.force_login(player)
        htmx = {"HTTP_HX_REQUEST": "true"}
        url = reverse("mechanics:feed", args=[campaign.pk])
        first = client.get(f"{url}?since=0", **htmx)
        version = first.content.decode().split('data-version="')[1].split('"')[0]
        cases = [
            ("unchanged poll (since=version)", f"{url}?since={version}", {}),
            ("conditional GET (If-None-Match)", url, {"HTTP_IF_NONE_MATCH": first["ETag"]}),
            ("changed poll (stale since)", f"{url}?since=stale", {}),
        ]
        print(f"{args.rolls} rolls in the database, {args.polls} requests per case, SQLite")
        print(f"{'request':34} {'status':>6} {'queries':>8} {'median ms':>10}")
        for name, case_url, headers in cases:
            median, queries, status = timed(client, case_url, args.polls, **htmx, **headers)
            print(f"{name:34} {status:>6} {queries:>8} {median:>10.2f}")
        print("queries include the session and the user (2); the rest are the feed's own.")
        print("Each request also opens its SQLite connection (CONN_MAX_AGE is 0 on SQLite).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
