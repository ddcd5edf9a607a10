"""Round trip of the roll panel's odds endpoint (the htmx GET sent on every change).

Builds a throw-away database with one campaign and one character per system, logs a
player in with Django's test client, and times GET .../roll/?part=odds with the
set-up changing on every request (attribute, skill, modifiers, Willpower, again...),
as a player clicking through the panel would. "cold" clears the engine's odds caches
before each request (a fresh process); "warm" does not.

Run: .venv/bin/python bench/roll_odds.py [--requests 300] [--systems tinieblas hitos]
Target: median and p95 under 100 ms.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
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

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

SETUPS = {
    "tinieblas": {
        "kind": ["pool"],
        "attribute": ["inteligencia", "fuerza", "destreza", "compostura"],
        "skill": ["investigacion", "pelea", ""],
        "modifier_1": ["0", "2", "-3"],
        "willpower": ["", "dice"],
        "again": ["10", "9", "8", "none"],
        "rote": ["", "on"],
    },
    "hitos": {
        "kind": ["check"],
        "characteristic": ["reflejos", "intelecto"],
        "skill": ["combate", "percepcion"],
        "difficulty": ["10", "15", "20", "25"],
        "modifier": ["0", "2", "-2"],
        "hinder": ["", "on"],
    },
    "ndp": {
        "kind": ["check"],
        "skill": ["percibir", "pelea", "sigilo"],
        "dice": ["2", "3", "4"],
        "gracias": ["0", "1", "2"],
        "desgracias": ["0", "1"],
        "adversity": ["8", "12", "16"],
    },
    "objetivo": {
        "kind": ["skill", "attribute"],
        "attribute": ["fuerza", "destreza"],
        "skill": ["pelea", "buscar"],
        "difficulty": ["10", "15", "20", "25"],
        "modifier": ["0", "2"],
        "destiny_point": ["", "on"],
    },
}
RATINGS = {
    "tinieblas": {"inteligencia": 3, "fuerza": 2, "investigacion": 3, "pelea": 2},
    "hitos": {"reflejos": 5, "combate": 4, "percepcion": 3},
    "ndp": {"percibir": 4, "pelea": 3, "sigilo": 2},
    "objetivo": {"fuerza": 6, "destreza": 5, "pelea": 4, "buscar": 2, "resistencia": 8},
}


def clear_engine_caches(system: str) -> None:
    for name in ("odds", "rolls"):
        module = importlib.import_module(f"mechanics.rules.{system}.{name}")
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def world(system: str):
    from characters.models import Resource
    from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

    gm = UserFactory(username=f"gm_{system}")
    player = UserFactory(username=f"player_{system}")
    campaign = CampaignFactory(created_by=gm, system=system)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(campaign, player, name="Banco", ratings=RATINGS[system])
    Resource.objects.filter(character=character).update(current=1)
    return player, character


def bench(system: str, requests: int, cold: bool) -> list[float]:
    player, character = world(system)
    client = Client()
    client.force_login(player)
    url = reverse("mechanics:roll", args=[character.campaign_id, character.pk])
    options = SETUPS[system]
    combos = itertools.cycle(
        dict(zip(options, values, strict=True)) for values in itertools.product(*options.values())
    )
    times = []
    for _ in range(requests):
        data = {**next(combos), "part": "odds"}
        if cold:
            clear_engine_caches(system)
        start = time.perf_counter()
        response = client.get(url, data, HTTP_HX_REQUEST="true")
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
        assert "odds-value" in response.text, response.text
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--systems", nargs="*", default=list(SETUPS))
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
    for system in args.systems:
        for cold in (False, True):
            times = bench(system, args.requests, cold)
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            mode = "cold" if cold else "warm"
            print(
                f"{system:<10} {mode:<5} {len(times):>8} {statistics.median(times):>10.2f} "
                f"{p95:>8.2f} {max(times):>8.2f}"
            )


if __name__ == "__main__":
    main()
