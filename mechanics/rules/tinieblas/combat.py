"""Initiative in Mundo de Tinieblas: Iniciativa (Destreza + Compostura) + 1d10.

Iniciativa is a derived trait; the roll adds one d10 (the usual rule of the game the
seed adapts) with no again and no wound penalty: the penalty applies to dice pools, and
initiative is not one (docs/rules.md#tinieblas-initiative-die). Ties: the higher
Iniciativa, then a roll-off of 1d10 (see `mechanics.rules.initiative`).
"""

from __future__ import annotations

from mechanics.rules.dice import Die, RandomSource, RollRecord, default_rng
from mechanics.rules.tinieblas.rolls import SIDES, SYSTEM
from mechanics.rules.tinieblas.traits import iniciativa


def roll_initiative(destreza: int, compostura: int, rng: RandomSource | None = None) -> RollRecord:
    """Iniciativa + 1d10; outcome "rolled" (it cannot fail)."""
    rng = rng or default_rng()
    base = iniciativa(destreza, compostura)
    value = rng.randint(1, SIDES)
    return RollRecord(
        system=SYSTEM,
        kind="initiative",
        spec={"destreza": destreza, "compostura": compostura},
        dice=(Die(SIDES, value, ("kept",)),),
        kept=(value,),
        result=base + value,
        outcome="rolled",
        details={"base": base},
    )


def roll_off(rng: RandomSource | None = None) -> int:
    """One d10 to break a tie in the turn order."""
    return (rng or default_rng()).randint(1, SIDES)
