"""Raising a skill by sacrificing a drama point (Hitos, a campaign setting).

The seed says nothing about advancement. Our rule, used only when a campaign turns
the setting on: a player gives up one drama point from the pool for good to raise
one skill (generic or custom) by one level, 0→1 included, up to the skill maximum.
Characteristics cannot be raised this way: they shape Aguante, Resistencia and
Defensa, and one point of pool should not move all of those at once.
"""

from __future__ import annotations

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.hitos.catalogue import SKILL_MAX, SKILL_MIN

DRAMA_SACRIFICE_COST = 1


def drama_sacrifice_cost(kind: str, current: int, *, maximum: int = SKILL_MAX) -> int:
    """Drama points to raise a trait of `kind` ("skill" or "characteristic") from `current`.

    Raises RuleError for a characteristic, a rating outside the skill range, or a
    skill already at its maximum.
    """
    if kind != "skill":
        raise RuleError(gettext_noop("Only skills can be raised with a drama point"))
    if isinstance(current, bool) or not isinstance(current, int):
        raise RuleError(gettext_noop("%(name)s must be a whole number"), name="current rating")
    if not SKILL_MIN <= current <= maximum:
        raise RuleError(
            gettext_noop("%(name)s must be between %(low)s and %(high)s"),
            name="Habilidad",
            low=SKILL_MIN,
            high=maximum,
        )
    if current == maximum:
        raise RuleError(gettext_noop("%(name)s is already at its maximum"), name="Habilidad")
    return DRAMA_SACRIFICE_COST
