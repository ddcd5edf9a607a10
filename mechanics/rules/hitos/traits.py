"""Derived Hitos values (docs/rules.md#hitos-traits and docs/rules.md#hitos-combat).

Wound penalties are passed as the negative number the health state gives (0, −2, −5,
or less after drugs), exactly as they are added to a roll.
"""

from __future__ import annotations

from mechanics.rules.errors import RuleError, gettext_noop

DEFENSA_BASE = 5
DEFENCELESS_DIFFICULTY = 5  # "La dificultad de atacar a una persona indefensa es 5"
UNAWARE_DEFENSA = -2
TOTAL_DEFENCE_DEFENSA = 4


def _check_rating(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(gettext_noop("%(name)s must be a whole number ≥ 0"), name=name)


def check_wound_penalty(value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not -5 <= value <= 0:
        raise RuleError(gettext_noop("wound penalty must be between -5 and 0"))


def aguante(fortaleza: int, voluntad: int) -> int:
    """Aguante = Fortaleza + ⌊Voluntad / 2⌋."""
    _check_rating("Fortaleza", fortaleza)
    _check_rating("Voluntad", voluntad)
    return fortaleza + voluntad // 2


def resistencia_max(aguante_value: int) -> int:
    """Resistencia = 3 × Aguante."""
    _check_rating("Aguante", aguante_value)
    return 3 * aguante_value


def defensa(
    reflejos: int,
    combate: int,
    wound_penalty: int = 0,
    *,
    unaware: bool = False,
    total_defence: bool = False,
    defenceless: bool = False,
) -> int:
    """The difficulty to hit this character: Reflejos + Combate + 5 + wound penalty,
    −2 when caught unaware, +4 in total defence; a defenceless target is simply 5."""
    _check_rating("Reflejos", reflejos)
    _check_rating("Combate", combate)
    check_wound_penalty(wound_penalty)
    if defenceless:
        return DEFENCELESS_DIFFICULTY
    value = reflejos + combate + DEFENSA_BASE + wound_penalty
    if unaware:
        value += UNAWARE_DEFENSA
    if total_defence:
        value += TOTAL_DEFENCE_DEFENSA
    return value


def initiative_base(reflejos: int, intelecto: int) -> int:
    """Iniciativa before the roll: Reflejos + ⌊Intelecto / 2⌋ (the roll adds C)."""
    _check_rating("Reflejos", reflejos)
    _check_rating("Intelecto", intelecto)
    return reflejos + intelecto // 2


def melee_damage_bonus(fortaleza: int, combate: int) -> int:
    """Cuerpo a cuerpo: ⌊(Fortaleza + Combate) / 4⌋."""
    _check_rating("Fortaleza", fortaleza)
    _check_rating("Combate", combate)
    return (fortaleza + combate) // 4


def ranged_damage_bonus(combate: int) -> int:
    """A distancia: ⌊Combate / 4⌋."""
    _check_rating("Combate", combate)
    return combate // 4
