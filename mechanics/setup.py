"""From a roll panel's choices and a character's stored sheet to the engine's roll specs.

The generic half: the sheet as rolls see it (`Sheet`, `load_sheets`), what a roll set-up
produces (`Plan`, `OddsView`, `SideRecord`) and the helpers every system's set-up shares.
Each system's own `RollSetup` lives in `mechanics/systems/<key>/rolls.py` and is the only
place that maps its sheet data to the specs of `mechanics/rules/<key>/rolls.py`; the
system offers it as `system.roll_setup`. Views and forms never build specs.

A set-up has:
- `plan(sheet, data)`: a single character's roll (`data` is a roll form's cleaned data);
- `opposed(sheet_a, data_a, sheet_b, data_b)` and `teamwork(main, data, helpers)`, for the
  kinds it names in `opposed_kinds`.
They raise `RuleError` (engine) or `ValidationError` (sheet state) for a set-up that
cannot be rolled; the views show the message.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from campaigns.fragments import CACHE, fragment_key
from campaigns.selectors import active_scene
from characters.models import (
    Aspect,
    Character,
    Item,
    Resource,
    Specialty,
    Trait,
)
from mechanics.models import Roll
from mechanics.rules.dice import Die, Effects, RandomSource, RollRecord
from mechanics.rules.errors import RuleError
from mechanics.systems.base import TRAIT_ROLES, GameSystem, HealthView, TraitSpec
from mechanics.systems.registry import get_system

# --- The sheet as rolls see it -------------------------------------------------------------


@dataclass
class Sheet:
    """Everything about one character that a roll set-up needs, loaded in a fixed number
    of queries."""

    character: Character
    system: GameSystem
    rules: Mapping
    specs: dict[str, TraitSpec]
    ratings: dict[str, int]
    names: dict[str, str]
    kinds: dict[str, str]
    # Its other rows by part (`_sheet_rows`): pools and the system's extras. A sheet kept
    # in the cache reads each when first used (`cached_sheet`).
    rows: Mapping[str, Any]
    health: HealthView
    scene: object = None

    @property
    def resources(self) -> dict[str, Resource]:
        return self.rows["resources"]

    @property
    def specialties(self) -> list[Specialty]:
        return self.rows["specialties"]

    @property
    def aspects(self) -> list[Aspect]:
        return self.rows["aspects"]

    @property
    def items(self) -> list[Item]:
        return self.rows["items"]

    def rating(self, key: str) -> int:
        return self.ratings.get(key, 0)

    def name(self, key: str) -> str:
        return self.names.get(key, key)

    def pool(self, key: str) -> Resource | None:
        return self.resources.get(key)

    def pool_current(self, key: str) -> int:
        resource = self.resources.get(key)
        return resource.current if resource is not None else 0

    def trait_keys(self, kind: str) -> list[str]:
        return [key for key in self.ratings if self.kinds.get(key) == kind]

    def trait_choices(self, kind: str, *, with_rating: bool = True) -> list:
        """Choices grouped by category: [(category, [(key, "Fuerza (3)"), ...]), ...]."""
        groups: dict[str, list[tuple[str, str]]] = {}
        for key, spec in self.specs.items():
            if spec.kind != kind:
                continue
            label = f"{spec.name} ({self.rating(key)})" if with_rating else spec.name
            groups.setdefault(spec.category, []).append((key, label))
        for key in self.ratings:
            # Custom traits that are not in the campaign's lists (Hitos custom skills).
            if key not in self.specs and self.kinds.get(key) == kind:
                label = f"{self.name(key)} ({self.rating(key)})"
                groups.setdefault(_("Other"), []).append((key, label))
        return list(groups.items())

    @property
    def cannot_act(self) -> bool:
        return self.health.cannot_act or self.health.dead


# Sheet rows a system's rolls may read besides traits and pools (RollSetup.sheet_extras).
SHEET_EXTRAS = {"specialties": Specialty, "aspects": Aspect, "items": Item}
# The parts of a sheet's rows: pools by key, the others as lists.
PARTS = ("traits", "resources", *SHEET_EXTRAS)


def _empty(part: str) -> dict | list:
    return {} if part == "resources" else []


@cache
def _trait_values() -> QuerySet:
    """The traits' query of `_sheet_rows` but its characters, built once (as
    `campaigns.permissions._memberships_with_campaign`; building it was a third of its
    time): a queryset never evaluated, which each call filters (a copy). Each character's
    own order (the model's ordering but for the character, which would join its table to
    sort by name)."""
    return Trait.objects.order_by("kind", "key").values_list(
        "character_id", "key", "kind", "name", "rating"
    )


def _sheet_parts(system: GameSystem) -> tuple[str, ...]:
    """The parts of a sheet's rows that this system reads."""
    extras = system.roll_setup.sheet_extras if system.roll_setup else ()
    return ("traits", "resources", *extras)


def _sheet_rows(
    ids: list[int], system: GameSystem, parts: Iterable[str] | None = None
) -> dict[int, dict]:
    """The rows a sheet is made of, per character and part: traits as (key, kind, name,
    rating), pools by key, and the system's extras. One query per part; `parts`: those
    alone (by default all the system reads)."""
    parts = _sheet_parts(system) if parts is None else tuple(parts)
    rows = {pk: {part: _empty(part) for part in PARTS} for pk in ids}
    if "traits" in parts:
        for character_id, *trait in _trait_values().filter(character_id__in=ids):
            rows[character_id]["traits"].append(tuple(trait))
    if "resources" in parts:
        for resource in Resource.objects.filter(character_id__in=ids).order_by("key"):
            rows[resource.character_id]["resources"][resource.key] = resource
    for extra in parts:
        if extra in SHEET_EXTRAS:
            for row in SHEET_EXTRAS[extra].objects.filter(character_id__in=ids):
                rows[row.character_id][extra].append(row)
    return rows


class _CachedRows(dict):
    """One character's rows by part, as `_sheet_rows` gives them: those in the cache come
    in one `get_many`, and a part that is not is read when first used, and kept."""

    def __init__(self, character: Character, system: GameSystem):
        self.character_id = character.pk
        self.system = system
        key = fragment_key("sheet-rows", character.pk, character.grid_version)
        self.keys = {part: f"{key}:{part}" for part in _sheet_parts(system)}
        found = caches[CACHE].get_many(self.keys.values())
        super().__init__({part: found[key] for part, key in self.keys.items() if key in found})

    def __missing__(self, part: str):
        if part not in self.keys:
            return _empty(part)  # not one the system reads
        value = _sheet_rows([self.character_id], self.system, [part])[self.character_id][part]
        caches[CACHE].set(self.keys[part], value, 3600)
        self[part] = value
        return value


def load_sheets(
    characters: Iterable[Character], campaign, *, with_scene: bool = True, rows=None
) -> dict:
    """Sheets of several characters of one campaign: one query per table, not per character
    (plus one to find each character's open scene). `rows`: their rows by part, read
    already (`_sheet_rows`) or when first used (`_CachedRows`)."""
    characters = list(characters)
    system = get_system(campaign.system)
    specs = {spec.key: spec for spec in system.trait_specs(campaign)}
    rules = campaign.rules
    if rows is None:
        rows = _sheet_rows([c.pk for c in characters], system)
    sheets = {}
    for character in characters:
        character.campaign = campaign
        data = rows[character.pk]
        ratings = {key: rating for key, _kind, _name, rating in data["traits"]}
        names = {
            key: (specs[key].name if key in specs else name or key)
            for key, _kind, name, _rating in data["traits"]
        }
        kinds = {
            key: (specs[key].kind if key in specs else kind)
            for key, kind, _name, _r in data["traits"]
        }
        sheets[character.pk] = Sheet(
            character=character,
            system=system,
            rules=rules,
            specs=specs,
            ratings=ratings,
            names=names,
            kinds=kinds,
            rows=data,
            health=system.health_view(character.health, ratings, character.details, rules),
            scene=active_scene(campaign=campaign, character=character) if with_scene else None,
        )
    return sheets


def load_sheet(character: Character, campaign, *, with_scene: bool = True) -> Sheet:
    return load_sheets([character], campaign, with_scene=with_scene)[character.pk]


def cached_sheet(character: Character, campaign) -> Sheet:
    """`load_sheet(with_scene=False)` whose rows are kept in the cache under the
    character's grid version, which every write to them bumps but a wound or an award
    (`campaigns.versions.APART`): those live in the character's own row, read anew with
    every request, so the roll panel that a wound reloads reads no row again. Each part
    is kept apart, and read when first used (`_CachedRows`): the odds of a roll without a
    specialty read none. The rows are those of the version the request read (a roll's
    service locks and checks what it spends)."""
    rows = _CachedRows(character, get_system(campaign.system))
    return load_sheets([character], campaign, with_scene=False, rows={character.pk: rows})[
        character.pk
    ]


# --- What a plan is -------------------------------------------------------------------------


@dataclass(frozen=True)
class OddsRow:
    key: str  # success / exceptional / dramatic_failure / progress / win / tie / lose ...
    label: str
    p: float

    @property
    def percent(self) -> float:
        return self.p * 100


@dataclass(frozen=True)
class OddsView:
    """The exact odds of a set-up, with what goes into it, ready to show."""

    rows: tuple[OddsRow, ...]
    summary: str
    steps: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()

    def p(self, key: str) -> float | None:
        return next((row.p for row in self.rows if row.key == key), None)


@dataclass(frozen=True)
class SideRecord:
    """One character's part of a roll, ready to store."""

    sheet: Sheet | None
    record: RollRecord


@dataclass(frozen=True)
class Plan:
    """A roll ready to throw: `roll(rng)` calls the engine (rng None = the cryptographic
    source) and returns one record per character involved."""

    kind: str
    odds: OddsView
    roll: Callable[[RandomSource | None], list[SideRecord]]
    group: uuid.UUID | None = None
    label: str = ""
    # {"target": Character}: an attack aimed at a character, which the roll panel stores
    # with the fight of its scene (`CombatRules.attack_from_roll`).
    extra: dict = field(default_factory=dict)


def trait_names(sheet: Sheet, data: Mapping) -> dict[str, str]:
    """The names of the traits a set-up uses, by role ("attribute": "Fuerza")."""
    return {role: sheet.name(data[role]) for role in TRAIT_ROLES if data.get(role)}


def named(record: RollRecord, names: Mapping[str, str]) -> RollRecord:
    """The record with the trait names it used, so the log can say what was rolled."""
    if not names:
        return record
    return replace(record, details={**record.details, "traits": dict(names)})


def single(sheet: Sheet, roll: Callable[[RandomSource | None], RollRecord], data: Mapping):
    names = trait_names(sheet, data)
    return lambda rng=None: [SideRecord(sheet, named(roll(rng), names))]


def named_sides(sides: list[SideRecord], data_by_character: Mapping) -> list[SideRecord]:
    return [
        SideRecord(
            side.sheet,
            named(side.record, trait_names(side.sheet, data_by_character[side.sheet.character.pk])),
        )
        for side in sides
    ]


def check_can_act(sheet: Sheet) -> None:
    if sheet.cannot_act:
        raise ValidationError(
            _("%(name)s cannot act in this state.") % {"name": sheet.character.name},
            code="cannot_act",
        )


def compare(a: Mapping[int, float], b: Mapping[int, float]) -> tuple[float, float, float]:
    """P(A > B), P(A = B), P(A < B) for two independent distributions."""
    b_items = sorted(b.items())
    greater = equal = 0.0
    for x, px in a.items():
        for y, py in b_items:
            if y < x:
                greater += px * py
            elif y == x:
                equal += px * py
            else:
                break
    return greater, equal, max(0.0, 1.0 - greater - equal)


def opposed_rows(p_a: float, p_tie: float, p_b: float, name_a: str, name_b: str):
    return (
        OddsRow("win", _("%(name)s wins") % {"name": name_a}, p_a),
        OddsRow("tie", _("Tie"), p_tie),
        OddsRow("lose", _("%(name)s wins") % {"name": name_b}, p_b),
    )


def side_record(
    record: RollRecord,
    *,
    kind: str,
    outcome: str,
    result: int,
    dice: tuple[Die, ...],
    kept: tuple[int, ...],
    spec: dict,
    effects: Effects,
    details: dict,
    flags: tuple[str, ...] = (),
) -> RollRecord:
    return RollRecord(
        system=record.system,
        kind=kind,
        spec=spec,
        dice=dice,
        kept=kept,
        result=result,
        outcome=outcome,
        flags=flags,
        effects=effects,
        details=details,
    )


def effects_from(data: Mapping) -> Effects:
    values = dict(data)
    values["aspects_exhausted"] = tuple(values.get("aspects_exhausted", ()))
    return Effects(**values)


def won(outcome_for_a: str, side: str) -> str:
    """ "won" / "lost" / "tie" from one side's point of view."""
    if outcome_for_a == "tie":
        return "tie"
    return "won" if (outcome_for_a == "a") == (side == "a") else "lost"


def opponent(sheet: Sheet, result: int) -> dict:
    return {"character": sheet.character.pk, "name": sheet.character.name, "result": result}


# --- What a system's set-up offers ----------------------------------------------------------


class RollSetup:
    """One system's rolls: each system's `rolls.py` subclasses it (`system.roll_setup`)."""

    # The GM's two-sided rolls this system has ("opposed", "teamwork"); () = none.
    opposed_kinds: tuple[str, ...] = ()
    # Sheet rows a roll reads besides traits and pools (keys of SHEET_EXTRAS).
    sheet_extras: tuple[str, ...] = ()
    # The roll panel reads rows beyond the character's own and the campaign's (other
    # characters' aspects, the fight): its cache key then follows the campaign's changes
    # but its new rolls (`Campaign.nonroll_seq`, campaigns.versions). It reads no rolls
    # but those it reads back, which bump the character (READ_BACK there).
    panel_follows_campaign: bool = False
    # The panel's form or the plan reads the roll's scene (`Sheet.scene`): the odds of a
    # set-up then read the open scenes and check the one chosen, as the panel and the roll
    # do; else they leave them.
    reads_scene: bool = False

    def open_actions(self, character: Character) -> dict[str, Roll]:
        """Rolls in progress that the next roll may go on with, by group; {} = none."""
        return {}

    def plan(self, sheet: Sheet, data: Mapping, *, open_actions=None) -> Plan:
        raise NotImplementedError

    def kept_after_roll(self, stored: Roll, kept) -> None:
        """Change the choices the panel keeps after `stored` (a QueryDict) for the next
        roll; by default they stay as they were sent."""

    def opposed(self, a: Sheet, data_a: Mapping, b: Sheet, data_b: Mapping) -> Plan:
        raise NotImplementedError

    def teamwork(self, main: Sheet, data: Mapping, helpers: list[tuple[Sheet, Mapping]]) -> Plan:
        raise NotImplementedError


__all__ = [
    "OddsRow",
    "OddsView",
    "Plan",
    "RollSetup",
    "RuleError",
    "Sheet",
    "SideRecord",
    "cached_sheet",
    "load_sheet",
    "load_sheets",
]
