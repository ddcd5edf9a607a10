"""Dice pools of Mundo de Tinieblas: building a pool, throwing it, grading the result.

A pool is attribute + skill (+ specialty) ± modifiers − wound penalty, each d10 showing 8, 9
or 10 is a success, and 10-again (or 9-/8-again, or none) adds a die for each die at or over
the threshold, repeatedly. Rote rerolls once each failed die of the first throw. A final
pool of 0 or less rolls one chance die: 8-10 succeed (with 10-again) and a 1 is a
dramatic failure.

Decisions where the seed is silent (docs/rules.md#tinieblas-decisions):
- The chance die always uses 10-again (the seed says so) whatever the spec's again option,
  and rote does not apply to it.
- Rerolled (rote) dice and dice added by an again can themselves trigger the again; dice
  added by an again are not rerolled by rote (only the first throw is).
- Dice are thrown in this order: the whole pool, then for each die of the first throw in
  turn its rote reroll (if any) and the chain of agains it triggers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from mechanics.rules.dice import Die, Effects, RandomSource, RollRecord, default_rng
from mechanics.rules.errors import RuleError, gettext_noop

SYSTEM = "tinieblas"
SIDES = 10
SUCCESS_MIN = 8
EXCEPTIONAL_SUCCESSES = 5
AGAIN_OPTIONS: tuple[int | None, ...] = (10, 9, 8, None)
CHANCE_DIE_AGAIN = 10
RESISTANCE_ATTRIBUTES = frozenset({"aplomo", "resistencia", "compostura"})
SKILL_CATEGORIES = ("mental", "physical", "social")
WILLPOWER_USES = (None, "dice", "resistance")
WILLPOWER_DICE = 3
WILLPOWER_RESISTANCE = 2
CANNOT_ACT = "cannot act"
UNSKILLED_PENALTY = {"mental": -3, "physical": -1, "social": -1}
MAX_RATING = 10
MAX_EXTRA_DICE = 30
MAX_MODIFIER = 5
MAX_ATTEMPTS = 30
MAX_DICE = 100
MAX_HELPERS = 20

# Labels of the pool breakdown (msgids, translated by the UI).
LABEL_ATTRIBUTE = gettext_noop("Attribute")
LABEL_WILLPOWER_RESISTANCE = gettext_noop("Willpower: +2 to a resistance attribute")
LABEL_SKILL = gettext_noop("Skill")
LABEL_UNSKILLED_MENTAL = gettext_noop("Unskilled (Mental skill)")
LABEL_UNSKILLED_OTHER = gettext_noop("Unskilled (Physical or Social skill)")
LABEL_SPECIALTY = gettext_noop("Specialty")
LABEL_MODIFIER = gettext_noop("Modifier")
LABEL_MODIFIER_CAP = gettext_noop("Modifiers never go beyond ±5")
LABEL_EXTRA_DICE = gettext_noop("Extra dice")
LABEL_WILLPOWER_DICE = gettext_noop("Willpower: +3 dice")
LABEL_WOUND_PENALTY = gettext_noop("Wound penalty")
LABEL_RETRY = gettext_noop("Earlier failed attempts")
LABEL_TEAMWORK = gettext_noop("Helpers' successes")

Step = tuple[str, int]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(value: object, name: str, low: int, high: int) -> None:
    if not _is_int(value) or not low <= value <= high:
        raise RuleError(
            gettext_noop("%(name)s must be a whole number from %(low)s to %(high)s"),
            name=name,
            low=low,
            high=high,
        )


def check_again(again: object) -> None:
    if again not in AGAIN_OPTIONS or isinstance(again, bool):
        raise RuleError(gettext_noop("again must be 10, 9, 8 or none"))


@dataclass(frozen=True)
class PoolSpec:
    """How one roll is set up, before any die is thrown.

    `skill_category` None means the roll uses no skill (then `skill` must be 0 and there
    is no unskilled penalty). `attribute_key` (e.g. "compostura") is only needed to spend
    Willpower on a resistance attribute. `extra_dice` is a plain signed number of dice
    (weapon bonus, minus the target's Defensa, ...). `attempts` counts earlier failed
    attempts at the same action (−1 die each). `wound_penalty` is 0 or negative, or
    CANNOT_ACT ("cannot act") for an Incapacitado character, which no roll accepts.
    `unskilled_penalty` is the campaign setting of the same name.
    """

    attribute: int = 0
    skill: int = 0
    skill_category: str | None = None
    attribute_key: str | None = None
    specialty: bool = False
    modifiers: tuple[int, ...] = ()
    extra_dice: int = 0
    willpower: str | None = None
    willpower_pool: int = 0
    again: int | None = 10
    rote: bool = False
    attempts: int = 0
    wound_penalty: int | str = 0
    unskilled_penalty: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.modifiers, tuple):
            object.__setattr__(self, "modifiers", tuple(self.modifiers))
        _check_int(self.attribute, gettext_noop("attribute"), 0, MAX_RATING)
        _check_int(self.skill, gettext_noop("skill"), 0, MAX_RATING)
        if self.skill_category is None:
            if self.skill or self.specialty:
                raise RuleError(gettext_noop("a skill needs its category"))
        elif self.skill_category not in SKILL_CATEGORIES:
            raise RuleError(gettext_noop("skill category must be mental, physical or social"))
        if self.specialty and self.skill < 1:
            raise RuleError(gettext_noop("a specialty needs at least one dot in its skill"))
        for modifier in self.modifiers:
            if not _is_int(modifier) or not -MAX_MODIFIER <= modifier <= MAX_MODIFIER:
                raise RuleError(gettext_noop("modifier out of range ±5"))
            if modifier == 0:
                raise RuleError(gettext_noop("a modifier cannot be 0"))
        _check_int(self.extra_dice, gettext_noop("extra dice"), -MAX_EXTRA_DICE, MAX_EXTRA_DICE)
        if self.willpower not in WILLPOWER_USES:
            raise RuleError(gettext_noop("willpower use must be none, dice or resistance"))
        _check_int(self.willpower_pool, gettext_noop("willpower pool"), 0, 10)
        if self.willpower is not None and self.willpower_pool < 1:
            raise RuleError(gettext_noop("no willpower left"))
        if self.willpower == "resistance" and self.attribute_key not in RESISTANCE_ATTRIBUTES:
            raise RuleError(
                gettext_noop("Willpower adds +2 only to Aplomo, Resistencia or Compostura")
            )
        check_again(self.again)
        _check_int(self.attempts, gettext_noop("earlier attempts"), 0, MAX_ATTEMPTS)
        if self.wound_penalty == CANNOT_ACT:
            raise RuleError(gettext_noop("an Incapacitado character cannot act"))
        _check_int(self.wound_penalty, gettext_noop("wound penalty"), -10, 0)

    def to_dict(self) -> dict:
        return {
            "attribute": self.attribute,
            "skill": self.skill,
            "skill_category": self.skill_category,
            "attribute_key": self.attribute_key,
            "specialty": self.specialty,
            "modifiers": list(self.modifiers),
            "extra_dice": self.extra_dice,
            "willpower": self.willpower,
            "willpower_pool": self.willpower_pool,
            "again": self.again,
            "rote": self.rote,
            "attempts": self.attempts,
            "wound_penalty": self.wound_penalty,
            "unskilled_penalty": self.unskilled_penalty,
        }

    @classmethod
    def from_dict(cls, data: dict) -> PoolSpec:
        if not isinstance(data, dict):
            raise RuleError(gettext_noop("a roll spec must be a mapping"))
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise RuleError(gettext_noop("unknown roll spec field %(field)s"), field=min(unknown))
        values = dict(data)
        if "modifiers" in values:
            values["modifiers"] = tuple(values["modifiers"])
        return cls(**values)


@lru_cache(maxsize=4096)
def pool_breakdown(spec: PoolSpec) -> tuple[int, tuple[Step, ...]]:
    """The final pool (may be ≤ 0: chance die) and the ordered (label msgid, delta) steps."""
    steps: list[Step] = [(LABEL_ATTRIBUTE, spec.attribute)]
    if spec.willpower == "resistance":
        steps.append((LABEL_WILLPOWER_RESISTANCE, WILLPOWER_RESISTANCE))
    if spec.skill_category is not None:
        steps.append((LABEL_SKILL, spec.skill))
        if spec.skill == 0 and spec.unskilled_penalty:
            mental = spec.skill_category == "mental"
            label = LABEL_UNSKILLED_MENTAL if mental else LABEL_UNSKILLED_OTHER
            steps.append((label, UNSKILLED_PENALTY[spec.skill_category]))
    if spec.specialty:
        steps.append((LABEL_SPECIALTY, 1))
    steps.extend((LABEL_MODIFIER, modifier) for modifier in spec.modifiers)
    # Seed: modifiers "nunca van más allá de +/-5", so their total is held to ±5.
    total = sum(spec.modifiers)
    capped = max(-MAX_MODIFIER, min(MAX_MODIFIER, total))
    if capped != total:
        steps.append((LABEL_MODIFIER_CAP, capped - total))
    if spec.extra_dice:
        steps.append((LABEL_EXTRA_DICE, spec.extra_dice))
    if spec.willpower == "dice":
        steps.append((LABEL_WILLPOWER_DICE, WILLPOWER_DICE))
    if spec.wound_penalty:
        steps.append((LABEL_WOUND_PENALTY, spec.wound_penalty))
    if spec.attempts:
        steps.append((LABEL_RETRY, -spec.attempts))
    return sum(delta for _, delta in steps), tuple(steps)


def grade(successes: int, *, dramatic_failure: bool = False) -> str:
    """Outcome key for a number of successes."""
    if dramatic_failure:
        return "dramatic_failure"
    if successes <= 0:
        return "failure"
    if successes <= 2:
        return "marginal"
    if successes < EXCEPTIONAL_SUCCESSES:
        return "success"
    return "exceptional"


@lru_cache(maxsize=1024)
def _die(value: int, kind: str | None, again: int | None, dropped: bool = False) -> Die:
    # Dice are immutable and few distinct ones exist: sharing them keeps rolling cheap.
    tags = [kind] if kind else []
    if value >= SUCCESS_MIN:
        tags.append("success")
    if again is not None and value >= again:
        tags.append("exploded")
    tags.append("dropped" if dropped else "kept")
    return Die(SIDES, value, tuple(tags))


class _Throw(NamedTuple):
    dice: tuple[Die, ...]
    kept: tuple[int, ...]
    successes: int
    chance: bool
    dramatic_failure: bool
    exploded: bool
    rerolled: bool


def _throw(pool: int, again: int | None, rote: bool, rng: RandomSource) -> _Throw:
    randint = rng.randint
    if pool <= 0:
        first = randint(1, SIDES)
        dice = [_die(first, "chance", CHANCE_DIE_AGAIN)]
        successes = first >= SUCCESS_MIN
        value = first
        while value >= CHANCE_DIE_AGAIN:
            value = randint(1, SIDES)
            dice.append(_die(value, "explosion", CHANCE_DIE_AGAIN))
            successes += value >= SUCCESS_MIN
        return _Throw(
            dice=tuple(dice),
            kept=tuple(range(len(dice))),
            successes=int(successes),
            chance=True,
            dramatic_failure=first == 1,
            exploded=len(dice) > 1,
            rerolled=False,
        )
    threshold = again if again is not None else SIDES + 1
    first_throw = [randint(1, SIDES) for _ in range(pool)]
    dice: list[Die] = []
    kept: list[int] = []
    successes = 0
    for value in first_throw:
        dropped = rote and value < SUCCESS_MIN
        if not dropped:
            kept.append(len(dice))
            successes += value >= SUCCESS_MIN
        dice.append(_die(value, None, again, dropped))
    exploded = rerolled = False
    for value in first_throw:
        if rote and value < SUCCESS_MIN:
            rerolled = True
            value = randint(1, SIDES)
            kept.append(len(dice))
            dice.append(_die(value, "reroll", again))
            successes += value >= SUCCESS_MIN
        while value >= threshold:
            exploded = True
            value = randint(1, SIDES)
            kept.append(len(dice))
            dice.append(_die(value, "explosion", again))
            successes += value >= SUCCESS_MIN
    return _Throw(
        dice=tuple(dice),
        kept=tuple(kept),
        successes=successes,
        chance=False,
        dramatic_failure=False,
        exploded=exploded,
        rerolled=rerolled,
    )


def _flags(throw: _Throw, rote: bool) -> tuple[str, ...]:
    flags = []
    if throw.chance:
        flags.append("chance_die")
    if throw.exploded:
        flags.append("exploded")
    if rote and not throw.chance:
        flags.append("rote")
    return tuple(flags)


def _breakdown_details(pool: int, steps: tuple[Step, ...], again, rote, chance) -> dict:
    return {
        "pool": pool,
        "breakdown": [{"label": label, "delta": delta} for label, delta in steps],
        "chance_die": chance,
        "again": again,
        "rote": rote,
    }


_NO_EFFECTS = Effects()


def _effects(spec: PoolSpec) -> Effects:
    if spec.willpower is None and not spec.specialty:
        return _NO_EFFECTS
    return Effects(
        willpower_spent=1 if spec.willpower is not None else 0,
        specialization_used=spec.specialty,
    )


def _roll_steps(
    spec: PoolSpec, steps: tuple[Step, ...], kind: str, rng: RandomSource
) -> RollRecord:
    pool = sum(delta for _, delta in steps)
    throw = _throw(pool, spec.again, spec.rote, rng)
    return RollRecord(
        system=SYSTEM,
        kind=kind,
        spec=spec.to_dict(),
        dice=throw.dice,
        kept=throw.kept,
        result=throw.successes,
        outcome=grade(throw.successes, dramatic_failure=throw.dramatic_failure),
        flags=_flags(throw, spec.rote),
        effects=_effects(spec),
        details=_breakdown_details(pool, steps, spec.again, spec.rote, throw.chance),
    )


def roll_pool(spec: PoolSpec, rng: RandomSource | None = None) -> RollRecord:
    """Roll one pool; `result` is the number of successes, `outcome` its grade."""
    _, steps = pool_breakdown(spec)
    return _roll_steps(spec, steps, "pool", rng or default_rng())


def roll_dice(
    n: int, again: int | None = 10, rote: bool = False, rng: RandomSource | None = None
) -> RollRecord:
    """A bare roll of n d10 ("5d10 9-again") for a GM's free roller; n ≤ 0 is a chance die."""
    _check_int(n, gettext_noop("dice"), -MAX_DICE, MAX_DICE)
    check_again(again)
    throw = _throw(n, again, bool(rote), rng or default_rng())
    return RollRecord(
        system=SYSTEM,
        kind="dice",
        spec={"dice": n, "again": again, "rote": bool(rote)},
        dice=throw.dice,
        kept=throw.kept,
        result=throw.successes,
        outcome=grade(throw.successes, dramatic_failure=throw.dramatic_failure),
        flags=_flags(throw, bool(rote)),
        details={"pool": n, "chance_die": throw.chance, "again": again, "rote": bool(rote)},
    )


def roll_extended(
    spec: PoolSpec,
    *,
    target: int,
    progress: int,
    rolls_made: int,
    max_rolls: int | None = None,
    rng: RandomSource | None = None,
) -> RollRecord:
    """One roll of an extended action: successes accumulate toward `target`.

    `progress` and `rolls_made` are the totals before this roll. `details` holds the new
    `progress`, `rolls_made`, `target`, `max_rolls`, `reached` (target met), and `done`
    (reached, out of rolls, or ended by a dramatic failure, which adds nothing).
    `outcome` grades this roll alone.
    """
    _check_int(target, gettext_noop("target"), 1, 1000)
    _check_int(progress, gettext_noop("progress"), 0, 1000)
    _check_int(rolls_made, gettext_noop("rolls made"), 0, 1000)
    if max_rolls is not None:
        _check_int(max_rolls, gettext_noop("maximum rolls"), 1, 1000)
        if rolls_made >= max_rolls:
            raise RuleError(gettext_noop("no rolls left for this extended action"))
    if progress >= target:
        raise RuleError(gettext_noop("the extended action is already complete"))
    record = roll_pool(spec, rng)
    dramatic = record.outcome == "dramatic_failure"
    new_progress = progress if dramatic else progress + record.result
    made = rolls_made + 1
    reached = new_progress >= target
    out_of_rolls = max_rolls is not None and made >= max_rolls
    details = dict(record.details)
    details.update(
        target=target,
        previous_progress=progress,
        progress=new_progress,
        rolls_made=made,
        max_rolls=max_rolls,
        reached=reached,
        done=reached or out_of_rolls or dramatic,
    )
    flags = record.flags + (("reached",) if reached else ())
    return RollRecord(
        system=SYSTEM,
        kind="extended",
        spec=record.spec,
        dice=record.dice,
        kept=record.kept,
        result=record.result,
        outcome=record.outcome,
        flags=flags,
        effects=record.effects,
        details=details,
    )


def roll_opposed(spec_a: PoolSpec, spec_b: PoolSpec, rng: RandomSource | None = None) -> RollRecord:
    """Both sides roll; more successes wins, equal is a tie.

    `outcome` is "a_wins", "b_wins" or "tie"; `result` is side A's successes. `dice` are
    A's dice then B's (`details["split"]` is where B's start); `details["a"]` and
    `details["b"]` hold each side's full record. `effects` are side A's; side B's are in
    `details["b"]["effects"]`.
    """
    rng = rng or default_rng()
    a = roll_pool(spec_a, rng)
    b = roll_pool(spec_b, rng)
    if a.result > b.result:
        outcome = "a_wins"
    elif b.result > a.result:
        outcome = "b_wins"
    else:
        outcome = "tie"
    split = len(a.dice)
    flags = tuple(f"{flag}_a" for flag in a.flags) + tuple(f"{flag}_b" for flag in b.flags)
    if a.outcome == "dramatic_failure":
        flags += ("dramatic_failure_a",)
    if b.outcome == "dramatic_failure":
        flags += ("dramatic_failure_b",)
    return RollRecord(
        system=SYSTEM,
        kind="opposed",
        spec={"a": a.spec, "b": b.spec},
        dice=a.dice + b.dice,
        kept=a.kept + tuple(split + i for i in b.kept),
        result=a.result,
        outcome=outcome,
        flags=flags,
        effects=a.effects,
        details={
            "split": split,
            "successes_a": a.result,
            "successes_b": b.result,
            "margin": a.result - b.result,
            "a": a.to_dict(),
            "b": b.to_dict(),
        },
    )


def roll_teamwork(
    main_spec: PoolSpec,
    helper_specs: tuple[PoolSpec, ...] | list[PoolSpec],
    rng: RandomSource | None = None,
) -> RollRecord:
    """Each helper rolls first; the main actor's pool gains one die per helper success.

    `dice` are the helpers' dice then the main actor's (`details["split"]`); `kept` and
    `result` are the main roll's; `details["helpers"]` holds each helper's record.
    """
    helper_specs = tuple(helper_specs)
    if len(helper_specs) > MAX_HELPERS:
        raise RuleError(gettext_noop("at most %(count)s helpers"), count=MAX_HELPERS)
    rng = rng or default_rng()
    helpers = [roll_pool(spec, rng) for spec in helper_specs]
    bonus = sum(helper.result for helper in helpers)
    _, steps = pool_breakdown(main_spec)
    if helpers:
        steps = (*steps, (LABEL_TEAMWORK, bonus))
    main = _roll_steps(main_spec, steps, "teamwork", rng)
    helper_dice = tuple(die for helper in helpers for die in helper.dice)
    split = len(helper_dice)
    details = dict(main.details)
    details.update(
        split=split,
        bonus=bonus,
        helper_successes=[helper.result for helper in helpers],
        helpers=[helper.to_dict() for helper in helpers],
    )
    return RollRecord(
        system=SYSTEM,
        kind="teamwork",
        spec={"main": main.spec, "helpers": [helper.spec for helper in helpers]},
        dice=helper_dice + main.dice,
        kept=tuple(split + i for i in main.kept),
        result=main.result,
        outcome=main.outcome,
        flags=main.flags,
        effects=main.effects,
        details=details,
    )
