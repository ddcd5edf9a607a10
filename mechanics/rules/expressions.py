"""Dice expressions for a GM's free roller: parse text such as "5d10 9-again", "2d6+3",
"3d10 central" or "4d6kh3", and roll it.

Two kinds of expression:
- a **success pool** (Mundo de Tinieblas): N d10, each 8+ a success, with 10-again (or
  9-again, 8-again, no-again) and rote; "chance" rolls the chance die. Rolled by
  `mechanics.rules.tinieblas.rolls.roll_dice`.
- a **sum**: dice groups and whole numbers added or subtracted ("3d6+1d4-1d4+2"). A group
  may keep some dice: "central" (the median, as in Hitos and 1o3d10), "kh2"/"kl1" (the
  highest/lowest), and may explode ("!" or "explode": a die at its maximum adds a die;
  a group keeping one die is thrown again and added when the kept die shows its maximum,
  as the 1o3d10 target die does).

A bare "Nd10" is a success pool when the caller says pools are the default (a Mundo de
Tinieblas campaign) and a sum otherwise; "pool"/"sum" force either reading.

Pure: no Django, no global random state. Errors are `ExpressionError` (a `RuleError`)
with an English msgid the web side translates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from mechanics.rules.dice import Die, RandomSource, RollRecord, default_rng, roll_die
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.tinieblas.rolls import roll_dice

SYSTEM = "free"
MAX_LENGTH = 200
MAX_DICE = 100
MAX_SIDES = 1000
MAX_GROUPS = 10
MAX_CONSTANT = 10_000
MAX_NUMBER_DIGITS = 6
# Exploding dice stop after this many extra dice (the odds of going further are nil).
MAX_EXPLOSIONS = 100

KEEP_HIGH = "high"
KEEP_LOW = "low"
KEEP_CENTRAL = "central"

_KEYWORDS = {
    "central": "central",
    "median": "central",
    "mediana": "central",
    "rote": "rote",
    "chance": "chance",
    "oportunidad": "chance",
    "pool": "pool",
    "successes": "pool",
    "exitos": "pool",
    "éxitos": "pool",
    "sum": "sum",
    "suma": "sum",
    "total": "sum",
    "explode": "explode",
    "exploding": "explode",
    "explota": "explode",
    "no-again": "no-again",
    "noagain": "no-again",
    "sin-again": "no-again",
}

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<again>(?P<again_n>\d+)\s*-?\s*again\b)
  | (?P<central_dice>(?P<co_keep>\d+)\s*o\s*(?P<co_count>\d+)\s*d\s*(?P<co_sides>\d+))
  | (?P<dice>(?P<count>\d*)\s*d\s*(?P<sides>\d+|%)(?P<bang>!?)
        (?:\s*k(?P<keep_dir>[hl]?)\s*(?P<keep_n>\d+))?)
  | (?P<number>\d+)
  | (?P<sign>[+-])
  | (?P<word>[^\W\d_]+(?:-[^\W\d_]+)?)
  | (?P<other>.)
    """,
    re.VERBOSE,
)


class ExpressionError(RuleError):
    """A dice expression that cannot be read or rolled; `str()` is the English message."""


@dataclass(frozen=True)
class DiceGroup:
    """One group of dice in a sum: `count` dice of `sides` sides, added or subtracted."""

    count: int
    sides: int
    negative: bool = False
    keep: str | None = None  # KEEP_HIGH, KEEP_LOW or KEEP_CENTRAL
    keep_count: int = 0
    explode: bool = False

    @property
    def keeps_one(self) -> bool:
        return self.keep is not None and self.keep_count == 1

    def text(self) -> str:
        out = f"{self.count}d{self.sides}"
        if self.explode:
            out += "!"
        if self.keep == KEEP_HIGH:
            out += f"kh{self.keep_count}"
        elif self.keep == KEEP_LOW:
            out += f"kl{self.keep_count}"
        return out


@dataclass(frozen=True)
class Expression:
    """A parsed expression. `pool` selects the success-pool reading."""

    groups: tuple[DiceGroup, ...] = ()
    constant: int = 0
    pool: bool = False
    again: int | None = 10
    rote: bool = False
    chance: bool = False

    @property
    def dice_count(self) -> int:
        return sum(group.count for group in self.groups)

    def text(self) -> str:
        """The expression written the standard way ("5d10 9-again", "3d10 central +2")."""
        if self.pool:
            if self.chance:
                return "chance"
            out = f"{self.groups[0].count}d10"
            # Written so that it reads as a pool in any campaign.
            if self.again != 10 or not self.rote:
                out += f" {self.again}-again" if self.again else " no-again"
            if self.rote:
                out += " rote"
            return out
        parts: list[str] = []
        central = False
        for group in self.groups:
            central = central or group.keep == KEEP_CENTRAL
            sign = "-" if group.negative else "+"
            parts.append(f"{sign}{group.text()}" if parts or group.negative else group.text())
        if self.constant:
            parts.append(f"{self.constant:+d}")
        out = "".join(parts)
        if central:
            return f"{out} central"
        # A lone group of d10 reads as a success pool where pools are the default.
        return f"{out} sum" if self._bare_d10() else out

    def _bare_d10(self) -> bool:
        if len(self.groups) != 1 or self.constant:
            return False
        group = self.groups[0]
        return group.sides == 10 and not (group.negative or group.keep or group.explode)


def _error(template: str, **params: object) -> ExpressionError:
    return ExpressionError(template, **params)


def _number(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _error(gettext_noop("The number %(number)s is too large."), number=text)
    return int(text)


@dataclass
class _State:
    groups: list[DiceGroup]
    constant: int = 0
    sign: int | None = None  # pending "+"/"-" waiting for its operand
    operands: int = 0
    again: int | None = 10
    again_given: bool = False
    rote: bool = False
    chance: bool = False
    pool: bool = False
    sum: bool = False
    central: bool = False
    explode: bool = False


def _add_operand(state: _State, token: str) -> int:
    """Sign of the operand just read; two operands need a + or - between them."""
    if state.operands and state.sign is None:
        raise _error(
            gettext_noop("Put + or - before “%(token)s”."),
            token=token,
        )
    negative = state.sign == -1
    state.sign = None
    state.operands += 1
    return -1 if negative else 1


def _dice_group(
    count: int,
    sides: int,
    sign: int,
    *,
    keep_dir: str | None = None,
    keep_n: str | None = None,
    explode: bool = False,
) -> DiceGroup:
    if not 1 <= count <= MAX_DICE:
        raise _error(
            gettext_noop("Roll from 1 to %(max)s dice in a group."),
            max=MAX_DICE,
        )
    if not 2 <= sides <= MAX_SIDES:
        raise _error(
            gettext_noop("Dice have from 2 to %(max)s sides."),
            max=MAX_SIDES,
        )
    keep = None
    keep_count = 0
    if keep_n is not None:
        keep = KEEP_LOW if keep_dir == "l" else KEEP_HIGH
        keep_count = _number(keep_n)
        if not 1 <= keep_count <= count:
            raise _error(
                gettext_noop("Keep from 1 to %(count)s dice of %(dice)s."),
                count=count,
                dice=f"{count}d{sides}",
            )
    return DiceGroup(
        count=count,
        sides=sides,
        negative=sign < 0,
        keep=keep,
        keep_count=keep_count,
        explode=explode,
    )


def _read(text: str, state: _State) -> None:
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        token = match.group(0)
        if kind == "space":
            continue
        if kind == "again" or (kind == "word" and _KEYWORDS.get(token) == "no-again"):
            if state.again_given:
                raise _error(gettext_noop("Choose only one again option."))
            state.again_given = True
            state.pool = True
            if kind == "again":
                state.again = _number(match.group("again_n"))
                if state.again not in (8, 9, 10):
                    raise _error(gettext_noop("The again option is 10-again, 9-again or 8-again."))
            else:
                state.again = None
        elif kind == "central_dice":
            sign = _add_operand(state, token)
            if _number(match.group("co_keep")) != 1:
                raise _error(gettext_noop("Only one central die can be kept, as in 1o3d10."))
            count, sides = _number(match.group("co_count")), _number(match.group("co_sides"))
            state.groups.append(_dice_group(count, sides, sign))
            state.central = True
        elif kind == "dice":
            sign = _add_operand(state, token)
            count = _number(match.group("count")) if match.group("count") else 1
            sides_text = match.group("sides")
            sides = 100 if sides_text == "%" else _number(sides_text)
            group = _dice_group(
                count,
                sides,
                sign,
                keep_dir=match.group("keep_dir"),
                keep_n=match.group("keep_n"),
                explode=bool(match.group("bang")),
            )
            state.groups.append(group)
        elif kind == "number":
            sign = _add_operand(state, token)
            state.constant += sign * _number(token)
        elif kind == "sign":
            if state.sign is not None:
                raise _error(gettext_noop("Two signs in a row: “%(token)s”."), token=token)
            state.sign = -1 if token == "-" else 1
        elif kind == "word" and token in _KEYWORDS:
            keyword = _KEYWORDS[token]
            if keyword == "central":
                state.central = True
            elif keyword == "rote":
                state.rote = state.pool = True
            elif keyword == "chance":
                state.chance = state.pool = True
            elif keyword == "pool":
                state.pool = True
            elif keyword == "sum":
                state.sum = True
            elif keyword == "explode":
                state.explode = True
        elif token == "d":
            raise _error(gettext_noop("Say how many sides the dice have, like 5d10."))
        else:
            raise _error(gettext_noop("I do not understand “%(token)s”."), token=token)
        if len(state.groups) > MAX_GROUPS:
            raise _error(gettext_noop("Use at most %(max)s groups of dice."), max=MAX_GROUPS)
    if state.sign is not None:
        raise _error(gettext_noop("The expression ends with a sign."))


def _as_pool(state: _State) -> Expression:
    if state.sum:
        raise _error(gettext_noop("Choose either a success pool or a sum, not both."))
    if state.chance:
        if state.groups or state.constant:
            raise _error(gettext_noop("The chance die is rolled alone: write just “chance”."))
        return Expression(pool=True, chance=True, again=10)
    group = state.groups[0] if len(state.groups) == 1 else None
    if (
        group is None
        or group.sides != 10
        or group.negative
        or group.keep
        or group.explode
        or state.constant
        or state.central
        or state.explode
    ):
        raise _error(
            gettext_noop(
                "A success pool is a number of d10 with its options, like “5d10 9-again”"
                " or “8d10 rote”."
            )
        )
    return Expression(groups=(group,), pool=True, again=state.again, rote=state.rote)


def _as_sum(state: _State) -> Expression:
    groups = list(state.groups)
    if state.central:
        if len(groups) != 1:
            raise _error(gettext_noop("“central” needs exactly one group of dice, like 3d10."))
        group = groups[0]
        if group.keep is not None:
            raise _error(gettext_noop("Choose either “central” or kh/kl, not both."))
        if group.count % 2 == 0:
            raise _error(
                gettext_noop("“central” needs an odd number of dice, like 3d10."),
            )
        groups[0] = replace(group, keep=KEEP_CENTRAL, keep_count=1)
    if state.explode:
        groups = [replace(group, explode=True) for group in groups]
    for group in groups:
        if group.explode and group.keep is not None and not group.keeps_one:
            raise _error(
                gettext_noop("Exploding dice can keep only one die (central, kh1 or kl1)."),
            )
    constant = state.constant
    if abs(constant) > MAX_CONSTANT:
        raise _error(
            gettext_noop("Add at most %(max)s to a roll."),
            max=MAX_CONSTANT,
        )
    return Expression(groups=tuple(groups), constant=constant)


def parse(text: str, *, pools: bool = False) -> Expression:
    """Read a dice expression. `pools`: a bare "Nd10" is a success pool (Tinieblas)."""
    if not isinstance(text, str):
        raise _error(gettext_noop("Write a dice expression, like 2d6+3."))
    cleaned = text.strip().lower().replace("−", "-").replace("–", "-").replace("＋", "+")
    if not cleaned:
        raise _error(gettext_noop("Write a dice expression, like 2d6+3."))
    if len(cleaned) > MAX_LENGTH:
        raise _error(
            gettext_noop("Write at most %(max)s characters."),
            max=MAX_LENGTH,
        )
    state = _State(groups=[])
    _read(cleaned, state)
    if state.groups and all(g.negative for g in state.groups) and state.constant <= 0:
        # "-3d6" with nothing to take the dice from reads as a negative number of dice.
        raise _error(
            gettext_noop(
                "The number of dice cannot be negative: roll 3d6, or take dice away from "
                "something, like 10-2d6."
            )
        )
    if not state.groups and not state.chance:
        raise _error(gettext_noop("Roll at least one die, like 1d10."))
    if sum(group.count for group in state.groups) > MAX_DICE:
        raise _error(gettext_noop("Roll at most %(max)s dice at once."), max=MAX_DICE)
    bare_d10 = (
        len(state.groups) == 1
        and state.groups[0].sides == 10
        and not state.groups[0].negative
        and not state.groups[0].keep
        and not state.groups[0].explode
        and not state.constant
        and not state.central
        and not state.explode
    )
    if state.pool or (pools and bare_d10 and not state.sum):
        return _as_pool(state)
    return _as_sum(state)


def _throw_group(group: DiceGroup, rng: RandomSource) -> tuple[list[Die], int]:
    """Every die of one group in throw order, and the group's value (before its sign)."""
    base = ("negative",) if group.negative else ()
    sides = group.sides
    if group.keep is None:
        dice: list[Die] = []
        total = extra = 0
        for _ in range(group.count):
            value = roll_die(rng, sides)
            tags: tuple[str, ...] = ()
            while group.explode and value == sides and extra < MAX_EXPLOSIONS:
                dice.append(Die(sides, value, ("kept", "exploded", *tags, *base)))
                total += value
                extra += 1
                value = roll_die(rng, sides)
                tags = ("explosion",)
            dice.append(Die(sides, value, ("kept", *tags, *base)))
            total += value
        return dice, total
    dice = []
    total = throws = 0
    while True:
        values = [roll_die(rng, sides) for _ in range(group.count)]
        order = sorted(range(group.count), key=values.__getitem__)
        if group.keep == KEEP_CENTRAL:
            kept = {order[group.count // 2]}
        elif group.keep == KEEP_HIGH:
            kept = set(order[-group.keep_count :])
        else:
            kept = set(order[: group.keep_count])
        exploding = (
            group.explode
            and values[next(iter(kept))] == sides
            and throws * group.count < MAX_EXPLOSIONS
        )
        tail = ("explosion", *base) if throws else base
        for index, value in enumerate(values):
            if index in kept:
                tags = ("kept", "exploded", *tail) if exploding else ("kept", *tail)
                total += value
            else:
                tags = ("dropped", *tail)
            dice.append(Die(sides, value, tags))
        throws += 1
        if not exploding:
            return dice, total


def roll_expression(expression: Expression, rng: RandomSource | None = None) -> RollRecord:
    """Roll a parsed expression. A pool's `result` is its successes and its outcome the
    Tinieblas grade; a sum's `result` is the total and its outcome "rolled"."""
    rng = rng or default_rng()
    text = expression.text()
    if expression.pool:
        count = 0 if expression.chance else expression.groups[0].count
        record = roll_dice(count, expression.again, expression.rote, rng)
        return replace(
            record,
            system=SYSTEM,
            kind="pool",
            spec={**record.spec, "expression": text},
            details={**record.details, "expression": text},
        )
    dice: list[Die] = []
    total = expression.constant
    values = []
    for group in expression.groups:
        thrown, value = _throw_group(group, rng)
        dice.extend(thrown)
        total += -value if group.negative else value
        values.append(-value if group.negative else value)
    kept = tuple(i for i, die in enumerate(dice) if "kept" in die.tags)
    exploded = any("exploded" in die.tags for die in dice)
    return RollRecord(
        system=SYSTEM,
        kind="sum",
        spec={"expression": text},
        dice=tuple(dice),
        kept=kept,
        result=total,
        outcome="rolled",
        flags=("exploded",) if exploded else (),
        details={
            "expression": text,
            "groups": [group.text() for group in expression.groups],
            "group_values": values,
            "constant": expression.constant,
        },
    )
