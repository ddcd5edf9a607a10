"""Turn order from initiative results, shared by every system (pure: no Django).

Each system rolls its own initiative (`tinieblas.combat.roll_initiative`,
`hitos.rolls.roll_initiative`, `objetivo.rolls.roll_initiative`, an Alerta check in
3d6 + NdP). This module only orders the results and breaks ties:

- `phase` first, lowest first (3d6 + NdP acts by phases; the other systems use 0);
- then the total, highest first;
- then the base (the traits before the die: a tie goes to the quicker character);
- then a roll-off: tied characters without a tie-break value reroll (each system says
  with what) until their values differ from every other tied character's. Values are
  kept, so a character joining later never reshuffles an order already played.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

# A roll-off that keeps tying this many times (only a scripted random source does that)
# leaves the order to the entries' own order.
MAX_ROLL_OFFS = 50


@dataclass(frozen=True)
class Entry:
    key: Hashable
    total: int
    base: int = 0
    phase: int = 0
    tiebreak: int | None = None

    @property
    def tie_group(self) -> tuple[int, int, int]:
        return (self.phase, self.total, self.base)


def sort_key(entry: Entry) -> tuple:
    tiebreak = entry.tiebreak if entry.tiebreak is not None else float("-inf")
    return (entry.phase, -entry.total, -entry.base, -tiebreak)


def order(entries: Iterable[Entry]) -> list[Entry]:
    """Entries in turn order (stable for anything still tied)."""
    return sorted(entries, key=sort_key)


def break_ties(entries: Iterable[Entry], reroll: Callable[[Entry], int]) -> dict[Hashable, int]:
    """New tie-break values for entries tied with another and lacking one.

    `reroll(entry)` throws that entry's roll-off die (the caller holds the random
    source). Returns {key: value} for the entries that got a value.
    """
    groups: dict[tuple[int, int, int], list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.tie_group, []).append(entry)
    values: dict[Hashable, int] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        taken = [e.tiebreak for e in group if e.tiebreak is not None]
        for entry in group:
            if entry.tiebreak is not None:
                continue
            value = reroll(entry)
            for _attempt in range(MAX_ROLL_OFFS):
                if value not in taken:
                    break
                value = reroll(entry)
            taken.append(value)
            values[entry.key] = value
    return values
