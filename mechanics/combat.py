"""The combat panel's rules glue, the same for every system: what a system's combat
hooks are, and the steps every fight takes whatever the rules.

Each rule system with combat declares a `CombatRules` as `system.combat`
(`mechanics/systems/<key>/combat.py`); a system without combat leaves it None and the
panel answers 404. The hooks turn two characters' sheets and the GM's choices into
engine calls (through `mechanics.setup`, which rolls every attack); views and services
never compute a Defensa, an initiative or a damage themselves, and this module never
names a system.

- `roll_initiative(sheet, rng)`, `roll_off(sheet, rng)`: the sheet's system rolls; with
  an `initiative_spend`, `roll_initiative(sheet, rng, spend=True)` rolls spending it.
- `turn_order(participants)`: the order of a fight (`mechanics.rules.initiative`).
- `defence(attacker, target, data)`: what the attack roll has to beat, in words (the
  GM's number when typed).
- `plan_attack(...)`, `roll_attack(...)`: the odds before rolling, and the attack with
  the damage the engine computed, ready to confirm. With `counts_actions`, their `data`
  also holds `attacks_made` (by the attacker) and `defences_made` (rolled by the target)
  earlier in the round; with `reads_last_shots`, `last_shots` ({weapon: the last round
  the attacker used it}) and `round`.
- `refuse_attack(...)`: refuses an attack the fight's past forbids, checked again when
  the attack is stored.
- `write_back(...)`: what the attack changes on the sheets besides the damage: its
  `writes` when it is stored, its `with_damage` when the GM applies the damage (never
  when discarded); `pending_notes(...)`: what those will do, for the waiting card.
- `attack_from_roll(side)`: an attack rolled from a sheet's roll panel at a target, to
  store in the fight of its scene like the panel's.
- `move(...)`, `refuse_attack_after_move(...)`: with `moves`, how far a fighter gets in a
  round (and the roll it takes), and whether it may still attack.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mechanics.rules.dice import RandomSource, RollRecord, default_rng
from mechanics.rules.initiative import Entry, order
from mechanics.setup import OddsView, Sheet, SideRecord
from mechanics.systems.base import DamageInput

if TYPE_CHECKING:
    from django import forms

    from mechanics.models import Combat, CombatParticipant


@dataclass(frozen=True)
class Initiative:
    record: RollRecord
    total: int
    base: int


@dataclass(frozen=True)
class Defence:
    """What the attack has to beat: a number (None when the target rolls) and its words."""

    value: int | None
    label: str


@dataclass(frozen=True)
class AttackRoll:
    """An attack as rolled: the records to store (defence first, then the attack), whether
    it hit, and the damage to apply once the GM confirms (None: nothing to apply)."""

    sides: list[SideRecord]
    hit: bool
    damage: DamageInput | None
    damage_text: str
    notes: tuple[str, ...] = ()
    group: uuid.UUID | None = None
    # What else the roll changes on the sheets, for the system's `write_back` hook.
    writes: tuple[Mapping, ...] = ()
    # The attacker's attacks and the target's defences this round the roll counted on
    # (`attacks_made`, `defences_made`); the fight must not have moved on when it is stored.
    counted: tuple[int, int] | None = None
    # What it changes only with its damage: written when the GM applies it, dropped when
    # the damage is discarded (docs/rules.md#ndp-write-back-when).
    with_damage: tuple[Mapping, ...] = ()


@dataclass(frozen=True)
class Move:
    """A fighter's movement as ruled: the metres it has covered this round, all told; the
    roll it took (None: none); and the words for the GM."""

    reached: int
    side: SideRecord | None
    text: str


@dataclass(frozen=True)
class AttackPlan:
    """Odds and steps to show before rolling, and the roll itself."""

    odds: OddsView | None
    steps: tuple[tuple[str, int], ...]
    defence: Defence
    notes: tuple[str, ...] = field(default_factory=tuple)


# --- What a system's combat declares --------------------------------------------------------


class CombatRules:
    """A system's combat hooks (`system.combat`). A system overrides the methods that
    raise NotImplementedError; the attributes' defaults mean "this system has none"."""

    # The phases fighters act by, (number, name) in order; () = one order by initiative.
    phases: tuple[tuple[int, str], ...] = ()
    # The phase a fighter starts in.
    default_phase: int = 0
    # Attack-form fields that spend something: cleared after a roll so the next one does
    # not spend again.
    spends: tuple[str, ...] = ()
    # What a fighter may spend on its initiative roll: (the resource pool, the words for
    # the GM's choice); None: nothing.
    initiative_spend: tuple[str, str] | None = None
    # How many attacks a fighter makes in one round; None: as many as the GM lets them.
    attacks_per_round: int | None = None
    # Whether the attack hooks read `attacks_made` and `defences_made` (one query more).
    counts_actions: bool = False
    # Whether the attack hooks read `last_shots` and `round` (one query more): the rolls
    # of a system that reads them name their weapon in details["weapon"].
    reads_last_shots: bool = False

    def initiative_rule(self) -> str:
        """How initiative works, in words (the panel says it)."""
        raise NotImplementedError

    def roll_initiative(self, sheet: Sheet, rng: RandomSource | None) -> Initiative:
        raise NotImplementedError

    def roll_off(self, sheet: Sheet, rng: RandomSource | None) -> int:
        """A roll to break a tie in the turn order: 1d10 unless the system says."""
        return (rng or default_rng()).randint(1, 10)

    def computed_defence(self, attacker: Sheet, target: Sheet, data: Mapping) -> Defence:
        """The target's defence from its sheet (before any number the GM types instead)."""
        raise NotImplementedError

    def typed_defence_label(self, data: Mapping) -> str:
        """What the number the GM types instead of `computed_defence` is called."""
        return _("Defensa set by the GM")

    def plan_attack(
        self, attacker: Sheet, target: Sheet, data: Mapping, defence: Defence
    ) -> AttackPlan:
        raise NotImplementedError

    def roll_attack(
        self,
        attacker: Sheet,
        target: Sheet,
        data: Mapping,
        defence: Defence,
        rng: RandomSource | None,
    ) -> AttackRoll:
        raise NotImplementedError

    def attack_from_roll(self, side: SideRecord) -> AttackRoll:
        """An attack a sheet's roll panel rolled at a character (its plan's `extra` names
        the target), as `roll_attack` returns one, for the fight of its scene."""
        raise NotImplementedError

    def attack_fields(self, sheet: Sheet | None) -> dict[str, forms.Field]:
        """The attack form's fields for this system, in the order the panel shows them
        (`sheet`: the attacker's, None when nobody is in the fight)."""
        raise NotImplementedError

    def clean_attack(self, form: forms.Form, data: dict) -> None:
        """Checks across the attack form's fields; adds errors to `form`, fills `data`."""

    def follow_attack_choices(self, form: forms.Form, sheet: Sheet | None) -> None:
        """Redraw the fields another choice of `form` (bound or not) decides, so the panel
        never shows a choice the attack does not use (a weapon's own skill); the roll
        still reads the choices alone."""

    def refuse_attack(self, attack: AttackRoll, last_shots: Mapping[str, int], round_: int) -> None:
        """Raise ValidationError for an attack the fight's past forbids (a weapon still
        reloading); called with the combat locked, before anything is stored."""

    # Whether fighters move by this system's rules (the panel's move form).
    moves: bool = False

    def move(
        self,
        sheet: Sheet,
        metres: int,
        attacked: bool,
        adversity: int | None,
        rng: RandomSource | None,
    ) -> Move:
        """Move to `metres` covered this round, all told (`attacked`: the fighter has
        attacked this round); refused with ValidationError or RuleError."""
        raise NotImplementedError

    def refuse_attack_after_move(self, sheet: Sheet, moved: int) -> None:
        """Raise ValidationError when `moved` metres this round leave no attack."""

    def write_back(self, writes: Iterable[Mapping], user, scene) -> list[str]:
        """Write what an attack changes beyond the target's damage (an `AttackRoll`'s
        `writes` or `with_damage`: worn weapons, the attacker's own wound), in the caller's
        transaction; returns the notes saying what was written."""
        return []

    def pending_notes(self, writes: Iterable[Mapping], sheets: Mapping[int, Sheet]) -> list[str]:
        """What an attack's `with_damage` will write if the GM applies its damage now,
        read from the fighters' `sheets` (by character id) as they are."""
        return []

    def new_round(self, combat: Combat, participants: list[CombatParticipant], user) -> list[str]:
        """What a new round does to the fighters (in its transaction); the names of
        those it touched, for the GM's notice."""
        return []


# --- Initiative and turn order --------------------------------------------------------------


def roll_initiative(
    sheet: Sheet, rng: RandomSource | None = None, *, spend: bool = False
) -> Initiative:
    """One character's initiative by its system's rules; `spend`: spending the system's
    `initiative_spend` on it."""
    if spend:
        return sheet.system.combat.roll_initiative(sheet, rng, spend=True)
    return sheet.system.combat.roll_initiative(sheet, rng)


def roll_off(sheet: Sheet, rng: RandomSource | None = None) -> int:
    return sheet.system.combat.roll_off(sheet, rng)


def turn_order(participants: Iterable) -> list:
    """Combat participants in turn order (`mechanics.rules.initiative`); those who have
    not rolled yet come last, in the order they joined."""
    participants = list(participants)
    rolled = {p.pk: p for p in participants if p.initiative is not None}
    entries = [
        Entry(p.pk, p.initiative, p.initiative_base, p.phase, p.tiebreak) for p in rolled.values()
    ]
    waiting = [p for p in participants if p.initiative is None]
    return [rolled[entry.key] for entry in order(entries)] + sorted(waiting, key=lambda p: p.pk)


# --- Defence and attacks --------------------------------------------------------------------


def defence(attacker: Sheet, target: Sheet, data: Mapping) -> Defence:
    """The defence the attack uses: the GM's number if typed, else the computed one."""
    computed = target.system.combat.computed_defence(attacker, target, data)
    typed = data.get("defensa")
    if typed is not None and computed.value is not None:
        return Defence(typed, target.system.combat.typed_defence_label(data))
    return computed


def plan_attack(attacker: Sheet, target: Sheet, data: Mapping) -> AttackPlan:
    """The odds of an attack before it is rolled. Raises RuleError or ValidationError
    for a set-up that cannot be rolled (the views show the message)."""
    shown = defence(attacker, target, data)
    return attacker.system.combat.plan_attack(attacker, target, data, shown)


def roll_attack(
    attacker: Sheet, target: Sheet, data: Mapping, rng: RandomSource | None = None
) -> AttackRoll:
    """Roll an attack on the server. Nothing is stored or applied here."""
    if attacker.character.pk == target.character.pk:
        raise ValidationError(_("A character cannot attack itself."), code="self")
    shown = defence(attacker, target, data)
    return attacker.system.combat.roll_attack(attacker, target, data, shown, rng)


def stamp_target(side: SideRecord, target: Sheet, defence_value: int | None) -> SideRecord:
    """The attack record names its target, so the log says whom it was against."""
    details = {
        **side.record.details,
        "target": {"character": target.character.pk, "name": target.character.name},
    }
    if defence_value is not None and "defensa" not in details:
        details["defensa"] = defence_value
    return SideRecord(side.sheet, replace(side.record, details=details))


def aimed(plan_roll, target: Sheet, defence_value: int | None):
    """A roll panel's plan roll whose records name its target and its Defensa, as the
    combat panel's do (`stamp_target`)."""
    return lambda rng=None: [stamp_target(side, target, defence_value) for side in plan_roll(rng)]
