"""What the page and load benchmarks share: a throw-away site (database, static files,
production settings with the bare view), the demo and the big campaign in it, and the
list of pages to measure.

Import `configure()` first: it sets the environment and starts Django.
"""

from __future__ import annotations

import html
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTMX = {"HTTP_HX_REQUEST": "true"}
# Production sits behind a TLS proxy that says so (SECURE_PROXY_SSL_HEADER), and browsers
# accept gzip.
PROXY = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def configure(folder: Path) -> None:
    """Point Django at a SQLite file and a static folder inside `folder`, debug off."""
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["BENCH_STATIC_ROOT"] = str(folder / "static")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "x" * 40)
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()


def prepare_database() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)


@dataclass
class World:
    """One campaign to measure, and the people who look at it."""

    name: str
    campaign: object
    gm: object
    player: object
    character: object  # the player's Mundo de Tinieblas sheet
    scene: object
    other_sheets: dict = field(default_factory=dict)  # system -> the player's sheet there


def build_demo() -> World:
    """`seed_demo`, then a scene in the Mundo de Tinieblas campaign with a little play
    through the services: rolls, a diary, XP, a wound."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from bench.data import pool_records
    from campaigns.models import Campaign
    from campaigns.services import scene_create
    from characters.models import Character
    from characters.services import diary_save, scene_award_xp
    from mechanics.rules.tinieblas.advancement import SceneAward
    from mechanics.rules.tinieblas.rolls import SYSTEM
    from mechanics.services.health import character_apply_damage
    from mechanics.services.rolls import RollSide, roll_perform
    from mechanics.systems.base import DamageInput

    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    gm, player = User.objects.get(username="master"), User.objects.get(username="ana")
    sheets = {
        c.campaign.system: c
        for c in Character.objects.filter(owner=player).select_related("campaign")
    }
    campaign = Campaign.objects.get(system=SYSTEM, memberships__user=player)
    cast = list(campaign.characters.all())
    scene = scene_create(campaign=campaign, title="La línea 5", participants=cast)
    import random
    from dataclasses import replace

    for n, (record, details, label) in enumerate(pool_records(random.Random(2), 12)):
        character = cast[n % len(cast)]
        roll_perform(
            campaign=campaign,
            user=character.owner,
            sides=[RollSide(replace(record, details=details), character, scene, label)],
        )
    for character in cast:
        diary_save(
            scene=scene,
            character=character,
            user=character.owner,
            body="Bajamos al andén cerrado. **Nadie** debería haber estado allí.",
            status="published",
            visibility="group",
        )
    scene_award_xp(
        scene=scene,
        user=gm,
        awards={c.pk: SceneAward(interpretacion=2, ideas=2, diario=1) for c in cast},
    )
    # In the scene, as the GM's damage tool files it.
    character_apply_damage(
        character=sheets[SYSTEM],
        user=gm,
        damage=DamageInput(amount=1, damage_type="B"),
        scene=scene,
    )
    return World(
        name="demo",
        campaign=campaign,
        gm=gm,
        player=player,
        character=sheets[SYSTEM],
        scene=scene,
        other_sheets={k: v for k, v in sheets.items() if k != SYSTEM},
    )


def write(world: World, kind: str, n: int) -> None:
    """One write of play in `world`, through the services, as the table makes them: a
    roll by another character of the scene, a wound on the measured sheet, or XP for it."""
    import random
    from dataclasses import replace

    from bench.data import pool_records
    from campaigns.selectors import active_scene
    from characters.services import xp_adjust
    from mechanics.services.health import character_apply_damage, health_event_undo
    from mechanics.services.rolls import RollSide, roll_perform
    from mechanics.systems.base import DamageInput

    if kind == "roll":
        ((record, details, label),) = pool_records(random.Random(n), 1)
        roller = world.campaign.characters.exclude(pk=world.character.pk).first()
        roll_perform(
            campaign=world.campaign,
            user=roller.owner or world.gm,
            sides=[RollSide(replace(record, details=details), roller, world.scene, label)],
        )
    elif kind == "wound":
        # A bashing wound, and every other time its undoing, so the track never fills; in
        # the open scene the character is in, as the GM's damage tool files it.
        if n % 2:
            health_event_undo(character=world.character, user=world.gm)
        else:
            damage = DamageInput(1, "B")
            scene = active_scene(campaign=world.campaign, character=world.character)
            character_apply_damage(
                character=world.character, user=world.gm, damage=damage, scene=scene
            )
    elif kind == "xp":
        xp_adjust(character=world.character, user=world.gm, amount=1, reason=f"Bench {n}")
    else:
        raise ValueError(kind)


def build_big(sizes=None) -> World:
    from bench.data import build_big_campaign

    big = build_big_campaign(sizes)
    return World(
        name="big",
        campaign=big.campaign,
        gm=big.gm,
        player=big.player,
        character=big.characters[0],
        scene=big.scene,
    )


@dataclass(frozen=True)
class Page:
    """One request to measure. `url` may be a function of a client (to read the current
    version a poll sends), called before the timed request."""

    name: str
    who: str  # "GM" or "player"
    url: object
    method: str = "get"
    data: dict | None = None
    htmx: bool = False
    headers: dict = field(default_factory=dict)


STALE = {"HTTP_X_CRONICA_SINCE": "stale"}
ROLL = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}


def clients(world: World) -> dict[str, object]:
    """A test client signed in as the world's GM and one as its player, by role."""
    from django.test import Client

    signed_in = {}
    for who, user in (("GM", world.gm), ("player", world.player)):
        signed_in[who] = Client()
        signed_in[who].force_login(user)
    return signed_in


def _poll_url(client, url: str, pattern: str) -> str:
    """The URL a poll would send now: read from the partial the page polls."""
    https = {"HTTP_X_FORWARDED_PROTO": "https"}  # and no gzip: the text is searched
    found = re.search(pattern, client.get(url, **HTMX, **https).text)
    return html.unescape(found.group(1))


def pages(world: World) -> list[Page]:
    from django.urls import reverse

    campaign, character = world.campaign.pk, world.character.pk
    roll_url = reverse("mechanics:roll", args=[campaign, character])
    feed_url = reverse("mechanics:feed", args=[campaign])
    health_url = reverse("mechanics:health", args=[campaign, character])
    sheet_url = reverse("characters:sheet", args=[campaign, character])
    listed = [
        Page("sheet (tinieblas)", "player", sheet_url),
        Page("sheet (tinieblas)", "GM", sheet_url),
    ]
    for system, sheet in world.other_sheets.items():
        url = reverse("characters:sheet", args=[sheet.campaign_id, sheet.pk])
        listed.append(Page(f"sheet ({system})", "player", url))
    detail = reverse("campaigns:detail", args=[campaign])
    scene = reverse("campaigns:scene", args=[campaign, world.scene.pk])
    xp_log = reverse("characters:xp_log", args=[campaign])
    roll_log = reverse("mechanics:log", args=[campaign])
    listed += [
        Page("campaign page", "GM", detail),
        Page("campaign page", "player", detail),
        Page("dashboard (my campaigns)", "player", reverse("campaigns:list")),
        Page("scene list", "player", reverse("campaigns:timeline", args=[campaign])),
        Page("scene page", "GM", scene),
        Page("scene page", "player", scene),
        # What an open page asks at each change it hears (live.js): drawn, as after a
        # change (a version the page never showed), not the 204 of a page up to date.
        Page("scene live refresh", "player", scene, htmx=True, headers=STALE),
        Page("sheet live refresh", "player", sheet_url, htmx=True, headers=STALE),
        Page("roll panel (htmx)", "player", roll_url, htmx=True),
        Page("odds partial (htmx)", "player", roll_url, data={**ROLL, "part": "odds"}, htmx=True),
        Page(
            "roll POST (htmx)",
            "player",
            roll_url,
            method="post",
            data=ROLL,
            # From the sheet, where the roll panel lives (its sections may refresh too).
            headers={"HTTP_HX_CURRENT_URL": f"https://testserver{sheet_url}"},
            htmx=True,
        ),
        # The polls send the version their page shows: nothing new (204) but after a write
        # of what they show, which they draw.
        Page(
            "feed poll",
            "player",
            lambda client: _poll_url(
                client, f"{feed_url}?since=stale", r'hx-get="([^"]*/rolls/feed/\?since=[^"]*)"'
            ),
            htmx=True,
        ),
        Page(
            "health poll",
            "player",
            lambda client: _poll_url(client, health_url, r'hx-get="([^"]*/health/\?since=[^"]*)"'),
            htmx=True,
        ),
        Page("XP log + chart", "GM", xp_log),
        Page("XP log + chart", "player", xp_log),
        Page("roll log", "GM", roll_log),
        Page("roll log", "player", roll_log),
    ]
    return listed
