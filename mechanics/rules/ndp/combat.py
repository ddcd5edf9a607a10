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
