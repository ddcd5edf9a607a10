"""Rolls for Dado objetivo: 1o3d10 checks, opposed rolls, attacks, damage, initiative.

Decisions where the seed is silent (docs/rules.md#objetivo-decisions; see also odds.py):
- The natural-1 auto-fail and the pifia look at the first throw only; after an
  explosion the target die has already counted 10.
- A pifia (three 1s) is a dramatic failure on every roll, attribute rolls included
  (they only skip the natural-1 auto-fail, not the pifia).
- A crítico needs a success: total ≥ 30 and not failed (and ≥ the difficulty, if any).
- Attribute rolls never explode, even in an opposed roll (attribute rolls neither explode
  nor auto-fail on 1: docs/rules.md#objetivo-attribute-no-explode).
- Opposed rolls: a side whose skill roll fails on its own (natural 1, pifia) loses to
  a side that did not; both failing is a tie; otherwise the higher total wins.
- Initiative explodes like an opposed roll (it is a contest of order) and cannot fail.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import NamedTuple

from mechanics.rules.dice import Die, Effects, RandomSource, RollRecord, default_rng
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.objetivo.catalogue import CRITICAL_TOTAL, DamageDice

SYSTEM = "objetivo"
SIDES = 10
# Guards against a broken random source only (0.271**100 ≈ 1e-57).
MAX_EXPLOSIONS = 100

BONUS_MIN, BONUS_MAX = -20, 50
DIFFICULTY_MIN, DIFFICULTY_MAX = 1, 100
SHIFT_LIMIT = 2
# Damage dice a weapon may have (the seed sets no limit; docs/rules.md#objetivo-damage).
MAX_DAMAGE_DICE, MAX_DAMAGE_SIDES, MAX_DAMAGE_MODIFIER = 20, 100, 20


def target_die(dice: tuple[int, ...] | list[int], shift: int = 0) -> int:
    """The kept die of a 1o3d10 throw: sorted, shift 0 = median, +1 highest, −1 lowest.

    Shifts add up before calling and clamp here to the lowest/highest die.
    """
    if len(dice) != 3 or any(not 1 <= d <= SIDES for d in dice):
        raise RuleError(gettext_noop("a 1o3d10 throw is three dice from 1 to 10"))
    return sorted(dice)[max(-1, min(1, shift)) + 1]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class ObjetivoSpec:
    """One 1o3d10 roll as set up on the sheet.

    `bonus` is what is added to the target die: attribute + skill (+ precision and GM
    modifiers) for a skill roll; for an attribute roll the total, normally
    2 × attribute (+ modifiers; see `attribute_roll_spec`). `difficulty` None means no
    fixed difficulty (opposed rolls, initiative, an open roll). `shift` is any extra level
    shift the GM imposes (−2..+2); the flags add theirs and the sum clamps to ±1.
    `destiny_points` is how many the character holds (None: not tracked, e.g. the CLI).
    """

    bonus: int
    difficulty: int | None = None
    shift: int = 0
    attribute_roll: bool = False
    attribute: int | None = None  # rating behind an attribute roll, for the record
    specialization: bool = False
    specialization_used_this_scene: bool = False
    destiny_point: bool = False
    destiny_points: int | None = None
    destiny_returned: bool = False  # GM handed a point back: this roll one level down
    unskilled: bool = False  # no points in the skill: one level down
    incapacitated: bool = False  # PV at or below the threshold: one level down

    def __post_init__(self) -> None:
        if not _whole(self.bonus) or not BONUS_MIN <= self.bonus <= BONUS_MAX:
            raise RuleError(
                gettext_noop("bonus out of range %(low)s..%(high)s"), low=BONUS_MIN, high=BONUS_MAX
            )
        if self.difficulty is not None and (
            not _whole(self.difficulty) or not DIFFICULTY_MIN <= self.difficulty <= DIFFICULTY_MAX
        ):
            raise RuleError(
                gettext_noop("difficulty out of range %(low)s..%(high)s"),
                low=DIFFICULTY_MIN,
                high=DIFFICULTY_MAX,
            )
        if not _whole(self.shift) or abs(self.shift) > SHIFT_LIMIT:
            raise RuleError(gettext_noop("level shift out of range ±%(limit)s"), limit=SHIFT_LIMIT)
        if self.attribute is not None:
            if not self.attribute_roll:
                raise RuleError(gettext_noop("an attribute rating belongs to an attribute roll"))
            if not _whole(self.attribute) or not 0 <= self.attribute <= 20:
                raise RuleError(gettext_noop("attribute out of range 0..20"))
        if self.attribute_roll and self.unskilled:
            raise RuleError(gettext_noop("an attribute roll uses no skill"))
        if self.attribute_roll and self.specialization:
            raise RuleError(gettext_noop("a specialization applies only to a roll of its skill"))
        if self.specialization and self.specialization_used_this_scene:
            raise RuleError(gettext_noop("specialization already used this scene"))
        if self.destiny_points is not None and (
            not _whole(self.destiny_points) or self.destiny_points < 0
        ):
            raise RuleError(gettext_noop("destiny points cannot be negative"))
        if self.destiny_point and self.destiny_points == 0:
            raise RuleError(gettext_noop("no destiny points left"))

    @property
    def level(self) -> int:
        """Net level of the target die: −1 lowest, 0 median, +1 highest."""
        up = self.shift + self.specialization + self.destiny_point
        down = self.destiny_returned + self.unskilled + self.incapacitated
        return max(-1, min(1, up - down))

    @property
    def explodes(self) -> bool:
        return not self.attribute_roll

    def to_dict(self) -> dict:
        # Not dataclasses.asdict: it deep-copies and is slow on the rolling path.
        return {f: getattr(self, f) for f in _SPEC_FIELDS}


_SPEC_FIELDS = tuple(f.name for f in fields(ObjetivoSpec))


def attribute_roll_spec(
    attribute: int, difficulty: int | None = None, modifier: int = 0, **flags: object
) -> ObjetivoSpec:
    """Attribute roll: target die + 2 × attribute (+ modifier)."""
    if not _whole(attribute) or not 0 <= attribute <= 20:
        raise RuleError(gettext_noop("attribute out of range 0..20"))
    return ObjetivoSpec(
        bonus=2 * attribute + modifier,
        difficulty=difficulty,
        attribute_roll=True,
        attribute=attribute,
        **flags,
    )


class _Throws(NamedTuple):
    throws: tuple[tuple[int, int, int], ...]
    targets: tuple[int, ...]
    total: int
    failed: bool  # failed on its own: natural 1 on a skill roll, or pifia
    fumble: bool
    natural_one: bool


def _throw(
    spec: ObjetivoSpec, rng: RandomSource, dice: list[Die], extra_tags: tuple[str, ...] = ()
) -> _Throws:
    """Throw 1o3d10 (again on each exploding 10), appending every die to `dice`."""
    pos = spec.level + 1
    explodes = spec.explodes
    randint = rng.randint
    throws: list[tuple[int, int, int]] = []
    targets: list[int] = []
    while True:
        values = (randint(1, SIDES), randint(1, SIDES), randint(1, SIDES))
        kept_index = sorted(range(3), key=values.__getitem__)[pos]
        target = values[kept_index]
        exploding = explodes and target == SIDES and len(throws) < MAX_EXPLOSIONS
        tail = (*extra_tags, "explosion") if throws else extra_tags
        for i, value in enumerate(values):
            if i == kept_index:
                tags = ("kept", "exploded", *tail) if exploding else ("kept", *tail)
            else:
                tags = ("dropped", *tail)
            dice.append(Die(SIDES, value, tags))
        throws.append(values)
        targets.append(target)
        if not exploding:
            break
    fumble = throws[0] == (1, 1, 1)
    natural_one = targets[0] == 1 and not spec.attribute_roll
    return _Throws(
        tuple(throws),
        tuple(targets),
        spec.bonus + sum(targets),
        fumble or natural_one,
        fumble,
        natural_one,
    )


@lru_cache(maxsize=8)
def _plain_effects(destiny_point: bool, specialization: bool) -> Effects:
    # Shared frozen instances: building Effects is the slowest part of a roll.
    return Effects(destiny_points_spent=int(destiny_point), specialization_used=specialization)


def _effects(spec: ObjetivoSpec, damage: int | None = None) -> Effects:
    if damage is None:
        return _plain_effects(spec.destiny_point, spec.specialization)
    return Effects(
        destiny_points_spent=int(spec.destiny_point),
        specialization_used=spec.specialization,
        damage=damage,
    )


def _flags(t: _Throws, critical: bool) -> tuple[str, ...]:
    flags = []
    if len(t.targets) > 1:
        flags.append("exploded")
    if t.natural_one:
        flags.append("natural_one")
    if t.fumble:
        flags.append("fumble")
    if critical:
        flags.append("critical")
    return tuple(flags)


def _details(spec: ObjetivoSpec, t: _Throws) -> dict:
    return {
        "level": spec.level,
        "bonus": spec.bonus,
        "difficulty": spec.difficulty,
        "throws": [list(throw) for throw in t.throws],
        "target_dice": list(t.targets),
        # The Django side clears the pending "handed back" penalty once it is used.
        "destiny_penalty_consumed": spec.destiny_returned,
    }


def _grade(spec: ObjetivoSpec, t: _Throws) -> tuple[str, bool]:
    """Outcome key and whether it is a crítico."""
    if t.fumble:
        return "dramatic_failure", False
    if t.failed:
        return "failure", False
    if spec.difficulty is not None and t.total < spec.difficulty:
        return "failure", False
    if t.total >= CRITICAL_TOTAL:
        return "critical", True
    return ("success" if spec.difficulty is not None else "rolled"), False


def roll_check(spec: ObjetivoSpec, rng: RandomSource | None = None) -> RollRecord:
    """A skill roll (explodes, natural 1 fails) or attribute roll (neither) vs difficulty.

    Outcomes: "success", "critical" (success with total ≥ 30), "failure",
    "dramatic_failure" (pifia); without a difficulty "rolled" replaces "success".
    """
    rng = rng or default_rng()
    dice: list[Die] = []
    t = _throw(spec, rng, dice)
    outcome, critical = _grade(spec, t)
    return RollRecord(
        system=SYSTEM,
        kind="attribute" if spec.attribute_roll else "skill",
        spec=spec.to_dict(),
        dice=tuple(dice),
        kept=t.targets,
        result=t.total,
        outcome=outcome,
        flags=_flags(t, critical),
        effects=_effects(spec),
        details=_details(spec, t),
    )


def _side(spec: ObjetivoSpec, t: _Throws) -> dict:
    outcome, critical = _grade(spec, t)
    return {
        "spec": spec.to_dict(),
        "total": t.total,
        "outcome": outcome,
        "flags": list(_flags(t, critical)),
        "effects": _effects(spec).to_dict(),
        **_details(spec, t),
    }


def roll_opposed(
    actor: ObjetivoSpec, opponent: ObjetivoSpec, rng: RandomSource | None = None
) -> RollRecord:
    """Both sides roll; the higher total wins, equal totals are a tie.

    `result` is the actor's total minus the opponent's; outcome "success" (actor wins),
    "failure" (opponent wins) or "tie". Dice: the actor's, then the opponent's (tagged
    "opponent"). `effects` are the actor's; the opponent's are in details["opponent"].
    """
    for spec in (actor, opponent):
        if spec.difficulty is not None:
            raise RuleError(gettext_noop("an opposed roll has no fixed difficulty"))
    rng = rng or default_rng()
    dice: list[Die] = []
    a = _throw(actor, rng, dice)
    b = _throw(opponent, rng, dice, ("opponent",))
    if a.failed or b.failed:
        outcome = "tie" if a.failed and b.failed else ("failure" if a.failed else "success")
    else:
        outcome = "success" if a.total > b.total else "failure" if a.total < b.total else "tie"
    flags = list(_flags(a, outcome == "success" and a.total >= CRITICAL_TOTAL))
    return RollRecord(
        system=SYSTEM,
        kind="opposed",
        spec={"actor": actor.to_dict(), "opponent": opponent.to_dict()},
        dice=tuple(dice),
        kept=a.targets,
        result=a.total - b.total,
        outcome=outcome,
        flags=tuple(flags),
        effects=_effects(actor),
        details={"actor": _side(actor, a), "opponent": _side(opponent, b)},
    )


def check_damage(damage: DamageDice) -> None:
    """Damage dice the engine rolls, or RuleError saying what is wrong: no die, or a die of
    fewer than 2 sides, is not a roll of dice; more than the limits is too large."""
    count, sides, modifier = damage.count, damage.sides, damage.modifier
    if not (_whole(count) and _whole(sides)) or count < 1 or sides < 2:
        raise RuleError(
            gettext_noop(
                "«%(dice)s» is not a valid roll of dice: roll at least one die of 2 sides or "
                "more, like 1d10 or 2d6+1."
            ),
            dice=str(DamageDice(count, sides)),
        )
    # The message names the limit the dice break (both, when they break both).
    too_many, too_big = count > MAX_DAMAGE_DICE, sides > MAX_DAMAGE_SIDES
    if too_many or too_big:
        if too_many and too_big:
            words = gettext_noop(
                "«%(dice)s» is too large: a weapon's damage is at most %(count)s dice of up "
                "to %(sides)s sides."
            )
        elif too_many:
            words = gettext_noop(
                "«%(dice)s» is too large: a weapon's damage is at most %(count)s dice."
            )
        else:
            words = gettext_noop(
                "«%(dice)s» is too large: a weapon's damage dice have at most %(sides)s sides."
            )
        raise RuleError(
            words, dice=str(DamageDice(count, sides)), count=MAX_DAMAGE_DICE, sides=MAX_DAMAGE_SIDES
        )
    if not _whole(modifier) or abs(modifier) > MAX_DAMAGE_MODIFIER:
        raise RuleError(
            gettext_noop("The damage bonus or penalty is too large: at most ±%(limit)s."),
            limit=MAX_DAMAGE_MODIFIER,
        )


def _throw_damage(
    dice_count: int, sides: int, modifier: int, critical: bool, rng: RandomSource, dice: list[Die]
) -> dict:
    raw = 0
    for _ in range(dice_count):
        tail: tuple[str, ...] = ("damage",)
        for _ in range(MAX_EXPLOSIONS + 1):
            value = rng.randint(1, sides)
            raw += value
            if value < sides:
                dice.append(Die(sides, value, tail))
                break
            dice.append(Die(sides, value, ("exploded", *tail)))
            tail = ("damage", "explosion")
    damage = max(0, raw + modifier)  # negative damage is no damage, not healing
    if critical:
        damage *= 2
    return {
        "dice": f"{dice_count}d{sides}",
        "raw": raw,
        "modifier": modifier,
        "multiplier": 2 if critical else 1,
        "damage": damage,
    }


def roll_damage(
    dice_count: int,
    sides: int,
    modifier: int = 0,
    rng: RandomSource | None = None,
    *,
    critical: bool = False,
) -> RollRecord:
    """Weapon damage: each die explodes on its maximum, + modifier, minimum 0, ×2 on crítico.

    `effects.damage` is the PV the target loses.
    """
    check_damage(DamageDice(dice_count, sides, modifier))
    rng = rng or default_rng()
    dice: list[Die] = []
    info = _throw_damage(dice_count, sides, modifier, critical, rng, dice)
    exploded = any("exploded" in d.tags for d in dice)
    return RollRecord(
        system=SYSTEM,
        kind="damage",
        spec={"dice_count": dice_count, "sides": sides, "modifier": modifier, "critical": critical},
        dice=tuple(dice),
        kept=tuple(d.value for d in dice),
        result=info["damage"],
        outcome="damage",
        flags=tuple(f for f, on in (("exploded", exploded), ("critical", critical)) if on),
        effects=Effects(damage=info["damage"]),
        details=info,
    )


def roll_attack(
    spec: ObjetivoSpec,
    defensa: int,
    damage: DamageDice,
    rng: RandomSource | None = None,
) -> RollRecord:
    """Attack roll vs `defensa`, then damage on a hit.

    `spec.bonus` = Fuerza + Armas CC/Pelea + precision (melee) or Destreza + Armas Dist
    + precision (ranged, where `defensa` is `traits.ranged_difficulty(...)`). It is a
    skill roll: it explodes and a natural 1 misses. Hit if total ≥ defensa; a crítico
    (hit with total ≥ 30) doubles the damage. `effects.damage` is what the target loses
    (None on a miss); the attacker's own costs (destiny, specialization) are in effects too.
    """
    if spec.attribute_roll:
        raise RuleError(gettext_noop("an attack is a skill roll, not an attribute roll"))
    if not _whole(defensa) or not DIFFICULTY_MIN <= defensa <= DIFFICULTY_MAX:
        raise RuleError(
            gettext_noop("Defensa out of range %(low)s..%(high)s"),
            low=DIFFICULTY_MIN,
            high=DIFFICULTY_MAX,
        )
    if spec.difficulty is not None and spec.difficulty != defensa:
        raise RuleError(gettext_noop("the attack's difficulty is the target's Defensa"))
    check_damage(damage)
    spec = replace(spec, difficulty=defensa)
    rng = rng or default_rng()
    dice: list[Die] = []
    t = _throw(spec, rng, dice)
    outcome, critical = _grade(spec, t)
    details = _details(spec, t)
    details["defensa"] = defensa
    details["hit"] = outcome in ("success", "critical")
    dealt = None
    if details["hit"]:
        info = _throw_damage(damage.count, damage.sides, damage.modifier, critical, rng, dice)
        details["damage_roll"] = info
        dealt = info["damage"]
    return RollRecord(
        system=SYSTEM,
        kind="attack",
        spec={**spec.to_dict(), "damage": str(damage)},
        dice=tuple(dice),
        kept=t.targets,
        result=t.total,
        outcome=outcome,
        flags=_flags(t, critical),
        effects=_effects(spec, dealt),
        details=details,
    )


def roll_initiative(spec: ObjetivoSpec, rng: RandomSource | None = None) -> RollRecord:
    """Iniciativa: Destreza + Percepción (spec.bonus) + 1o3d10, exploding; highest first.

    Level shifts apply (Incapacitado, destiny points). It cannot fail: outcome "rolled".
    """
    if spec.difficulty is not None or spec.attribute_roll or spec.unskilled or spec.specialization:
        raise RuleError(
            gettext_noop("initiative is Destreza + Percepción + 1o3d10 with no difficulty")
        )
    rng = rng or default_rng()
    dice: list[Die] = []
    t = _throw(spec, rng, dice)
    flags = ["exploded"] if len(t.targets) > 1 else []
    return RollRecord(
        system=SYSTEM,
        kind="initiative",
        spec=spec.to_dict(),
        dice=tuple(dice),
        kept=t.targets,
        result=t.total,
        outcome="rolled",
        flags=tuple(flags),
        effects=_effects(spec),
        details=_details(spec, t),
    )
