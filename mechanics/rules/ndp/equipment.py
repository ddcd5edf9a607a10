"""Equipment, load, Prana and faith for 3d6 + NdP.

Weights are kilograms (floats allowed: 0.5 kg items exist). Integrity is the current
value; the seed says nothing of what a weapon at 0 integrity does, so `broken` is only
reported. An armour piece at 0 integrity keeps an RD of at most 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.ndp.catalogue import (
    LEGS,
    MAX_LEVEL,
    SKILLS_BY_KEY,
    body_part,
    check_damage_type,
    shield_bonus,
)
from mechanics.rules.ndp.rolls import DamageSpec, _check_int, effective_rd

LOAD_BASE_KG = 20
LOAD_PER_FORTITUD_KG = 5
LOAD_DESGRACIA_STEP_KG = 5
PRANA_BASE = 8
PRANA_PER_VITALIDAD = 2
PRANA_REGEN_PER_HOUR = 1
WEAPON_SKILLS = ("combate_c_a_c", "combate_a_dist", "pelea")


def _check_weight(weight_kg: object) -> None:
    if isinstance(weight_kg, bool) or not isinstance(weight_kg, int | float):
        raise RuleError(gettext_noop("weight must be a number of kilograms"))
    if not 0 <= weight_kg < 100_000:  # also refuses NaN
        raise RuleError(gettext_noop("weight must be between 0 and 100000 kg"))


@dataclass(frozen=True)
class Item:
    name: str
    weight_kg: float = 0.0

    def __post_init__(self) -> None:
        _check_weight(self.weight_kg)

    def to_dict(self) -> dict:
        return {"name": self.name, "weight_kg": self.weight_kg}

    @classmethod
    def from_dict(cls, data: dict) -> Item:
        return cls(name=data["name"], weight_kg=data.get("weight_kg", 0.0))


@dataclass(frozen=True)
class ArmourPiece:
    """An armour piece on one body part, e.g. Casco acolchado con anillas (RD 4)."""

    name: str
    part: str
    rd: int
    integrity: int
    weight_kg: float = 0.0

    def __post_init__(self) -> None:
        body_part(self.part)
        _check_int("RD", self.rd, 0, 100)
        _check_int(gettext_noop("integrity"), self.integrity, 0, 1_000)
        _check_weight(self.weight_kg)

    @property
    def current_rd(self) -> int:
        """Listed RD, at most 1 once integrity reaches 0."""
        return min(self.rd, 1) if self.integrity == 0 else self.rd

    def rd_against(self, damage_type: str) -> int:
        return effective_rd(self.rd, damage_type, self.integrity)

    def worn(self, loss: int = 1) -> ArmourPiece:
        return replace(self, integrity=max(0, self.integrity - loss))

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "part": self.part,
            "rd": self.rd,
            "integrity": self.integrity,
            "weight_kg": self.weight_kg,
        }

    @classmethod
    def from_dict(cls, data: dict) -> ArmourPiece:
        return cls(**data)


@dataclass(frozen=True)
class Weapon:
    """A weapon: `count` d`sides` + `fixed` damage of one type, e.g. Espada larga 1d8."""

    name: str
    sides: int
    damage_type: str
    integrity: int
    count: int = 1
    fixed: int = 0
    skill: str = "combate_c_a_c"
    weight_kg: float = 0.0

    def __post_init__(self) -> None:
        check_damage_type(self.damage_type)
        _check_int(gettext_noop("integrity"), self.integrity, 0, 1_000)
        _check_weight(self.weight_kg)
        if self.skill not in WEAPON_SKILLS:
            raise RuleError(gettext_noop("unknown weapon skill %(key)s"), key=self.skill)
        self.damage_spec()  # validates the damage dice

    @property
    def broken(self) -> bool:
        return self.integrity == 0

    @property
    def damage_caption(self) -> str:
        dice = f"{self.count}d{self.sides}" if self.sides else ""
        if self.fixed:
            return f"{dice}+{self.fixed}" if dice else str(self.fixed)
        return dice

    def damage_spec(self, armour: ArmourPiece | None = None) -> DamageSpec:
        """The damage of a hit on a part covered by `armour` (or none)."""
        return DamageSpec(
            sides=self.sides,
            damage_type=self.damage_type,
            rd=armour.rd if armour else 0,
            count=self.count,
            fixed=self.fixed,
            pelea=self.skill == "pelea",
            armour_integrity=armour.integrity if armour else None,
        )

    def worn(self, loss: int = 1) -> Weapon:
        return replace(self, integrity=max(0, self.integrity - loss))

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "sides": self.sides,
            "damage_type": self.damage_type,
            "integrity": self.integrity,
            "count": self.count,
            "fixed": self.fixed,
            "skill": self.skill,
            "weight_kg": self.weight_kg,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Weapon:
        return cls(**data)


@dataclass(frozen=True)
class Shield:
    """A shield: GdC = body parts it covers; adds NdP to Interceptar."""

    name: str
    gdc: int
    integrity: int
    weight_kg: float = 0.0

    def __post_init__(self) -> None:
        _check_int("GdC", self.gdc, 1, 10)
        _check_int(gettext_noop("integrity"), self.integrity, 0, 1_000)
        _check_weight(self.weight_kg)

    @property
    def interceptar_bonus(self) -> int:
        return shield_bonus(self.gdc)

    def worn(self, loss: int = 1) -> Shield:
        return replace(self, integrity=max(0, self.integrity - loss))

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "gdc": self.gdc,
            "integrity": self.integrity,
            "weight_kg": self.weight_kg,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Shield:
        return cls(**data)


def total_weight(items: Iterable[Item | ArmourPiece | Weapon | Shield]) -> float:
    return sum(item.weight_kg for item in items)


# --- Load ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadState:
    """What carrying `weight_kg` does to a character with this Fortitud.

    Over the maximum: half speed and one Desgracia on athletic skills per full 5 kg
    over. At twice the maximum or more: cannot move, and each turn one grave wound on
    each leg (`health.overload_turn`).
    """

    weight_kg: float
    max_kg: int
    over_kg: float
    overloaded: bool
    immobile: bool
    speed_factor: float  # 1, 0.5 or 0
    athletic_desgracias: int
    leg_wounds_per_turn: tuple[str, ...]  # legs taking a grave wound each turn

    def to_dict(self) -> dict:
        return {
            "weight_kg": self.weight_kg,
            "max_kg": self.max_kg,
            "over_kg": self.over_kg,
            "overloaded": self.overloaded,
            "immobile": self.immobile,
            "speed_factor": self.speed_factor,
            "athletic_desgracias": self.athletic_desgracias,
            "leg_wounds_per_turn": list(self.leg_wounds_per_turn),
        }

    @classmethod
    def from_dict(cls, data: dict) -> LoadState:
        return cls(**{**data, "leg_wounds_per_turn": tuple(data["leg_wounds_per_turn"])})


def max_load(fortitud: int) -> int:
    """20 kg + 5 kg per NdP of Fortitud."""
    _check_int("Fortitud", fortitud, 0, MAX_LEVEL)
    return LOAD_BASE_KG + LOAD_PER_FORTITUD_KG * fortitud


def load_state(weight_kg: float, fortitud: int) -> LoadState:
    _check_weight(weight_kg)
    maximum = max_load(fortitud)
    over = max(0.0, weight_kg - maximum)
    overloaded = weight_kg > maximum
    immobile = weight_kg >= 2 * maximum
    # The tiny slack keeps 40.1 + 4.9 kg from counting as 44.999… kg.
    desgracias = math.floor(over / LOAD_DESGRACIA_STEP_KG + 1e-9) if overloaded else 0
    return LoadState(
        weight_kg=weight_kg,
        max_kg=maximum,
        over_kg=over,
        overloaded=overloaded,
        immobile=immobile,
        speed_factor=0.0 if immobile else 0.5 if overloaded else 1.0,
        athletic_desgracias=desgracias,
        leg_wounds_per_turn=LEGS if immobile else (),
    )


def load_desgracias(load: LoadState, skill: str) -> int:
    """Desgracias the load adds to a roll of `skill` (athletic skills only)."""
    if skill not in SKILLS_BY_KEY:
        raise RuleError(gettext_noop("unknown skill %(key)s"), key=skill)
    return load.athletic_desgracias if SKILLS_BY_KEY[skill].category == "Atléticas" else 0


# --- Prana, faith, gestures, summons ------------------------------------------------


def max_prana(vitalidad: int) -> int:
    """Prana: base 8, +2 per NdP of Vitalidad."""
    _check_int("Vitalidad", vitalidad, 0, MAX_LEVEL)
    return PRANA_BASE + PRANA_PER_VITALIDAD * vitalidad


def regenerate_prana(current: int, maximum: int, hours: int) -> int:
    """Prana regenerates 1 per hour, up to the maximum."""
    _check_int("Prana", current, 0, 10_000)
    _check_int(gettext_noop("maximum Prana"), maximum, 0, 10_000)
    _check_int(gettext_noop("hours"), hours, 0, 1_000_000)
    if current >= maximum:
        return current
    return min(maximum, current + PRANA_REGEN_PER_HOUR * hours)


def extra_prana(leve_wounds: int = 0, object_integrity: int = 0) -> int:
    """Extra sources: 1 Prana per own leve wound taken, 1 per 2 object integrity."""
    _check_int(gettext_noop("leve wounds"), leve_wounds, 0, 1_000)
    _check_int(gettext_noop("object integrity"), object_integrity, 0, 10_000)
    return leve_wounds + object_integrity // 2


def max_gestures(arcano: int) -> int:
    _check_int("Arcano", arcano, 0, MAX_LEVEL)
    return arcano


def max_faith_per_deity(voluntad: int) -> int:
    _check_int("Voluntad", voluntad, 0, MAX_LEVEL)
    return 2 * voluntad


def max_deities(religion: int) -> int:
    _check_int("Religión", religion, 0, MAX_LEVEL)
    return religion


def check_faith(faith_by_deity: dict[str, int], voluntad: int, religion: int) -> None:
    """Refuse more deities than Religión NdP or more faith in one than 2 × Voluntad."""
    if len(faith_by_deity) > max_deities(religion):
        raise RuleError(
            gettext_noop("at most %(count)s deities with Religión %(religion)s"),
            count=max_deities(religion),
            religion=religion,
        )
    limit = max_faith_per_deity(voluntad)
    for deity, faith in faith_by_deity.items():
        _check_int(gettext_noop("faith points"), faith, 0, 10_000)
        if faith > limit:
            raise RuleError(
                gettext_noop("at most %(limit)s faith points for %(deity)s"),
                limit=limit,
                deity=deity,
            )


def max_summons(voluntad: int) -> int:
    """Criaturas máximas: 2 × NdP Voluntad."""
    _check_int("Voluntad", voluntad, 0, MAX_LEVEL)
    return 2 * voluntad


# Seed: "Distancia máxima al Ancla: 50m (daño leve/turno si excede)".
ANCHOR_LEASH_M = 50
MAX_ANCHOR_DISTANCE_M = 100_000


def leash_wounds(distance_m: int) -> int:
    """Leve wounds a bound creature takes in one turn at `distance_m` from its anchor: one
    beyond 50 m, none within."""
    _check_int("distance", distance_m, 0, MAX_ANCHOR_DISTANCE_M)
    return 1 if distance_m > ANCHOR_LEASH_M else 0


# Seed, Lingüística: "Cada NdP otorga comprensión, habla o escritura de un idioma".
LANGUAGE_GRANTS: tuple[tuple[str, str], ...] = (
    ("comprension", "comprensión"),
    ("habla", "habla"),
    ("escritura", "escritura"),
)


def max_language_grants(linguistica: int) -> int:
    """How many grants (understanding, speech or writing of one language) Lingüística
    gives: one per NdP."""
    _check_int("Lingüística", linguistica, 0, MAX_LEVEL)
    return linguistica
