"""Hitos rolls: 3d10 sorted m ≤ C ≤ M, keep C (docs/rules.md#hitos-rolls).

Decisions where the texts are silent:
- A crítico (two or three 10s) or pifia (two or three 1s) does not change success, which
  is decided by the total alone; they only add a flag and offer a temporary aspect. The
  outcome key is "critical" for a successful crítico and "dramatic_failure" for a failed
  pifia; otherwise "success" / "failure" with the flag kept.
- Improving (M) and hindering (m) the same roll cancel out: C is kept.
- Ratings in a roll may be 0–20 (creatures exceed the 1–10 / 0–10 sheet ranges),
  modifiers ±10, wound penalties −5..0 (drugs shrink them), difficulties −20..60
  (Defensa can drop below 0 with penalties).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from mechanics.rules.dice import Die, Effects, RandomSource, RollRecord, default_rng
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.hitos.catalogue import (
    ASPECT_TYPES_BY_KEY,
    DAMAGE_CATEGORIES,
    DamageCategory,
)
from mechanics.rules.hitos.traits import check_wound_penalty, initiative_base

SYSTEM = "hitos"
RATING_LIMIT = 20
MODIFIER_LIMIT = 10
DIFFICULTY_MIN = -20
DIFFICULTY_MAX = 60
WEAPON_CONSTANT_LIMIT = 20
DAMAGE_SHIFT_LIMIT = 5
DIE_NAMES = ("m", "C", "M")
PAYMENTS = ("drama_point", "exhaust")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_range(value: object, low: int, high: int, template: str) -> None:
    if not _is_int(value) or not low <= value <= high:
        raise RuleError(template, low=low, high=high)


@dataclass(frozen=True)
class AspectActivation:
    """How a player pays to activate an aspect: a drama point from their pool, or by
    exhausting one of their own aspects.

    `drama_points` is the pool the activating player has now; `exhausted` says whether
    the aspect is already exhausted. Validation happens on construction.
    """

    aspect: str
    aspect_type: str = "propio"
    pay: str = "drama_point"
    drama_points: int = 0
    exhausted: bool = False

    def __post_init__(self) -> None:
        if not self.aspect.strip():
            raise RuleError(gettext_noop("name the aspect you activate"))
        if self.aspect_type not in ASPECT_TYPES_BY_KEY:
            raise RuleError(gettext_noop("unknown aspect type %(type)s"), type=self.aspect_type)
        if self.pay not in PAYMENTS:
            raise RuleError(
                gettext_noop("an aspect is activated with a drama point or by exhausting it")
            )
        if not _is_int(self.drama_points) or self.drama_points < 0:
            raise RuleError(gettext_noop("drama points must be a whole number ≥ 0"))
        if self.aspect_type == "implicito" and (self.pay == "exhaust" or self.exhausted):
            raise RuleError(gettext_noop("an implícito aspect can never be exhausted"))
        if self.pay == "exhaust" and not ASPECT_TYPES_BY_KEY[self.aspect_type].can_exhaust:
            raise RuleError(gettext_noop("you can only exhaust your own character's aspects"))
        # The owner cannot use an exhausted aspect again, whatever they pay; others can.
        if self.exhausted and self.aspect_type == "propio":
            raise RuleError(gettext_noop("%(aspect)s is already exhausted"), aspect=self.aspect)
        if self.pay == "drama_point" and self.drama_points < 1:
            raise RuleError(gettext_noop("no drama points left"))

    @property
    def hands_drama_point(self) -> bool:
        """Using another character's aspect against them hands them the drama point."""
        return self.pay == "drama_point" and self.aspect_type == "ajeno"

    def effects(self) -> Effects:
        if self.pay == "drama_point":
            return Effects(drama_points_spent=1)
        return Effects(aspects_exhausted=(self.aspect,))

    def to_dict(self) -> dict:
        return {
            "aspect": self.aspect,
            "aspect_type": self.aspect_type,
            "pay": self.pay,
            "drama_points": self.drama_points,
            "exhausted": self.exhausted,
        }


def declare_fact(activation: AspectActivation) -> Effects:
    """Activate an aspect to declare a narrative fact: no dice, only the cost.

    (Validation already ran when `activation` was built.) The Django side logs the fact
    and, when `activation.hands_drama_point`, gives the point to the aspect's owner.
    """
    return activation.effects()


@dataclass(frozen=True)
class HitosSpec:
    """One check: 3d10, keep C (M when improved, m when hindered) + characteristic +
    skill + modifier + wound penalty, against a difficulty.

    `improve`: an aspect was activated for this roll (its cost in `activation`, which
    may be None when the cost is settled elsewhere, e.g. by the GM). `hinder`: an
    opponent activated an aspect against this roll (they pay on their side).
    `equal_succeeds`: the campaign setting "a result equal to the difficulty succeeds".
    """

    characteristic: int
    skill: int
    difficulty: int
    modifier: int = 0
    wound_penalty: int = 0
    improve: bool = False
    hinder: bool = False
    equal_succeeds: bool = False
    activation: AspectActivation | None = None

    def __post_init__(self) -> None:
        _check_range(
            self.characteristic,
            0,
            RATING_LIMIT,
            gettext_noop("characteristic must be between %(low)s and %(high)s"),
        )
        _check_range(
            self.skill, 0, RATING_LIMIT, gettext_noop("skill must be between %(low)s and %(high)s")
        )
        _check_range(
            self.difficulty,
            DIFFICULTY_MIN,
            DIFFICULTY_MAX,
            gettext_noop("difficulty must be between %(low)s and %(high)s"),
        )
        if not _is_int(self.modifier) or abs(self.modifier) > MODIFIER_LIMIT:
            raise RuleError(gettext_noop("modifier out of range ±%(limit)s"), limit=MODIFIER_LIMIT)
        check_wound_penalty(self.wound_penalty)
        if self.activation is not None:
            if not isinstance(self.activation, AspectActivation):
                raise RuleError(gettext_noop("invalid aspect activation"))
            if not self.improve:
                raise RuleError(gettext_noop("an aspect activated on your roll must improve it"))

    @property
    def bonus(self) -> int:
        """Everything added to the kept die."""
        return self.characteristic + self.skill + self.modifier + self.wound_penalty

    @property
    def shift(self) -> int:
        """−1 keeps m, 0 keeps C, +1 keeps M."""
        return int(self.improve) - int(self.hinder)

    @cached_property
    def _dict(self) -> dict:
        return {
            "characteristic": self.characteristic,
            "skill": self.skill,
            "difficulty": self.difficulty,
            "modifier": self.modifier,
            "wound_penalty": self.wound_penalty,
            "improve": self.improve,
            "hinder": self.hinder,
            "equal_succeeds": self.equal_succeeds,
            "activation": None if self.activation is None else self.activation.to_dict(),
        }

    def to_dict(self) -> dict:
        data = dict(self._dict)
        if data["activation"] is not None:
            data["activation"] = dict(data["activation"])
        return data

    @classmethod
    def from_dict(cls, data: dict) -> HitosSpec:
        data = dict(data)
        if data.get("activation") is not None:
            data["activation"] = AspectActivation(**data["activation"])
        return cls(**data)


def spec_for_bonus(
    bonus: int, difficulty: int, shift: int = 0, equal_succeeds: bool = False
) -> HitosSpec:
    """A spec whose characteristic + skill equals `bonus` (characteristic up to 10 first,
    skill up to 20)."""
    if shift not in (-1, 0, 1):
        raise RuleError(gettext_noop("shift must be -1, 0 or 1"))
    _check_range(
        bonus, 0, 2 * RATING_LIMIT, gettext_noop("bonus must be between %(low)s and %(high)s")
    )
    characteristic = max(min(bonus, 10), bonus - RATING_LIMIT)
    return HitosSpec(
        characteristic,
        bonus - characteristic,
        difficulty,
        improve=shift == 1,
        hinder=shift == -1,
        equal_succeeds=equal_succeeds,
    )


def sort_dice(d1: int, d2: int, d3: int) -> tuple[int, int, int]:
    """(m, C, M): the three dice from lowest to highest."""
    low, mid, high = sorted((d1, d2, d3))
    return low, mid, high


def succeeds(total: int, difficulty: int, equal_succeeds: bool = False) -> bool:
    """The seed's rule: greater than the difficulty; the setting also accepts equal."""
    return total > difficulty or (equal_succeeds and total == difficulty)


def _special(sorted_dice: tuple[int, int, int]) -> tuple[str | None, str | None]:
    """(flag, duration): crítico on two or three 10s, pifia on two or three 1s."""
    low, mid, high = sorted_dice
    if mid == 10:
        return "critical", "session" if low == 10 else "scene"
    if mid == 1:
        return "fumble", "session" if high == 1 else "scene"
    return None, None


def _throw(rng: RandomSource | None) -> tuple[int, int, int]:
    if rng is None:
        rng = default_rng()
    return rng.randint(1, 10), rng.randint(1, 10), rng.randint(1, 10)


# Dice are immutable, so each (value, kept) pair is built once and shared.
_KEPT_DIE = {value: Die(10, value, ("kept",)) for value in range(1, 11)}
_DROPPED_DIE = {value: Die(10, value, ("dropped",)) for value in range(1, 11)}


def _evaluate(
    values: tuple[int, int, int], shift: int
) -> tuple[tuple[int, int, int], int, tuple[Die, ...]]:
    """Sorted dice, the kept value and the dice as thrown, the kept one tagged."""
    order = sorted((0, 1, 2), key=values.__getitem__)
    kept_index = order[1 + shift]
    dice = tuple(
        _KEPT_DIE[value] if i == kept_index else _DROPPED_DIE[value]
        for i, value in enumerate(values)
    )
    sorted_dice = (values[order[0]], values[order[1]], values[order[2]])
    return sorted_dice, values[kept_index], dice


def _resolve(
    values: tuple[int, int, int],
    kind: str,
    spec_dict: dict,
    bonus: int,
    difficulty: int,
    shift: int = 0,
    equal_succeeds: bool = False,
    activation: AspectActivation | None = None,
) -> tuple[RollRecord, bool, tuple[int, int, int], str | None]:
    """The record of a thrown check, plus (success, sorted dice, special duration)."""
    sorted_dice, kept, dice = _evaluate(values, shift)
    total = kept + bonus
    success = succeeds(total, difficulty, equal_succeeds)
    special, duration = _special(sorted_dice)
    if special == "critical" and success:
        outcome = "critical"
    elif special == "fumble" and not success:
        outcome = "dramatic_failure"
    else:
        outcome = "success" if success else "failure"
    flags = []
    if special:
        flags.append(special)
        if duration == "session":
            flags.append("triple")
    if shift > 0:
        flags.append("improved")
    elif shift < 0:
        flags.append("hindered")
    cost = activation.effects() if activation is not None else Effects()
    effects = Effects(
        drama_points_spent=cost.drama_points_spent,
        aspects_exhausted=cost.aspects_exhausted,
        temporary_aspect=duration,
    )
    details = {
        "m": sorted_dice[0],
        "C": sorted_dice[1],
        "M": sorted_dice[2],
        "kept_die": DIE_NAMES[1 + shift],
        "bonus": bonus,
        "difficulty": difficulty,
        "margin": total - difficulty,
        "drama_point_to_owner": activation is not None and activation.hands_drama_point,
    }
    record = RollRecord(
        system=SYSTEM,
        kind=kind,
        spec=spec_dict,
        dice=dice,
        kept=(kept,),
        result=total,
        outcome=outcome,
        flags=tuple(flags),
        effects=effects,
        details=details,
    )
    return record, success, sorted_dice, duration


def _resolve_spec(
    spec: HitosSpec, values: tuple[int, int, int], kind: str
) -> tuple[RollRecord, bool, tuple[int, int, int], str | None]:
    return _resolve(
        values,
        kind,
        spec.to_dict(),
        spec.bonus,
        spec.difficulty,
        spec.shift,
        spec.equal_succeeds,
        spec.activation,
    )


def roll_check(spec: HitosSpec, rng: RandomSource | None = None) -> RollRecord:
    """Throw 3d10 for a check; `result` is the total, `kept` the die used.

    `effects.temporary_aspect` offers "scene" (double 10 or 1) or "session" (triple);
    the activation's cost is in `effects.drama_points_spent` / `aspects_exhausted`.
    """
    record, _, _, _ = _resolve_spec(spec, _throw(rng), "check")
    return record


def roll_test(
    kind: str,
    base: int,
    difficulty: int,
    rng: RandomSource | None = None,
    *,
    shift: int = 0,
    equal_succeeds: bool = False,
) -> RollRecord:
    """A fixed-formula test (base + kept die vs difficulty), such as Aguante + C vs 12.

    Used for tests whose base is not characteristic + skill (health tests).
    """
    if shift not in (-1, 0, 1):
        raise RuleError(gettext_noop("shift must be -1, 0 or 1"))
    spec_dict = {
        "base": base,
        "difficulty": difficulty,
        "shift": shift,
        "equal_succeeds": equal_succeeds,
    }
    record, _, _, _ = _resolve(
        _throw(rng), kind, spec_dict, base, difficulty, shift, equal_succeeds
    )
    return record


_WEAPON_RE = re.compile(r"^([mCM](?:\+[mCM])*)([+-]\d+)?$")


def parse_weapon(text: str) -> tuple[DamageCategory, int]:
    """Split weapon notation into category and constant: "C+1" -> (C, 1),
    "m+C+M" -> (m+C+M, 0); a category key ("menor_central") is accepted too."""
    compact = text.replace(" ", "")
    for category in DAMAGE_CATEGORIES:
        if compact == category.key:
            return category, 0
    match = _WEAPON_RE.match(compact)
    if match is None:
        raise RuleError(gettext_noop("unknown weapon damage category %(category)s"), category=text)
    letters = match.group(1).split("+")
    wanted = tuple(sorted(DIE_NAMES.index(letter) for letter in letters))
    for category in DAMAGE_CATEGORIES:
        if category.dice == wanted and len(letters) == len(set(letters)):
            return category, int(match.group(2) or 0)
    raise RuleError(gettext_noop("unknown weapon damage category %(category)s"), category=text)


def shift_category(category: DamageCategory, steps: int) -> DamageCategory:
    """Move a category along m < C < M < m+C < C+M < m+C+M, stopping at the ends."""
    index = DAMAGE_CATEGORIES.index(category) + steps
    return DAMAGE_CATEGORIES[max(0, min(len(DAMAGE_CATEGORIES) - 1, index))]


def highest_rd(target_rd: int | Iterable[int]) -> int:
    """Armours never add: only the highest single RD counts."""
    values = [target_rd] if _is_int(target_rd) else list(target_rd)
    for value in values:
        if not _is_int(value) or value < 0:
            raise RuleError(gettext_noop("RD must be a whole number ≥ 0"))
    return max(values, default=0)


def attack_damage(
    sorted_dice: tuple[int, int, int],
    weapon_category: str | DamageCategory,
    weapon_constant: int = 0,
    damage_bonus: int = 0,
    target_rd: int | Iterable[int] = 0,
    damage_shift: int = 0,
) -> tuple[int, DamageCategory]:
    """Damage of a hit from the attack's sorted dice: the (shifted) category's dice +
    constant + damage bonus − the highest RD, at least 0."""
    if isinstance(weapon_category, DamageCategory):
        category, constant = weapon_category, 0
    else:
        category, constant = parse_weapon(weapon_category)
    constant += weapon_constant
    category = shift_category(category, damage_shift)
    raw = sum(sorted_dice[i] for i in category.dice) + constant + damage_bonus
    return max(0, raw - highest_rd(target_rd)), category


def roll_attack(
    spec: HitosSpec,
    weapon_category: str | DamageCategory,
    weapon_constant: int = 0,
    damage_bonus: int = 0,
    target_rd: int | Iterable[int] = 0,
    damage_shift: int = 0,
    rng: RandomSource | None = None,
    *,
    damage_activation: AspectActivation | None = None,
) -> RollRecord:
    """Reflejos + Combate vs the target's Defensa (`spec.difficulty`, see
    `traits.defensa`); on a hit, damage from the same dice goes to `effects.damage`.

    `weapon_category` is the seed's notation, optionally with the constant ("C+1");
    `weapon_constant` adds to it. `damage_shift` is the net number of aspects moving
    the category up (+) or down (−) besides `damage_activation`: an aspect the attacker
    activates for the damage instead of the roll, one step up, its cost in the record's
    effects as an improving activation's would be (seed: "Modifica el tipo de daño un
    nivel arriba o abajo"). A crítico that hits puts the target's secuela duration
    ("scene"/"session") in `details["secuela"]`.
    """
    if damage_activation is not None:
        if not isinstance(damage_activation, AspectActivation):
            raise RuleError(gettext_noop("invalid aspect activation"))
        if spec.activation is not None:
            raise RuleError(
                gettext_noop("the attacker activates one aspect: for the roll or the damage")
            )
        damage_shift += 1
    if isinstance(weapon_category, DamageCategory):
        base_category, parsed_constant = weapon_category, 0
    else:
        base_category, parsed_constant = parse_weapon(weapon_category)
    if not _is_int(weapon_constant) or abs(weapon_constant) > WEAPON_CONSTANT_LIMIT:
        raise RuleError(
            gettext_noop("weapon constant out of range ±%(limit)s"), limit=WEAPON_CONSTANT_LIMIT
        )
    if not _is_int(damage_bonus) or damage_bonus < 0:
        raise RuleError(gettext_noop("damage bonus must be a whole number ≥ 0"))
    if not _is_int(damage_shift) or abs(damage_shift) > DAMAGE_SHIFT_LIMIT:
        raise RuleError(
            gettext_noop("damage shift out of range ±%(limit)s"), limit=DAMAGE_SHIFT_LIMIT
        )
    rd = highest_rd(target_rd)
    values = _throw(rng)
    shifted = shift_category(base_category, damage_shift)
    constant = parsed_constant + weapon_constant
    record, hit, sorted_dice, duration = _resolve_spec(spec, values, "attack")
    damage = None
    if hit:
        damage, _ = attack_damage(sorted_dice, shifted, constant, damage_bonus, rd)
    effects = replace(record.effects, damage=damage)
    extra = {}
    if damage_activation is not None:
        cost = damage_activation.effects()
        effects = replace(
            effects,
            drama_points_spent=cost.drama_points_spent,
            aspects_exhausted=cost.aspects_exhausted,
        )
        extra = {
            "damage_activation": damage_activation.to_dict(),
            "drama_point_to_owner": damage_activation.hands_drama_point,
        }
    return replace(
        record,
        effects=effects,
        details={
            **record.details,
            **extra,
            "weapon": base_category.name,
            "damage_category": shifted.name,
            "weapon_constant": constant,
            "damage_bonus": damage_bonus,
            "rd": rd,
            "damage": damage,
            "secuela": duration if hit and "critical" in record.flags else None,
        },
    )


def roll_initiative(
    reflejos: int,
    intelecto: int,
    wound_penalty: int = 0,
    rng: RandomSource | None = None,
    *,
    improve: bool = False,
    hinder: bool = False,
) -> RollRecord:
    """Iniciativa = Reflejos + ⌊Intelecto / 2⌋ + C (+ wound penalty, which applies to
    every roll). Outcome "initiative"; crítico/pifia flags as on any roll."""
    base = initiative_base(reflejos, intelecto)
    check_wound_penalty(wound_penalty)
    shift = int(improve) - int(hinder)
    sorted_dice, kept, dice = _evaluate(_throw(rng), shift)
    special, duration = _special(sorted_dice)
    flags = (special,) if special else ()
    return RollRecord(
        system=SYSTEM,
        kind="initiative",
        spec={
            "reflejos": reflejos,
            "intelecto": intelecto,
            "wound_penalty": wound_penalty,
            "improve": improve,
            "hinder": hinder,
        },
        dice=dice,
        kept=(kept,),
        result=base + kept + wound_penalty,
        outcome="initiative",
        flags=flags,
        effects=Effects(temporary_aspect=duration),
        details={
            "m": sorted_dice[0],
            "C": sorted_dice[1],
            "M": sorted_dice[2],
            "kept_die": DIE_NAMES[1 + shift],
            "base": base,
        },
    )
