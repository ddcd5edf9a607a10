"""Rolls of 3d6 + NdP: checks, opposed rolls, progression, damage and magic.

A check throws 3d6 (4d6 with ventaja, 2d6 with desventaja, all dice summed), adds the
skill's NdP, adds one d4 per Gracia and subtracts one d4 per Desgracia (they stack and
never cancel). A fixed adversity must be exceeded; in an opposed roll the other side's
total is the adversity and a tie goes to the defender.

Progression: whatever the outcome, if the d6 alone sum to at least DP = min(8 + NdP, 18)
the skill gains 1 PdP ("at least"; the seed says "superando":
docs/rules.md#ndp-progression-at-least).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache

from mechanics.rules.dice import Die, Effects, RandomSource, RollRecord, default_rng
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.ndp.catalogue import (
    DAMAGE_TYPE_KEYS,
    MAX_LEVEL,
    PDP_PER_LEVEL,
    SKILLS_BY_KEY,
    adversity_level,
    check_damage_type,
    crafting_adversity,
    divine_tier,
    wound_tier,
)

SYSTEM = "ndp"

DICE_MODES = {2: "desventaja", 3: "normal", 4: "ventaja"}
MAX_GRACIAS = 20  # per roll, for each of Gracias and Desgracias
MAX_BONUS = 20
MAX_ADVERSITY = 200
MAX_OPPOSED = 400
MAX_FAITH = 40
DP_BASE = 8
DP_CAP = 18
MAX_ATTACKS_PER_TURN = 2
MAX_DAMAGE_DICE, MAX_DAMAGE_SIDES, MAX_DAMAGE_FIXED = 20, 100, 200
FEINT_DESGRACIAS = 1  # a successful feint: the target defends with one Desgracia


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(gettext_noop("%(name)s must be a whole number"), name=name)
    if not low <= value <= high:
        raise RuleError(
            gettext_noop("%(name)s must be between %(low)s and %(high)s"),
            name=name,
            low=low,
            high=high,
        )


def _check_dice(dice: object) -> None:
    if isinstance(dice, bool) or not isinstance(dice, int) or dice not in DICE_MODES:
        raise RuleError(gettext_noop("dice must be 2 (desventaja), 3 or 4 (ventaja)"))


def _from_dict(cls, data: dict):
    """Build a spec from its to_dict(); unknown keys are an error, missing take defaults."""
    if not isinstance(data, dict):
        raise RuleError(gettext_noop("a roll spec must be an object"))
    names = {f.name for f in fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise RuleError(
            gettext_noop("unknown spec fields: %(fields)s"), fields=", ".join(sorted(unknown))
        )
    try:
        return cls(**data)
    except TypeError as error:
        raise RuleError(gettext_noop("incomplete roll spec: %(error)s"), error=str(error)) from None


# --- Progression --------------------------------------------------------------------


def dp(level: int) -> int:
    """Dificultad de progresión: 8 + NdP, at most 18."""
    _check_int("NdP", level, 0, MAX_LEVEL)
    return min(DP_BASE + level, DP_CAP)


def add_pdp(level: int, pdp: int, gained: int) -> tuple[int, int]:
    """Add PdP to a skill: every 6 PdP become +1 NdP, the rest carry over.

    Carry-over: with 5 PdP, gaining 2 gives +1 NdP and 1 PdP (only the six that
    convert are spent). At the NdP cap (20) PdP stop at 5.
    """
    _check_int("NdP", level, 0, MAX_LEVEL)
    _check_int("PdP", pdp, 0, PDP_PER_LEVEL - 1)
    _check_int(gettext_noop("PdP gained"), gained, 0, 10_000)
    total = pdp + gained
    level += total // PDP_PER_LEVEL
    pdp = total % PDP_PER_LEVEL
    if level >= MAX_LEVEL:
        return MAX_LEVEL, (PDP_PER_LEVEL - 1 if level > MAX_LEVEL else pdp)
    return level, pdp


# --- Checks -------------------------------------------------------------------------


@dataclass(frozen=True)
class NdpSpec:
    """One skill check.

    `dice`: 3, 4 (ventaja) or 2 (desventaja). `adversity`: a fixed adversity to exceed.
    `opposed_total`: the other side's total in an opposed roll (`defender`: this roll
    wins ties). `bonus`: NdP from equipment (a shield's GdC on Interceptar); it adds to
    the total but not to the DP, which follows the skill's own `level`. `skill`: the
    skill key, which names the PdP gained in the effects.
    """

    level: int
    dice: int = 3
    gracias: int = 0
    desgracias: int = 0
    adversity: int | None = None
    opposed_total: int | None = None
    defender: bool = False
    bonus: int = 0
    skill: str = ""

    def __post_init__(self) -> None:
        _check_int("NdP", self.level, 0, MAX_LEVEL)
        _check_dice(self.dice)
        _check_int("Gracias", self.gracias, 0, MAX_GRACIAS)
        _check_int("Desgracias", self.desgracias, 0, MAX_GRACIAS)
        _check_int(gettext_noop("bonus"), self.bonus, -MAX_BONUS, MAX_BONUS)
        if self.adversity is not None:
            _check_int(gettext_noop("adversity"), self.adversity, 0, MAX_ADVERSITY)
        if self.opposed_total is not None:
            _check_int(gettext_noop("opposed total"), self.opposed_total, -MAX_OPPOSED, MAX_OPPOSED)
            if self.adversity is not None:
                raise RuleError(
                    gettext_noop("a roll has either a fixed adversity or an opposed total")
                )
        if not isinstance(self.defender, bool):
            raise RuleError(gettext_noop("defender must be true or false"))
        if self.defender and self.opposed_total is None:
            raise RuleError(gettext_noop("only an opposed roll has a defender"))
        if not isinstance(self.skill, str) or (self.skill and self.skill not in SKILLS_BY_KEY):
            raise RuleError(gettext_noop("unknown skill %(key)s"), key=self.skill)

    @property
    def mode(self) -> str:
        return DICE_MODES[self.dice]

    @property
    def threshold(self) -> int | None:
        """Lowest total that succeeds; None when there is nothing to beat."""
        if self.opposed_total is not None:
            return self.opposed_total if self.defender else self.opposed_total + 1
        if self.adversity is not None:
            return self.adversity + 1
        return None

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> NdpSpec:
        return _from_dict(cls, data)


# Dice are immutable values: share one instance per face instead of building each time.
_D6 = {v: Die(6, v, ("kept",)) for v in range(1, 7)}
_GRACIA = {v: Die(4, v, ("gracia", "kept")) for v in range(1, 5)}
_DESGRACIA = {v: Die(4, v, ("desgracia", "negative", "kept")) for v in range(1, 5)}


@lru_cache(maxsize=4_096)
def _spec_facts(spec: NdpSpec) -> tuple[dict, int | None, int, str | None]:
    """Per-spec values every roll needs: spec dict, threshold, DP, adversity name."""
    level = adversity_level(spec.adversity) if spec.adversity is not None else None
    name = level.name if level is not None else None  # none below Fácil's 4
    return spec.to_dict(), spec.threshold, min(DP_BASE + spec.level, DP_CAP), name


def _check_record(
    spec: NdpSpec, d6: list[int], gracias: list[int], desgracias: list[int], kind: str
) -> RollRecord:
    spec_dict, threshold, progression_dp, adversity_name = _spec_facts(spec)
    d6_sum = sum(d6)
    total = d6_sum + sum(gracias) - sum(desgracias) + spec.level + spec.bonus
    outcome = "rolled" if threshold is None else "success" if total >= threshold else "failure"
    progress = d6_sum >= progression_dp
    dice = tuple(_D6[v] for v in d6)
    if gracias:
        dice += tuple(_GRACIA[v] for v in gracias)
    if desgracias:
        dice += tuple(_DESGRACIA[v] for v in desgracias)
    details = {
        "d6_sum": d6_sum,
        "dp": progression_dp,
        "progress": progress,
        "mode": DICE_MODES[spec.dice],
        "threshold": threshold,
    }
    if adversity_name is not None:
        details["adversity_name"] = adversity_name
    return RollRecord(
        system=SYSTEM,
        kind=kind,
        spec=dict(spec_dict),  # a copy: records must not share a mutable dict
        dice=dice,
        # Every die counts; Desgracias are kept as negative values so sum(kept) + NdP
        # + bonus is the result.
        kept=(*d6, *gracias, *(-v for v in desgracias)),
        result=total,
        outcome=outcome,
        flags=("progress",) if progress else (),
        effects=Effects(pdp_gained={spec.skill: 1}) if progress and spec.skill else Effects(),
        details=details,
    )


def _throw(spec: NdpSpec, rng: RandomSource) -> tuple[list[int], list[int], list[int]]:
    randint = rng.randint
    return (
        [randint(1, 6) for _ in range(spec.dice)],
        [randint(1, 4) for _ in range(spec.gracias)],
        [randint(1, 4) for _ in range(spec.desgracias)],
    )


def roll_check(spec: NdpSpec, rng: RandomSource | None = None) -> RollRecord:
    """Throw a check. Outcome "success"/"failure" ("rolled" with no adversity); the flag
    "progress" and Effects.pdp_gained when the d6 alone reach the DP."""
    d6, gracias, desgracias = _throw(spec, rng or default_rng())
    return _check_record(spec, d6, gracias, desgracias, "check")


@dataclass(frozen=True)
class OpposedRoll:
    """Both sides of an opposed roll; each record is complete for its own character."""

    attacker: RollRecord
    defender: RollRecord

    @property
    def winner(self) -> str:
        return "attacker" if self.attacker.outcome == "success" else "defender"

    def to_dict(self) -> dict:
        return {
            "winner": self.winner,
            "attacker": self.attacker.to_dict(),
            "defender": self.defender.to_dict(),
        }


def roll_opposed(
    attacker_spec: NdpSpec, defender_spec: NdpSpec, rng: RandomSource | None = None
) -> OpposedRoll:
    """Both sides roll; the attacker wins only by exceeding the defender's total."""
    for spec in (attacker_spec, defender_spec):
        if spec.adversity is not None or spec.opposed_total is not None:
            raise RuleError(
                gettext_noop("the sides of an opposed roll take no adversity of their own")
            )
    rng = rng or default_rng()
    attack = _throw(attacker_spec, rng)
    defence = _throw(defender_spec, rng)
    attack_total = sum(attack[0]) + sum(attack[1]) - sum(attack[2]) + attacker_spec.level
    attack_total += attacker_spec.bonus
    defence_total = sum(defence[0]) + sum(defence[1]) - sum(defence[2]) + defender_spec.level
    defence_total += defender_spec.bonus
    return OpposedRoll(
        attacker=_check_record(
            replace(attacker_spec, opposed_total=defence_total), *attack, "opposed"
        ),
        defender=_check_record(
            replace(defender_spec, opposed_total=attack_total, defender=True), *defence, "opposed"
        ),
    )


# --- Combat actions -----------------------------------------------------------------


def attack_desgracias(attack_number: int) -> int:
    """Desgracias of the n-th attack in a turn: the second takes one; no third."""
    _check_int(gettext_noop("attack number"), attack_number, 1, 1_000)
    if attack_number > MAX_ATTACKS_PER_TURN:
        raise RuleError(gettext_noop("at most 2 attacks per turn"))
    return attack_number - 1


def defence_desgracias(defence_number: int) -> int:
    """Desgracias of the n-th defence in a turn: each extra one adds one."""
    _check_int(gettext_noop("defence number"), defence_number, 1, 1_000)
    return defence_number - 1


# --- Damage -------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageResult:
    """What one hit does: net damage, wound tier and the integrity each side loses."""

    raw: int
    rd: int
    effective_rd: int
    net: int
    tier: str | None
    damage_type: str
    weapon_integrity_loss: int
    armour_integrity_loss: int
    attacker_wound: str | None  # "leve" when a Pelea blow does not exceed the RD

    @property
    def exceeded(self) -> bool:
        return self.net > 0

    def to_dict(self) -> dict:
        return {
            "raw": self.raw,
            "rd": self.rd,
            "effective_rd": self.effective_rd,
            "net": self.net,
            "tier": self.tier,
            "damage_type": self.damage_type,
            "weapon_integrity_loss": self.weapon_integrity_loss,
            "armour_integrity_loss": self.armour_integrity_loss,
            "attacker_wound": self.attacker_wound,
        }

    @classmethod
    def from_dict(cls, data: dict) -> DamageResult:
        return cls(**data)


def effective_rd(rd: int, damage_type: str, armour_integrity: int | None = None) -> int:
    """RD that applies: at most 1 once the armour's integrity is 0, then halved
    (rounded down) against contundente."""
    _check_int("RD", rd, 0, 100)
    check_damage_type(damage_type)
    if armour_integrity is not None:
        _check_int(gettext_noop("armour integrity"), armour_integrity, 0, 1_000)
        if armour_integrity == 0:
            rd = min(rd, 1)
    return rd // 2 if damage_type == "contundente" else rd


def damage_result(
    raw: int,
    rd: int,
    damage_type: str,
    *,
    pelea: bool = False,
    armour_integrity: int | None = None,
) -> DamageResult:
    """Damage = weapon roll − RD; net 1–3 leve, 4–7 grave, 8+ letal.

    Not exceeding the RD costs the weapon 1 integrity (in Pelea there is no weapon: the
    attacker takes a leve wound instead); exceeding it costs the armour 1 integrity,
    when there is armour (RD > 0) to lose it.
    """
    _check_int(gettext_noop("damage"), raw, 0, 100_000)
    rd_applied = effective_rd(rd, damage_type, armour_integrity)
    net = raw - rd_applied
    exceeded = net > 0
    return DamageResult(
        raw=raw,
        rd=rd,
        effective_rd=rd_applied,
        net=net,
        tier=wound_tier(net),
        damage_type=damage_type,
        weapon_integrity_loss=0 if exceeded or pelea else 1,
        armour_integrity_loss=1 if exceeded and rd > 0 else 0,
        attacker_wound="leve" if pelea and not exceeded else None,
    )


def check_damage(count: int, sides: int, fixed: int) -> None:
    """Damage the engine rolls, `count` d`sides` + `fixed` (sides 0: the fixed amount
    alone), or RuleError naming the limit it breaks. The seed sets none; ours are
    docs/rules.md#ndp-damage-limits."""
    named = {
        gettext_noop("damage dice"): count,
        gettext_noop("damage die"): sides,
        gettext_noop("fixed damage"): fixed,
    }
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(gettext_noop("%(name)s must be a whole number"), name=name)
    if count > MAX_DAMAGE_DICE:
        raise RuleError(gettext_noop("At most %(limit)s damage dice."), limit=MAX_DAMAGE_DICE)
    if sides > MAX_DAMAGE_SIDES:
        raise RuleError(
            gettext_noop("Damage dice have at most %(limit)s sides."), limit=MAX_DAMAGE_SIDES
        )
    if fixed < 0:
        raise RuleError(gettext_noop("The damage bonus cannot be negative."))
    if fixed > MAX_DAMAGE_FIXED:
        raise RuleError(
            gettext_noop("The damage bonus is at most +%(limit)s."), limit=MAX_DAMAGE_FIXED
        )
    # What is left below the limits: no die counted, or a die of negative sides.
    _check_int(gettext_noop("damage die"), sides, 0, MAX_DAMAGE_SIDES)
    _check_int(gettext_noop("damage dice"), count, 0 if sides == 0 else 1, MAX_DAMAGE_DICE)
    if sides == 0 and fixed == 0:
        raise RuleError(gettext_noop("a weapon needs a damage die or a fixed damage"))


@dataclass(frozen=True)
class DamageSpec:
    """A weapon's damage against the armour on the part hit.

    `count` d`sides` plus `fixed` (sides 0: a fixed amount, e.g. the Poder gesture).
    `rd` is the armour's listed RD; `armour_integrity` (if known) caps it at 1 when 0.
    """

    sides: int
    damage_type: str
    rd: int = 0
    count: int = 1
    fixed: int = 0
    pelea: bool = False
    armour_integrity: int | None = None

    def __post_init__(self) -> None:
        check_damage(self.count, self.sides, self.fixed)
        _check_int("RD", self.rd, 0, 100)
        if self.damage_type not in DAMAGE_TYPE_KEYS:
            raise RuleError(gettext_noop("unknown damage type %(key)s"), key=self.damage_type)
        if self.armour_integrity is not None:
            _check_int(gettext_noop("armour integrity"), self.armour_integrity, 0, 1_000)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> DamageSpec:
        return _from_dict(cls, data)


def roll_damage(spec: DamageSpec, rng: RandomSource | None = None) -> RollRecord:
    """Throw a weapon's damage; outcome is the wound tier ("none", "leve", "grave",
    "letal"); details hold the DamageResult; Effects.damage is the net damage (≥ 0)."""
    rng = rng or default_rng()
    values = [rng.randint(1, spec.sides) for _ in range(spec.count)] if spec.sides else []
    raw = sum(values) + spec.fixed
    result = damage_result(
        raw,
        spec.rd,
        spec.damage_type,
        pelea=spec.pelea,
        armour_integrity=spec.armour_integrity,
    )
    return RollRecord(
        system=SYSTEM,
        kind="damage",
        spec=spec.to_dict(),
        dice=tuple(Die(spec.sides, v, ("kept",)) for v in values),
        kept=tuple(values),
        result=max(result.net, 0),
        outcome=result.tier or "none",
        flags=("weapon_worn",) if result.weapon_integrity_loss else (),
        effects=Effects(damage=max(result.net, 0)),
        details=result.to_dict(),
    )


# --- Divine magic -------------------------------------------------------------------


@dataclass(frozen=True)
class DivineSpec:
    """A divine conjuration: one d10 per faith point (PdF) spent, summed; a natural 10
    is rolled again and added, again and again. `target`: the total wanted (a tier's
    threshold); without it, success is reaching Baja (5)."""

    faith: int
    target: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.faith, int) and not isinstance(self.faith, bool) and self.faith < 1:
            raise RuleError(gettext_noop("at least 1 faith point is needed to conjure"))
        _check_int(gettext_noop("faith points"), self.faith, 1, MAX_FAITH)
        if self.target is not None:
            _check_int(gettext_noop("target"), self.target, 1, 1_000)

    @property
    def threshold(self) -> int:
        return 5 if self.target is None else self.target

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> DivineSpec:
        return _from_dict(cls, data)


def roll_divine(spec: DivineSpec, rng: RandomSource | None = None) -> RollRecord:
    """Outcome "success" when the total reaches the target (Baja by default); details
    hold the tier reached and the faith spent; flag "critical" when a 10 exploded."""
    rng = rng or default_rng()
    dice: list[Die] = []
    total = 0
    for _ in range(spec.faith):
        value = rng.randint(1, 10)
        tags: tuple[str, ...] = ("kept",)
        while value == 10:
            dice.append(Die(10, value, ("exploded", *tags)))
            total += value
            value = rng.randint(1, 10)
            tags = ("explosion", "kept")
        dice.append(Die(10, value, tags))
        total += value
    tier = divine_tier(total)
    exploded = any("exploded" in d.tags for d in dice)
    return RollRecord(
        system=SYSTEM,
        kind="divine",
        spec=spec.to_dict(),
        dice=tuple(dice),
        kept=tuple(d.value for d in dice),
        result=total,
        outcome="success" if total >= spec.threshold else "failure",
        flags=("critical",) if exploded else (),
        details={
            "tier": tier.key if tier else None,
            "tier_name": tier.name if tier else None,
            "faith_spent": spec.faith,
        },
    )


# --- Arcane magic, dispelling and crafting ------------------------------------------


def _magic_fields(spec) -> None:
    _check_int("Voluntad", spec.level, 0, MAX_LEVEL)
    _check_dice(spec.dice)
    _check_int("Gracias", spec.gracias, 0, MAX_GRACIAS)
    _check_int("Desgracias", spec.desgracias, 0, MAX_GRACIAS)


def failed_spell_cost(prana: int) -> int:
    """A failed spell consumes only half the Prana, rounded up."""
    return (prana + 1) // 2


@dataclass(frozen=True)
class ArcaneSpec:
    """Casting: Voluntad against an adversity equal to the Prana spent (≥ 1).

    `available_prana`, when given, is what the caster can draw on (own Prana plus the
    extra sources); spending more is refused.
    """

    level: int
    prana: int
    dice: int = 3
    gracias: int = 0
    desgracias: int = 0
    available_prana: int | None = None

    def __post_init__(self) -> None:
        _magic_fields(self)
        _check_int("Prana", self.prana, 1, MAX_ADVERSITY)
        if self.available_prana is not None:
            _check_int(gettext_noop("available Prana"), self.available_prana, 0, 10_000)
            if self.prana > self.available_prana:
                raise RuleError(
                    gettext_noop("not enough Prana: %(needed)s needed, %(available)s left"),
                    needed=self.prana,
                    available=self.available_prana,
                )

    def check(self) -> NdpSpec:
        return NdpSpec(
            level=self.level,
            dice=self.dice,
            gracias=self.gracias,
            desgracias=self.desgracias,
            adversity=self.prana,
            skill="voluntad",
        )

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> ArcaneSpec:
        return _from_dict(cls, data)


@dataclass(frozen=True)
class DispelSpec:
    """Disipar: touch + Voluntad against the spell's original adversity; success
    recovers 1 Prana (Effects.prana_spent = −1)."""

    level: int
    original_adversity: int
    dice: int = 3
    gracias: int = 0
    desgracias: int = 0

    def __post_init__(self) -> None:
        _magic_fields(self)
        _check_int(gettext_noop("original adversity"), self.original_adversity, 0, MAX_ADVERSITY)

    def check(self) -> NdpSpec:
        return NdpSpec(
            level=self.level,
            dice=self.dice,
            gracias=self.gracias,
            desgracias=self.desgracias,
            adversity=self.original_adversity,
            skill="voluntad",
        )

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> DispelSpec:
        return _from_dict(cls, data)


@dataclass(frozen=True)
class CraftingSpec:
    """Artesanía Mágica: Voluntad against 10 + the artefact's Prana cost.

    The seed does not say what a failure costs; like a failed spell it consumes half
    the Prana (rounded up), a success the whole cost.
    """

    level: int
    prana_cost: int
    dice: int = 3
    gracias: int = 0
    desgracias: int = 0

    def __post_init__(self) -> None:
        _magic_fields(self)
        _check_int(gettext_noop("Prana cost"), self.prana_cost, 0, MAX_ADVERSITY - 10)

    @property
    def adversity(self) -> int:
        return crafting_adversity(self.prana_cost)

    def check(self) -> NdpSpec:
        return NdpSpec(
            level=self.level,
            dice=self.dice,
            gracias=self.gracias,
            desgracias=self.desgracias,
            adversity=self.adversity,
            skill="voluntad",
        )

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> CraftingSpec:
        return _from_dict(cls, data)


def _magic_record(kind: str, spec, check: RollRecord, prana_spent: int) -> RollRecord:
    return replace(
        check,
        kind=kind,
        spec=spec.to_dict(),
        effects=replace(check.effects, prana_spent=prana_spent),
        details={**check.details, "check_spec": check.spec},
    )


def roll_arcane(spec: ArcaneSpec, rng: RandomSource | None = None) -> RollRecord:
    """Cast: success spends all the Prana, failure half of it (rounded up)."""
    check = roll_check(spec.check(), rng)
    spent = spec.prana if check.outcome == "success" else failed_spell_cost(spec.prana)
    return _magic_record("arcane", spec, check, spent)


def roll_dispel(spec: DispelSpec, rng: RandomSource | None = None) -> RollRecord:
    check = roll_check(spec.check(), rng)
    return _magic_record("dispel", spec, check, -1 if check.outcome == "success" else 0)


def roll_crafting(spec: CraftingSpec, rng: RandomSource | None = None) -> RollRecord:
    check = roll_check(spec.check(), rng)
    cost = spec.prana_cost
    spent = cost if check.outcome == "success" else failed_spell_cost(cost)
    return _magic_record("crafting", spec, check, spent)
