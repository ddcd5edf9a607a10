"""Round trip of the roll panel's odds endpoint (the htmx GET sent on every change).

Builds a throw-away database with one campaign per rule system that rolls, holding that
system's demo characters, logs the first one's player in with Django's test client, and
times GET .../roll/?part=odds with the set-up changing on every request, as a player
clicking through the panel would: each request picks a kind of roll and a value for every
field of the system's own panel form (a few of each list's choices, both states of each
box), among the set-ups that can be rolled. "cold" clears the engine's odds caches before
each request (a fresh process); "warm" does not.

Run: .venv/bin/python bench/roll_odds.py [--requests 300] [--systems KEY ...]
Target: median and p95 under 100 ms.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault(
    "DJANGO_SECRET_KEY", "bench-only-secret-key-not-for-production-use-0123456789"
)
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ["DATABASE_URL"] = "sqlite:///:memory:"

import warnings  # noqa: E402

import django  # noqa: E402

django.setup()

from django import forms  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.exceptions import ValidationError  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from characters.models import Resource  # noqa: E402
from mechanics.demo import seed_characters  # noqa: E402
from mechanics.rules.errors import RuleError  # noqa: E402
from mechanics.setup import load_sheet  # noqa: E402
from mechanics.systems.base import GameSystem  # noqa: E402
from mechanics.systems.registry import all_systems, get_system  # noqa: E402
from tests.factories import CampaignFactory, MembershipFactory, UserFactory  # noqa: E402

# Choices of one list a player clicks through (the first ones: the most common).
MAX_CHOICES = 4


def clear_engine_caches(system: str) -> None:
    for name in ("odds", "rolls"):
        module = importlib.import_module(f"mechanics.rules.{system}.{name}")
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def world(system: GameSystem):
    """A campaign of the system with its demo characters; the first one's player."""
    gm = UserFactory(username=f"gm_{system.key}")
    campaign = CampaignFactory(created_by=gm, system=system.key)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    users = {}
    for sheet in system.demo_characters:
        if sheet["owner"] not in users:
            users[sheet["owner"]] = UserFactory(username=f"{sheet['owner']}_{system.key}")
            MembershipFactory(campaign=campaign, user=users[sheet["owner"]], role="player")
    character = seed_characters(campaign, users)[0]
    # One point in every pool, so a set-up that spends one can be rolled.
    Resource.objects.filter(character=character).update(current=1)
    return character.owner, character


def _values(field) -> list[str]:
    """What a player may pick in one field: both states of a box, a few of a list's
    choices; a typed number keeps its initial value."""
    if isinstance(field, forms.BooleanField):
        return ["", "on"]
    choices = getattr(field, "choices", None)
    if choices:
        flat = [
            key
            for key, label in choices
            for key in ([k for k, _label in label] if isinstance(label, list | tuple) else [key])
        ]
        return [str(key) for key in flat[:MAX_CHOICES]]
    return [] if field.initial is None else [str(field.initial)]


def set_ups(character, count: int, seed: int = 1) -> list[dict]:
    """`count` random set-ups of the character's panel that the system can roll (the same
    check the panel makes: a valid form and a plan the set-up accepts)."""
    sheet = load_sheet(character, character.campaign)
    setup = sheet.system.roll_setup
    open_actions = setup.open_actions(character)

    def form(data=None):
        return sheet.system.roll_form(data, sheet=sheet, open_actions=open_actions)

    options = {name: _values(field) for name, field in form().fields.items()}
    options = {name: values for name, values in options.items() if values}
    rng = random.Random(seed)
    chosen = []
    for _attempt in range(count * 50):
        data = {name: rng.choice(values) for name, values in options.items()}
        bound = form(data)
        if not bound.is_valid():
            continue
        try:
            setup.plan(sheet, bound.cleaned_data, open_actions=open_actions)
        except (RuleError, ValidationError):
            continue
        chosen.append(data)
        if len(chosen) == count:
            return chosen
    raise SystemExit(f"{sheet.system.key}: only {len(chosen)} set-ups of {count} can be rolled")


def bench(system: GameSystem, requests: int, cold: bool) -> list[float]:
    player, character = world(system)
    client = Client()
    client.force_login(player)
    url = reverse("mechanics:roll", args=[character.campaign_id, character.pk])
    times = []
    for data in set_ups(character, requests):
        if cold:
            clear_engine_caches(system.key)
        start = time.perf_counter()
        response = client.get(url, {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
        assert "odds-value" in response.text, response.text
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    rolling = [system.key for system in all_systems() if system.roll_setup is not None]
    parser.add_argument("--systems", nargs="*", default=rolling, choices=rolling)
    args = parser.parse_args()
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    warnings.filterwarnings("ignore", message="No directory at")
    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
    print(
        f"{'system':<10} {'mode':<5} {'requests':>8} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}"
    )
    for key in args.systems:
        system = get_system(key)
        for cold in (False, True):
            times = bench(system, args.requests, cold)
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            mode = "cold" if cold else "warm"
            print(
                f"{key:<10} {mode:<5} {len(times):>8} {statistics.median(times):>10.2f} "
                f"{p95:>8.2f} {max(times):>8.2f}"
            )


if __name__ == "__main__":
    main()
