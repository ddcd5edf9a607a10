"""Derived combat values and ranged difficulty for Dado objetivo."""

from __future__ import annotations

from collections.abc import Sequence

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.objetivo.catalogue import (
    ATTRIBUTE_MAX,
    ATTRIBUTE_MIN,
    COVER_STEP,
    RANGE_BANDS,
    SKILL_MAX,
    SKILL_MIN,
)
from mechanics.rules.objetivo.settings import SETTINGS

DEFAULT_DEFENSE_BASE = next(s.default for s in SETTINGS if s.key == "defense_base")


def _check(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(
            gettext_noop("%(trait)s must be between %(low)s and %(high)s"),
            trait=name,
            low=low,
            high=high,
        )


def _attribute(name: str, value: int) -> None:
    _check(name, value, ATTRIBUTE_MIN, ATTRIBUTE_MAX)


def _skill(name: str, value: int) -> None:
    _check(name, value, SKILL_MIN, SKILL_MAX)


def pv(resistencia: int) -> int:
    """Puntos de Vida: Resistencia × 2."""
    _attribute("Resistencia", resistencia)
    return resistencia * 2


def defensa(destreza: int, combat_skill: int, defense_base: int = DEFAULT_DEFENSE_BASE) -> int:
    """Defensa = Destreza + Armas CC/Pelea + defense_base (setting: 5, or 6 for harder games)."""
    _attribute("Destreza", destreza)
    _skill("Armas CC/Pelea", combat_skill)
    _check("defense_base", defense_base, 0, 10)
    return destreza + combat_skill + defense_base


def initiative_base(destreza: int, percepcion: int) -> int:
    """Destreza + Percepción; the roll adds 1o3d10."""
    _attribute("Destreza", destreza)
    _attribute("Percepción", percepcion)
    return destreza + percepcion


def attack_bonus(fuerza: int, combat_skill: int, precision: int = 0) -> int:
    """Melee attack: Fuerza + Armas CC/Pelea + weapon precision (added to the target die)."""
    _attribute("Fuerza", fuerza)
    _skill("Armas CC/Pelea", combat_skill)
    return fuerza + combat_skill + precision


def ranged_bonus(destreza: int, armas_dist: int, precision: int = 0) -> int:
    """Ranged attack: Destreza + Armas Dist + weapon precision."""
    _attribute("Destreza", destreza)
    _skill("Armas Dist", armas_dist)
    return destreza + armas_dist + precision


def ranged_difficulty(distance_m: float, ranges: Sequence[int], cover: bool = False) -> int:
    """Difficulty to hit at `distance_m` with a weapon of `ranges` (short, medium, long).

    Up to short 15, up to medium 20, up to long 25 (each limit inclusive: "a 35 metros o
    menos sería dificultad 15"); the seed's gap between 60 and 70 m in its revolver
    example is read as long range starting just past medium. Beyond long the target
    cannot be hit (RuleError). Cover raises the difficulty one step (long + cover = 30).
    """
    if len(ranges) != len(RANGE_BANDS) or any(
        isinstance(r, bool) or not isinstance(r, int | float) or r <= 0 for r in ranges
    ):
        raise RuleError(gettext_noop("a weapon's ranges are three positive distances"))
    if not ranges[0] < ranges[1] < ranges[2]:
        raise RuleError(gettext_noop("a weapon's ranges must increase: short, medium, long"))
    if isinstance(distance_m, bool) or not isinstance(distance_m, int | float) or distance_m < 0:
        raise RuleError(gettext_noop("distance must be zero or more metres"))
    for band, limit in zip(RANGE_BANDS, ranges, strict=True):
        if distance_m <= limit:
            return band.difficulty + (COVER_STEP if cover else 0)
    raise RuleError(
        gettext_noop("the target is beyond long range (%(long)s m) and cannot be hit"),
        long=ranges[-1],
    )


def ready_to_fire(reload_turns: int, last_shot_round: int | None, round_: int) -> bool:
    """Whether a weapon fired in `last_shot_round` (None: not yet in this fight) may fire in
    `round_`: it spends `reload_turns` whole rounds reloading after each shot, so one that
    "tarda un turno en recargar" cannot fire in two consecutive rounds."""
    _check("reload_turns", reload_turns, 0, 10)
    if reload_turns == 0 or last_shot_round is None:
        return True
    return round_ - last_shot_round > reload_turns
