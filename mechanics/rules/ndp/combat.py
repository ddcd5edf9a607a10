"""Turn order in 3d6 + NdP, from the seed's "Fases de combate" and "Orden de acciones".

The seed has no initiative roll. It acts by phases: melee fighters threatening
shooters, then shooters, then melee, then spellcasters; ties are settled by an opposed
Alerta roll. We roll Alerta (3d6 + NdP) for everyone once: highest first within a
phase, which is the opposed roll played by all at once; a tie rolls Alerta again
between the tied characters. Moving first ("sin desplazarse va primero") and giving up
one's turn are left to the GM, who can reorder by changing a phase.
"""

from __future__ import annotations

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.ndp.catalogue import MOVE_FREE_M, MOVE_NO_ATTACK_M, MOVE_WITH_ROLL_M

# (number, name): lower numbers act first.
PHASES: tuple[tuple[int, str], ...] = (
    (1, "Cuerpo a cuerpo amenazando a tiradores"),
    (2, "Tiradores"),
    (3, "Cuerpo a cuerpo"),
    (4, "Conjuradores"),
)
DEFAULT_PHASE = 3
INITIATIVE_SKILL = "alerta"


def phase_name(number: int) -> str:
    for key, name in PHASES:
        if key == number:
            return name
    raise RuleError(gettext_noop("unknown combat phase %(phase)s"), phase=number)


# What a turn's movement takes (seed: "Moverse | Correr | 1m gratis / 6m sin atacar / 18m
# con tirada").
MOVE_FREE = "free"
MOVE_NO_ATTACK = "no_attack"
MOVE_RUN = "run"


def movement(metres: int, speed_factor: float = 1.0) -> str:
    """What moving `metres` in one turn takes: free up to 1 m, giving up the attack up to
    6 m, a Correr roll up to 18 m; the distances scale with the load's speed factor (half
    when overloaded; 0, no movement at all, at twice the maximum load)."""
    if isinstance(metres, bool) or not isinstance(metres, int) or metres < 0:
        raise RuleError(gettext_noop("metres must be a whole number, 0 or more"))
    if speed_factor not in (0.0, 0.5, 1.0):
        raise RuleError(gettext_noop("unknown speed factor"))
    if metres == 0:
        return MOVE_FREE
    if speed_factor == 0:
        raise RuleError(gettext_noop("carrying twice the maximum load, the character cannot move"))
    for limit, kind in (
        (MOVE_FREE_M, MOVE_FREE),
        (MOVE_NO_ATTACK_M, MOVE_NO_ATTACK),
        (MOVE_WITH_ROLL_M, MOVE_RUN),
    ):
        if metres <= limit * speed_factor:
            return kind
    raise RuleError(
        gettext_noop("at most %(limit)s m in a turn"),
        limit=_metres(MOVE_WITH_ROLL_M * speed_factor),
    )


def reach_after_failed_run(speed_factor: float) -> int:
    """How far a failed Correr roll still takes the character: the distance of a move
    without attacking (decision, docs/rules.md#ndp-movement)."""
    return int(MOVE_NO_ATTACK_M * speed_factor)


def _metres(value: float) -> str:
    return f"{value:g}"
