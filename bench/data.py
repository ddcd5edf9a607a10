"""A big campaign for benchmarks and query-count tests, built in the current database.

`build_big_campaign()` makes a Mundo de Tinieblas campaign the size of a long chronicle
(by default 20 characters, 500 scenes with 2,950 diaries, 100,000 rolls, 20,000 XP
entries and 5,000 health events). The sheets, and a few rows of every other kind, go
through the real services; the rest are bulk inserts of rows shaped like the services'
output (records from the rules engine, ledger balances that add up, health states that
chain), with timestamps spread over two years of weekly sessions. `Sizes.mid()` is a
campaign small enough for a test (1,000 rolls).

Run on its own to fill a database for EXPLAIN or manual profiling:

    DATABASE_URL=postgres://... .venv/bin/python bench/data.py [--rolls 100000]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import uuid
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from pathlib import Path

PASSWORD = "bench-password"
FIRST_NAMES = [
    "Lucía",
    "Marta",
    "Pablo",
    "Jorge",
    "Nuria",
    "Iker",
    "Sara",
    "Hugo",
    "Carmen",
    "Diego",
    "Alba",
    "Rubén",
    "Irene",
    "Óscar",
    "Laia",
    "Mario",
    "Julia",
    "Adrián",
    "Noelia",
    "Raúl",
]
SURNAMES = [
    "Aranda",
    "Beltrán",
    "Cano",
    "Duarte",
    "Esteve",
    "Ferrer",
    "Garrido",
    "Herrera",
    "Iglesias",
    "Jiménez",
    "Lozano",
    "Molina",
    "Navarro",
    "Ortega",
    "Prieto",
    "Quintana",
    "Romero",
    "Salas",
    "Toledo",
    "Urrutia",
]
PLACES = ("Lavapiés", "la línea 5", "el Retiro", "Chamberí", "un sótano de Malasaña")
DIARY = (
    "Llegamos a **{place}** cuando ya era de noche. {name} insistió en bajar primero; "
    "nadie quiso discutir.\n\nLo que encontramos allí no tiene explicación:\n\n"
    "- una puerta tapiada con ladrillo nuevo;\n- huellas que no eran de zapato;\n"
    "- un olor dulce, como de flores podridas.\n\n"
    "_Mañana volveremos con luz._ O eso nos decimos."
)


@dataclass(frozen=True)
class Sizes:
    characters: int = 20
    scenes: int = 500
    diaries: int = 2_950
    rolls: int = 100_000
    xp_entries: int = 20_000
    health_events: int = 5_000

    @classmethod
    def mid(cls) -> Sizes:
        """A campaign for tests: 1,000 rolls, and the rest in proportion."""
        return cls(
            characters=6, scenes=20, diaries=60, rolls=1_000, xp_entries=200, health_events=60
        )


@dataclass
class BigCampaign:
    campaign: object
    gm: object
    players: list
    characters: list
    scenes: list
    sizes: Sizes

    @property
    def player(self):
        """The owner of the first character: the player the benchmarks log in as."""
        return self.characters[0].owner

    @property
    def scene(self):
        """The scene with the most rolls (the scene page's worst case)."""
        from django.db.models import Count

        from mechanics.models import Roll

        busiest = (
            Roll.objects.filter(campaign=self.campaign, scene__isnull=False)
            .values("scene")
            .annotate(n=Count("pk"))
            .order_by("-n")
            .first()
        )
        return next(s for s in self.scenes if s.pk == busiest["scene"])


@contextlib.contextmanager
def _given_timestamps(*models):
    """Let bulk_create keep the created_at/updated_at we set instead of 'now'."""
    patched = []
    for model in models:
        for field in model._meta.concrete_fields:
            if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                patched.append((field, field.auto_now, field.auto_now_add))
                field.auto_now = field.auto_now_add = False
    try:
        yield
    finally:
        for field, auto_now, auto_now_add in patched:
            field.auto_now, field.auto_now_add = auto_now, auto_now_add


def _insert(model, rows: list, batch_size: int) -> list:
    """Bulk-insert `rows`, committing each batch (a savepoint inside a caller's
    transaction, as in tests). Each row bumps its campaign's row (campaigns/versions.py),
    and on PostgreSQL each bump walks the versions of that row the earlier bumps of the
    same transaction left: 100,000 rows in one transaction took over 18 minutes."""
    from django.db import transaction

    for start in range(0, len(rows), batch_size):
        with transaction.atomic():
            model.objects.bulk_create(rows[start : start + batch_size])
    return rows


def _spread(total: int, buckets: int, rng: random.Random) -> list[int]:
    """`total` split over `buckets`, unevenly (some scenes are busier), summing exactly."""
    weights = [rng.uniform(0.3, 1.7) for _ in range(buckets)]
    scale = total / sum(weights)
    counts = [int(w * scale) for w in weights]
    for n in range(total - sum(counts)):
        counts[n % buckets] += 1
    return counts


def _people(sizes: Sizes, campaign_name: str, password: str | None):
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    from campaigns.models import Membership, Role
    from campaigns.services import campaign_create
    from mechanics.rules.tinieblas.rolls import SYSTEM

    tag = uuid.uuid4().hex[:6]
    # Hashed once: a password hash per user would cost more than the whole build.
    hashed = make_password(password)

    def user(name: str) -> User:
        return User.objects.create(username=f"{name}-{tag}", password=hashed)

    gm = user("gm")
    campaign = campaign_create(
        user=gm,
        name=campaign_name,
        description="Una crónica larga para medir.",
        system=SYSTEM,
        house_rules={},
        options={"max_characters_per_player": 4},
    )
    player_count = max(1, min(8, sizes.characters - sizes.characters // 3))
    players = [user(f"player{n}") for n in range(player_count)]
    Membership.objects.bulk_create(
        [Membership(campaign=campaign, user=p, role=Role.PLAYER) for p in players]
        + [
            Membership(
                campaign=campaign,
                user=user("observer"),
                role=Role.OBSERVER,
            )
        ]
    )
    return campaign, gm, players


def _characters(campaign, gm, players, count: int, rng: random.Random):
    """Player characters (one per player) and NPCs, through the service, from the demo
    sheets of Mundo de Tinieblas with names of their own."""
    from characters.services import character_create
    from mechanics.systems.tinieblas.demo import DEMO_CHARACTERS

    templates = DEMO_CHARACTERS
    characters = []
    for n in range(count):
        sheet = templates[n % len(templates)]
        owner = players[n] if n < len(players) else None
        characters.append(
            character_create(
                campaign=campaign,
                user=owner or gm,
                owner=owner,
                is_npc=owner is None,
                name=f"{FIRST_NAMES[n % 20]} {SURNAMES[(n * 7) % 20]}",
                concept=sheet["concept"],
                description=sheet["description"],
                ratings=sheet["ratings"],
                details=sheet["details"],
                specialties=sheet["specialties"],
                merits=sheet["merits"],
            )
        )
    return characters


def _scenes(campaign, characters, sizes: Sizes, start: datetime, rng: random.Random):
    """Weekly sessions of five scenes; all closed but the last. Returns the scenes and the
    time window of each one (rolls, diaries and awards fall inside)."""
    from campaigns.models import Scene
    from campaigns.services import story_create

    stories = [
        story_create(campaign=campaign, title=f"Historia {n + 1}", summary="Un arco.")
        for n in range(max(1, sizes.scenes // 50))
    ]
    pcs = [c for c in characters if c.owner_id]
    npcs = [c for c in characters if not c.owner_id]
    rows, windows, casts = [], [], []
    for n in range(sizes.scenes):
        session = n // 5
        begins = start + timedelta(weeks=session, hours=(n % 5) * 1)
        last = n == sizes.scenes - 1
        rows.append(
            Scene(
                campaign=campaign,
                story=stories[min(n // 50, len(stories) - 1)],
                title=f"Escena {n + 1}: {rng.choice(PLACES)}",
                date=begins.date(),
                session_number=session + 1,
                place=rng.choice(PLACES),
                summary="Lo que pasó, en dos líneas.\n\nY una tercera.",
                status=Scene.Status.OPEN if last else Scene.Status.CLOSED,
                closed_at=None if last else begins + timedelta(hours=1),
                created_at=begins,
            )
        )
        windows.append((begins, begins + timedelta(minutes=55)))
        cast = rng.sample(pcs, k=min(len(pcs), rng.randint(6, 8))) if pcs else []
        cast += rng.sample(npcs, k=min(len(npcs), rng.randint(1, 2)))
        casts.append(cast)
    with _given_timestamps(Scene):
        scenes = _insert(Scene, rows, 500)
    through = Scene.participants.through
    _insert(
        through,
        [
            through(scene_id=scene.pk, character_id=c.pk)
            for scene, cast in zip(scenes, casts, strict=True)
            for c in cast
        ],
        2000,
    )
    return scenes, windows, casts


def _diaries(scenes, windows, casts, total: int, rng: random.Random):
    from characters.models import DiaryEntry
    from characters.services import diary_save

    slots = [
        (scene, window, c)
        for scene, window, cast in zip(scenes, windows, casts, strict=True)
        for c in cast
        if c.owner_id
    ]
    # The newest scene's first diary goes through the service (after the bulk insert, so
    # ids grow with time as on a real site); the others are bulk inserts shaped like it.
    real = next(slot for slot in slots if slot[0] is scenes[-1])
    slots.remove(real)
    rng.shuffle(slots)
    rows = []
    for scene, (_begins, ends), character in slots[: total - 1]:
        published = rng.random() < 0.9
        at = ends + timedelta(days=rng.randint(0, 5), minutes=rng.randint(0, 600))
        rows.append(
            DiaryEntry(
                scene=scene,
                character=character,
                author_id=character.owner_id,
                body=DIARY.format(place=scene.place, name=character.name),
                status=DiaryEntry.Status.PUBLISHED if published else DiaryEntry.Status.DRAFT,
                visibility=DiaryEntry.Visibility.GM_ONLY
                if rng.random() < 0.15
                else DiaryEntry.Visibility.GROUP,
                created_at=at,
                updated_at=at,
                published_at=at if published else None,
            )
        )
    rows.sort(key=lambda row: row.created_at)
    with _given_timestamps(DiaryEntry):
        _insert(DiaryEntry, rows, 1000)
    scene, _window, character = real
    diary_save(
        scene=scene,
        character=character,
        user=character.owner,
        body=DIARY.format(place=scene.place, name=character.name),
        status=DiaryEntry.Status.PUBLISHED,
        visibility=DiaryEntry.Visibility.GROUP,
    )


def pool_records(rng: random.Random, count: int = 600):
    """Engine records of pool rolls with the trait names the roll panel stores."""
    from mechanics.rules.tinieblas import catalogue
    from mechanics.rules.tinieblas.rolls import PoolSpec, roll_pool

    attributes = catalogue.ATTRIBUTES
    skills = catalogue.SKILLS
    records = []
    for _ in range(count):
        attribute = rng.choice(attributes)
        skill = rng.choice(skills)
        spec = PoolSpec(
            attribute=rng.randint(1, 4),
            skill=rng.randint(0, 4),
            skill_category=skill.category,
            modifiers=tuple(m for m in (rng.choice((0, 0, 0, -1, -2, 2)),) if m),
            again=rng.choice((10, 10, 10, 9, 8)),
        )
        record = roll_pool(spec, rng)
        details = {
            **record.details,
            "traits": {"attribute": attribute.name, "skill": skill.name},
        }
        records.append((record, details, f"{attribute.name} + {skill.name}"))
    return records


def _rolls(campaign, gm, scenes, windows, casts, total: int, rng: random.Random):
    """Rolls spread over the scenes (5 % outside any scene, 3 % GM secret rolls, 2 % steps
    of extended actions). The newest few go through the real service."""
    from dataclasses import replace

    from mechanics.models import Roll
    from mechanics.rules.tinieblas.rolls import PoolSpec, roll_extended
    from mechanics.services.rolls import RollSide, roll_perform

    records = pool_records(rng)
    real = min(5, total)
    bulk = total - real
    outside = bulk // 20
    per_scene = _spread(bulk - outside, len(scenes), rng)
    rows = []

    def row(character, scene, at, record, details, label, *, secret=False, group=None):
        data = record.to_dict()
        data["details"] = details
        rows.append(
            Roll(
                campaign=campaign,
                character=character,
                scene=scene,
                user_id=(character.owner_id if character and character.owner_id else gm.pk),
                group=group,
                system=record.system,
                kind=record.kind,
                label=label,
                record=data,
                result=record.result,
                outcome=record.outcome,
                secret=secret,
                created_at=at,
            )
        )

    for scene, (begins, ends), cast, count in zip(scenes, windows, casts, per_scene, strict=True):
        span = (ends - begins).total_seconds()
        made = 0
        while made < count:
            at = begins + timedelta(seconds=span * made / max(count, 1) + rng.random())
            character = rng.choice(cast) if cast else None
            if rng.random() < 0.02 and character is not None and count - made >= 4:
                # An extended action: a few steps sharing a group; the last one may stay open.
                group, progress, steps = uuid.uuid4(), 0, rng.randint(2, 4)
                spec = PoolSpec(attribute=3, skill=2, skill_category="mental")
                for step in range(steps):
                    record = roll_extended(
                        spec, target=12, progress=progress, rolls_made=step, max_rolls=6, rng=rng
                    )
                    progress = record.details["progress"]
                    row(
                        character,
                        scene,
                        at + timedelta(seconds=step),
                        record,
                        record.details,
                        "Investigar el archivo",
                        group=group,
                    )
                    made += 1
                    if record.details["done"]:
                        break
                continue
            record, details, label = rng.choice(records)
            secret = rng.random() < 0.03
            row(
                None if secret and rng.random() < 0.5 else character,
                scene,
                at,
                record,
                details,
                label,
                secret=secret,
            )
            made += 1
    for n in range(outside):
        record, details, label = rng.choice(records)
        at = windows[n % len(windows)][1] + timedelta(hours=2, seconds=n)
        row(rng.choice(casts[n % len(casts)]), None, at, record, details, label)
    rows.sort(key=lambda row: row.created_at)
    with _given_timestamps(Roll):
        _insert(Roll, rows, 2000)
    # The newest few through the service: what the bulk rows imitate, ids after theirs.
    for n in range(real):
        record, details, label = records[n]
        character = casts[-1][n % len(casts[-1])]
        roll_perform(
            campaign=campaign,
            user=character.owner or gm,
            sides=[
                RollSide(
                    record=replace(record, details=details),
                    character=character,
                    scene=scenes[-1],
                    label=label,
                )
            ],
        )


def _xp(campaign, gm, characters, scenes, windows, casts, total: int, rng: random.Random):
    """The XP ledger: per-scene awards with the rubric, GM bonuses and spends, with the
    balance each entry leaves. The newest (a bonus, a spend, the last scene's awards)
    through the services."""
    from characters.advancement import PurchaseSpec
    from characters.models import Character, XpEntry
    from characters.services import scene_award_xp, xp_adjust, xp_spend
    from mechanics.rules.tinieblas.advancement import SceneAward, award_total

    first_pc = next(c for c in characters if c.owner_id)
    last_cast = [c for c in casts[-1] if c.owner_id]
    real = 2 + len(last_cast)  # made through the services at the end
    pcs = [c for c in characters if c.owner_id] or characters
    events = []  # (at, character, kind, amount, scene, reason, breakdown)
    for scene, (_begins, ends), cast in zip(scenes[:-1], windows, casts, strict=False):
        for c in cast:
            if len(events) >= total - real:
                break
            award = SceneAward(
                interpretacion=rng.randint(1, 4),
                ideas=rng.randint(1, 4),
                diario=rng.randint(0, 2),
                constancia=rng.randint(0, 1),
            )
            amount = award_total(award)
            breakdown = {"scene": scene.title, "total": amount, "rubric": award.to_dict()}
            events.append((ends, c, "award", amount, scene, "", breakdown))
    skills = ("sigilo", "pelea", "investigacion", "ocultismo", "persuasion", "callejeo")
    while len(events) < total - real:
        n = len(events)
        at = windows[n % len(windows)][1] + timedelta(days=1, seconds=n)
        c = rng.choice(pcs)
        if n % 3:
            key = rng.choice(skills)
            current = rng.randint(1, 4)
            purchase = {
                "kind": "skill",
                "key": key,
                "name": key.capitalize(),
                "current": current,
                "target": current + 1,
            }
            label = f"{key.capitalize()} {current} → {current + 1}"
            events.append((at, c, "spend", -3 * (current + 1), None, label, {"purchase": purchase}))
        else:
            events.append((at, c, "award", rng.randint(1, 3), None, "Bonificación", {}))
    events.sort(key=lambda e: e[0])
    balance = {c.pk: c.xp_balance for c in Character.objects.filter(campaign=campaign)}
    rows = []
    for at, c, kind, amount, scene, reason, breakdown in events:
        if amount < 0 and balance[c.pk] + amount < 0:
            kind, amount, reason, breakdown = "award", 2, "Bonificación", {}
        balance[c.pk] += amount
        rows.append(
            XpEntry(
                character=c,
                campaign=campaign,
                scene=scene,
                kind=kind,
                amount=amount,
                balance_after=balance[c.pk],
                reason=reason,
                breakdown=breakdown,
                created_by=gm if kind == "award" else c.owner,
                created_at=at,
            )
        )
    with _given_timestamps(XpEntry):
        _insert(XpEntry, rows, 2000)
    for pk, value in balance.items():
        Character.objects.filter(pk=pk).update(xp_balance=value)
    # The newest entries through the services: a bonus, a spend, the last scene's awards.
    first_pc.refresh_from_db()
    xp_adjust(character=first_pc, user=gm, amount=30, reason="Experiencia inicial")
    xp_spend(character=first_pc, user=first_pc.owner, purchase=PurchaseSpec("skill", "sigilo"))
    scene_award_xp(
        scene=scenes[-1],
        user=gm,
        awards={c.pk: SceneAward(interpretacion=2, ideas=2, diario=1) for c in last_cast},
    )


HEALTH_PLAN = (
    ("damage", {"amount": 2, "damage_type": "B"}),
    ("damage", {"amount": 1, "damage_type": "L"}),
    ("time", 24),
    ("damage", {"amount": 2, "damage_type": "L"}),
    ("time", 24 * 60),
)


def _health_cycle(character) -> list[dict]:
    """The events HEALTH_PLAN makes on an unhurt character, worked out by its system's
    adapter exactly as the health services do. It ends unhurt, so copies chain."""
    from dataclasses import asdict

    from characters.services import ratings_of
    from mechanics.systems.base import DamageInput
    from mechanics.systems.registry import get_system

    campaign = character.campaign
    system, ratings = get_system(campaign.system), ratings_of(character)
    health, cycle = character.health, []
    for kind, value in HEALTH_PLAN:
        if kind == "damage":
            damage = DamageInput(**value)
            change = system.apply_damage(health, ratings, character.details, campaign.rules, damage)
            inputs = asdict(damage)
        else:
            change = system.advance_time(health, ratings, character.details, campaign.rules, value)
            inputs = {"hours": value, "rested": True}
        cycle.append(
            {
                "kind": kind,
                "inputs": inputs,
                "summary": change.summary,
                "health_before": health,
                "health_after": change.health,
            }
        )
        health = change.health
    assert health == character.health, "the cycle must end where it started"
    return cycle


def _health(characters, gm, scenes, windows, total: int):
    """Health events: each character goes through HEALTH_PLAN again and again, its steps
    spread over the campaign's scenes in time order. The newest cycle of the first
    characters goes through the real services, and must come out the same."""
    from characters.models import Character
    from mechanics.models import HealthEvent
    from mechanics.services.health import character_advance_time, character_apply_damage
    from mechanics.systems.base import DamageInput

    cycles = {c.pk: _health_cycle(c) for c in characters}
    length = len(HEALTH_PLAN)
    real = characters[: min(2, total // length)]
    bulk = total - length * len(real)
    counts = _spread(bulk // length, len(characters), random.Random(len(characters)))
    counts = [n * length for n in counts]
    counts[-1] += bulk - sum(counts)
    rows = []
    for character, count in zip(characters, counts, strict=True):
        cycle = cycles[character.pk]
        for step in range(count):
            model = cycle[step % length]
            scene_index = step * len(scenes) // max(count, 1)
            rows.append(
                HealthEvent(
                    character=character,
                    campaign_id=character.campaign_id,
                    scene=scenes[scene_index] if model["kind"] == "damage" else None,
                    created_by=gm,
                    created_at=windows[scene_index][0] + timedelta(seconds=step),
                    **model,
                )
            )
    rows.sort(key=lambda row: row.created_at)
    with _given_timestamps(HealthEvent):
        _insert(HealthEvent, rows, 1000)
    # Each character's stored health is where its newest event left it.
    for character, count in zip(characters, counts, strict=True):
        if count % length:
            after = cycles[character.pk][count % length - 1]["health_after"]
            Character.objects.filter(pk=character.pk).update(health=after)
    for character in real:
        for (kind, value), model in zip(HEALTH_PLAN, cycles[character.pk], strict=True):
            if kind == "damage":
                event = character_apply_damage(
                    character=character, user=gm, damage=DamageInput(**value)
                )
            else:
                event = character_advance_time(character=character, user=gm, hours=value)
            shaped = {key: getattr(event, key) for key in model}
            assert shaped == model, f"bulk rows differ from the service's: {shaped} {model}"


def start_django(folder: Path, name: str) -> None:
    """Start Django on the database DATABASE_URL names, or else on the throw-away SQLite
    file `name` in `folder`, and migrate it (the data benchmarks: explain, delete)."""
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder / name}")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "x" * 40)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def results_heading(script: str, *about: str) -> list[str]:
    """The first lines of a data benchmark's figures: the script, the database, when, what
    else `about` says, and how loaded the machine was (the figures may come from a shared
    one), then a blank line."""
    from django.db import connection

    load = " ".join(f"{n:.1f}" for n in os.getloadavg())
    return [
        f"{script} on {connection.vendor}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        *about,
        f"load average when it started: {load}",
        "",
    ]


def write_results(lines: list[str], name: str) -> None:
    """A data benchmark's figures, to bench/results/<date>-<name>-<database>.txt."""
    from django.db import connection

    root = Path(__file__).resolve().parents[1]
    results = root / "bench" / "results"
    results.mkdir(exist_ok=True)
    path = results / f"{datetime.now(UTC):%Y-%m-%d}-{name}-{connection.vendor}.txt"
    path.write_text("\n".join(lines) + "\n")
    print(f"written to {path.relative_to(root)}")


def build_big_campaign(
    sizes: Sizes | None = None,
    *,
    name: str = "Crónica grande",
    seed: int = 1,
    password: str | None = None,
) -> BigCampaign:
    """Build the campaign in the current database and return who and what is in it.

    Users get `password` (None: no usable password; tests and benchmarks log in with
    force_login). Built in many transactions (`_insert`): one that fails leaves a
    partial campaign behind, in a database made for the benchmark."""
    sizes = sizes or Sizes()
    rng = random.Random(seed)
    start = datetime(2024, 9, 6, 20, 0, tzinfo=UTC)
    campaign, gm, players = _people(sizes, name, password)
    characters = _characters(campaign, gm, players, sizes.characters, rng)
    scenes, windows, casts = _scenes(campaign, characters, sizes, start, rng)
    _diaries(scenes, windows, casts, sizes.diaries, rng)
    _rolls(campaign, gm, scenes, windows, casts, sizes.rolls, rng)
    _xp(campaign, gm, characters, scenes, windows, casts, sizes.xp_entries, rng)
    _health(characters, gm, scenes, windows, sizes.health_events)
    for character in characters:
        character.refresh_from_db()
    return BigCampaign(campaign, gm, players, characters, scenes, sizes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for field in fields(Sizes):
        parser.add_argument(f"--{field.name.replace('_', '-')}", type=int, default=field.default)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    sizes = Sizes(**{f.name: getattr(args, f.name) for f in fields(Sizes)})
    big = build_big_campaign(sizes, password=PASSWORD)
    print(f"campaign {big.campaign.pk} ({big.campaign.name}): GM {big.gm.username}, ")
    print(f"player {big.player.username}, password {PASSWORD}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
