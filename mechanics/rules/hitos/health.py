"""Hitos health: Resistencia lost against Aguante (docs/rules.md#hitos-health).

States by Resistencia lost L with Aguante A: Sano L < A (0), Herido A ≤ L < 2A (−2),
Incapacitado 2A ≤ L < 3A (−5), Moribundo L ≥ 3A (cannot act).

Decisions where the texts are silent:
- Lost Resistencia never exceeds 3 × Aguante (Resistencia 0); death is the GM's call.
- The massive-damage test (Aguante + C vs 12) and the weekly activity test (Aguante + C
  vs 15) use the formulas as written: no wound penalty. They follow the campaign's
  success rule (greater than the difficulty, or equal with the setting).
- Drugs act 1 h after being taken and last 7 h after that (the seed: "aproximadamente
  una hora" and "seis u ocho horas"); they cancel penalty points, never give a bonus.
  A new dose replaces the previous one.
- Healing keeps partial progress as an exact fraction of the next point. Each point takes
  the period of the state the character is in while healing it; new damage restarts the
  progress. Moribundo heals at the Incapacitado period (1 month) when resting; a
  Moribundo or Incapacitado character who does not rest (< 75 %) does not heal (the
  Incapacitado-and-active weekly test applies instead).
- Medical supervision of a Moribundo patient is muy difícil (25). «Bajo supervisión
  médica» stays until a supervision roll fails or the character is fully healed.
- A critical hit's secuela is recorded only when the hit does damage; a longer one
  replaces a shorter one.
- Time is passed as hours (int, Fraction, or float rounded to the second).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from mechanics.rules.dice import RandomSource, RollRecord
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.hitos.catalogue import (
    DRUG_KINDS_BY_KEY,
    DURATIONS,
    HEALTH_STATES,
    MEDICAL_SUPERVISION_ASPECT,
    HealthState,
)
from mechanics.rules.hitos.rolls import HitosSpec, roll_check, roll_test

MASSIVE_DAMAGE_DIFFICULTY = 12
ACTIVITY_TEST_DIFFICULTY = 15
DAY = 24  # hours
WEEK = 7 * DAY
MONTH = 30 * DAY
# The periods (docs/rules.md#hitos-healing-periods): one Resistencia point per period.
PERIOD_HOURS = {"sano": DAY, "herido": WEEK, "incapacitado": MONTH, "moribundo": MONTH}
# Resting less than this fraction of the time uses the next worse state's period.
REST_THRESHOLD = Fraction(3, 4)
NEXT_WORSE = {"sano": "herido", "herido": "incapacitado", "incapacitado": None, "moribundo": None}
SUPERVISION_DIFFICULTY = {"sano": 10, "herido": 15, "incapacitado": 20, "moribundo": 25}
DRUG_ONSET_HOURS = 1
DRUG_DURATION_HOURS = 7
LOSS_DIE = {None: 1, "positive": 0, "negative": 2}  # index into (m, C, M)


def _hours(value: object, what: str = gettext_noop("hours")) -> Fraction:
    if isinstance(value, bool):
        raise RuleError(gettext_noop("%(what)s must be a number ≥ 0"), what=what)
    if isinstance(value, int | Fraction):
        hours = Fraction(value)
    elif isinstance(value, float) and math.isfinite(value):
        hours = Fraction(value).limit_denominator(3600)
    elif isinstance(value, str):
        try:
            hours = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise RuleError(gettext_noop("%(what)s must be a number ≥ 0"), what=what) from None
    else:
        raise RuleError(gettext_noop("%(what)s must be a number ≥ 0"), what=what)
    if hours < 0:
        raise RuleError(gettext_noop("%(what)s must be a number ≥ 0"), what=what)
    return hours


def health_state(aguante: int, lost: int) -> HealthState:
    """The state for `lost` Resistencia points with this Aguante."""
    return HEALTH_STATES[min(lost // aguante, 3)]


@dataclass(frozen=True)
class HitosHealth:
    """A character's health. `lost` is Resistencia lost (0..3 × Aguante).

    `healing_progress`: fraction of the next point already healed. `temporary_secuela`:
    the Incapacitado secuela, held until Sano. `permanent_secuelas`: how many permanent
    secuelas recovering from Moribundo has left (the player names each one).
    `critical_secuela`: "scene"/"session" from a critical hit. `drug` / `drug_hours`:
    the painkiller taken and the hours since.
    """

    aguante: int
    lost: int = 0
    healing_progress: Fraction = Fraction(0)
    temporary_secuela: bool = False
    permanent_secuelas: int = 0
    critical_secuela: str | None = None
    drug: str | None = None
    drug_hours: Fraction = Fraction(0)
    medical_supervision: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.aguante, bool) or not isinstance(self.aguante, int) or self.aguante < 1:
            raise RuleError(gettext_noop("Aguante must be a whole number ≥ 1"))
        if (
            isinstance(self.lost, bool)
            or not isinstance(self.lost, int)
            or not 0 <= self.lost <= 3 * self.aguante
        ):
            raise RuleError(
                gettext_noop("lost Resistencia must be between 0 and %(maximum)s"),
                maximum=3 * self.aguante,
            )
        progress = _hours(self.healing_progress, gettext_noop("healing progress"))
        if progress >= 1:
            raise RuleError(gettext_noop("healing progress must be below one point"))
        object.__setattr__(self, "healing_progress", progress)
        if (
            isinstance(self.permanent_secuelas, bool)
            or not isinstance(self.permanent_secuelas, int)
            or self.permanent_secuelas < 0
        ):
            raise RuleError(gettext_noop("permanent secuelas must be a whole number ≥ 0"))
        if self.critical_secuela is not None and self.critical_secuela not in DURATIONS:
            raise RuleError(gettext_noop("a secuela lasts a scene or a session"))
        if self.drug is not None and self.drug not in DRUG_KINDS_BY_KEY:
            raise RuleError(gettext_noop("unknown drug kind %(drug)s"), drug=self.drug)
        object.__setattr__(self, "drug_hours", _hours(self.drug_hours, gettext_noop("drug hours")))

    @property
    def resistencia_max(self) -> int:
        return 3 * self.aguante

    @property
    def resistencia(self) -> int:
        """Resistencia points left."""
        return self.resistencia_max - self.lost

    @property
    def state(self) -> HealthState:
        return health_state(self.aguante, self.lost)

    @property
    def base_penalty(self) -> int:
        return self.state.penalty

    @property
    def drug_active(self) -> bool:
        return (
            self.drug is not None
            and DRUG_ONSET_HOURS <= self.drug_hours < DRUG_ONSET_HOURS + DRUG_DURATION_HOURS
        )

    @property
    def penalty(self) -> int:
        """The penalty to every roll and to Defensa, after painkillers."""
        base = self.state.penalty
        if self.drug_active:
            return min(0, base + DRUG_KINDS_BY_KEY[self.drug].cancels)
        return base

    @property
    def can_act(self) -> bool:
        return self.state.can_act

    @property
    def temporary_aspects(self) -> tuple[str, ...]:
        """Aspects the health state grants now (drugs, medical supervision)."""
        aspects = []
        if self.drug_active and DRUG_KINDS_BY_KEY[self.drug].aspect:
            aspects.append(DRUG_KINDS_BY_KEY[self.drug].aspect)
        if self.medical_supervision:
            aspects.append(MEDICAL_SUPERVISION_ASPECT)
        return tuple(aspects)

    def to_dict(self) -> dict:
        return {
            "aguante": self.aguante,
            "lost": self.lost,
            "healing_progress": str(self.healing_progress),
            "temporary_secuela": self.temporary_secuela,
            "permanent_secuelas": self.permanent_secuelas,
            "critical_secuela": self.critical_secuela,
            "drug": self.drug,
            "drug_hours": str(self.drug_hours),
            "medical_supervision": self.medical_supervision,
        }

    @classmethod
    def from_dict(cls, data: dict) -> HitosHealth:
        return cls(
            aguante=data["aguante"],
            lost=data.get("lost", 0),
            healing_progress=_hours(data.get("healing_progress", "0"), "healing progress"),
            temporary_secuela=bool(data.get("temporary_secuela", False)),
            permanent_secuelas=data.get("permanent_secuelas", 0),
            critical_secuela=data.get("critical_secuela"),
            drug=data.get("drug"),
            drug_hours=_hours(data.get("drug_hours", "0"), "drug hours"),
            medical_supervision=bool(data.get("medical_supervision", False)),
        )


def _with_lost(health: HitosHealth, lost: int) -> HitosHealth:
    """New lost total after a loss: Incapacitado or worse brings the temporary secuela."""
    lost = min(lost, health.resistencia_max)
    temporary = health.temporary_secuela or lost >= 2 * health.aguante
    return replace(health, lost=lost, healing_progress=Fraction(0), temporary_secuela=temporary)


def massive_damage_test(
    aguante: int,
    rng: RandomSource | None = None,
    *,
    shift: int = 0,
    equal_succeeds: bool = False,
) -> RollRecord:
    """Aguante + C vs 12 (an aspect may shift the kept die)."""
    return roll_test(
        "massive_damage",
        aguante,
        MASSIVE_DAMAGE_DIFFICULTY,
        rng,
        shift=shift,
        equal_succeeds=equal_succeeds,
    )


def apply_damage(
    health: HitosHealth,
    damage: int,
    rng: RandomSource | None = None,
    *,
    critical: str | None = None,
    equal_succeeds: bool = False,
    massive_shift: int = 0,
) -> tuple[HitosHealth, RollRecord | None]:
    """Take `damage` points (RD already subtracted by the attack).

    Damage ≥ Aguante triggers the massive-damage test on `rng`; failing it loses all
    remaining Resistencia. Returns the new health and the test's record (None when no
    test was due). `critical` ("scene"/"session") records a critical hit's secuela.
    """
    if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
        raise RuleError(gettext_noop("damage must be a whole number ≥ 0"))
    if critical is not None and critical not in DURATIONS:
        raise RuleError(gettext_noop("a secuela lasts a scene or a session"))
    if damage == 0:
        return health, None
    record = None
    lost = health.lost + damage
    if damage >= health.aguante and health.lost < health.resistencia_max:
        record = massive_damage_test(
            health.aguante, rng, shift=massive_shift, equal_succeeds=equal_succeeds
        )
        if not record.succeeded:
            lost = health.resistencia_max
    new = _with_lost(health, lost)
    if critical is not None and health.critical_secuela != "session":
        new = replace(new, critical_secuela=critical)
    return new, record


def take_drug(health: HitosHealth, kind: str) -> HitosHealth:
    """Take a painkiller ("suave" or "fuerte"); it acts once `heal` has passed 1 h."""
    if kind not in DRUG_KINDS_BY_KEY:
        raise RuleError(gettext_noop("unknown drug kind %(drug)s"), drug=kind)
    return replace(health, drug=kind, drug_hours=Fraction(0))


def end_scene(health: HitosHealth) -> HitosHealth:
    """A critical hit's scene-long secuela ends."""
    if health.critical_secuela == "scene":
        return replace(health, critical_secuela=None)
    return health


def end_session(health: HitosHealth) -> HitosHealth:
    """Critical-hit secuelas of a scene or a session end."""
    return replace(health, critical_secuela=None)


def _check_rest(rest_fraction: float | Fraction) -> None:
    if (
        isinstance(rest_fraction, bool)
        or not isinstance(rest_fraction, int | float | Fraction)
        or not 0 <= rest_fraction <= 1
    ):
        raise RuleError(gettext_noop("rest fraction must be between 0 and 1"))


def period_table(rules: Mapping | None = None) -> dict[str, int]:
    """Hours per healing period by state under a campaign's settings (`healing_days_<state>`),
    the defaults being `PERIOD_HOURS`."""
    rules = rules or {}
    return {
        state: rules.get(f"healing_days_{state}", hours // DAY) * DAY
        for state, hours in PERIOD_HOURS.items()
    }


def healing_period(
    state_key: str,
    rest_fraction: float | Fraction = 1.0,
    periods: Mapping[str, int] | None = None,
) -> int | None:
    """Hours to heal one point in this state (from `periods`, see `period_table`), or None
    when it does not heal naturally."""
    _check_rest(rest_fraction)
    periods = periods or PERIOD_HOURS
    if rest_fraction < REST_THRESHOLD:
        worse = NEXT_WORSE[state_key]
        return None if worse is None else periods[worse]
    return periods[state_key]


def heal(
    health: HitosHealth,
    hours: int | float | Fraction,
    rest_fraction: float | Fraction = 1.0,
    periods: Mapping[str, int] | None = None,
) -> HitosHealth:
    """Let `hours` pass with the character resting `rest_fraction` of the time.

    Recovers one Resistencia point per period of the current state, keeping partial
    progress (so healing in pieces equals healing at once), and advances painkillers.
    Leaving Moribundo adds a permanent secuela; reaching Sano ends the temporary one.
    """
    elapsed = _hours(hours)
    _check_rest(rest_fraction)
    new = health
    if new.drug is not None:
        drug_hours = new.drug_hours + elapsed
        if drug_hours >= DRUG_ONSET_HOURS + DRUG_DURATION_HOURS:
            new = replace(new, drug=None, drug_hours=Fraction(0))
        else:
            new = replace(new, drug_hours=drug_hours)
    lost = new.lost
    progress = new.healing_progress
    permanent = new.permanent_secuelas
    temporary = new.temporary_secuela
    remaining = elapsed
    while lost > 0 and remaining > 0:
        state = health_state(new.aguante, lost)
        period = healing_period(state.key, rest_fraction, periods)
        if period is None:
            break
        needed = (1 - progress) * period
        if remaining < needed:
            progress += remaining / period
            break
        remaining -= needed
        lost -= 1
        progress = Fraction(0)
        after = health_state(new.aguante, lost)
        if state.key == "moribundo" and after.key != "moribundo":
            permanent += 1
        if after.key == "sano":
            temporary = False
    supervision = new.medical_supervision and lost > 0
    if lost == 0:
        progress = Fraction(0)
    return replace(
        new,
        lost=lost,
        healing_progress=progress,
        permanent_secuelas=permanent,
        temporary_secuela=temporary,
        medical_supervision=supervision,
    )


def time_to_full(
    health: HitosHealth,
    rest_fraction: float | Fraction = 1.0,
    periods: Mapping[str, int] | None = None,
) -> Fraction | None:
    """Hours until no Resistencia is lost, resting as given (full rest by default);
    None when the character does not heal naturally (Incapacitado without rest)."""
    _check_rest(rest_fraction)
    total = Fraction(0)
    progress = health.healing_progress
    for lost in range(health.lost, 0, -1):
        period = healing_period(health_state(health.aguante, lost).key, rest_fraction, periods)
        if period is None:
            return None
        total += (1 - progress) * period
        progress = Fraction(0)
    return total


def activity_test(
    health: HitosHealth,
    rng: RandomSource | None = None,
    *,
    aspect: str | None = None,
    equal_succeeds: bool = False,
) -> tuple[HitosHealth, RollRecord]:
    """The weekly test of an Incapacitado character who keeps up normal activity:
    Aguante + C vs 15. Success changes nothing; failure loses C points (m with a
    positive aspect, M with a negative one). The loss is in `details["loss"]`."""
    if health.state.key != "incapacitado":
        raise RuleError(gettext_noop("the weekly activity test is for an Incapacitado character"))
    if aspect not in LOSS_DIE:
        raise RuleError(gettext_noop("the aspect must be positive or negative"))
    record = roll_test(
        "activity", health.aguante, ACTIVITY_TEST_DIFFICULTY, rng, equal_succeeds=equal_succeeds
    )
    loss = 0
    die_name = ("m", "C", "M")[LOSS_DIE[aspect]]
    if not record.succeeded:
        loss = record.details[die_name]
    record = replace(record, details={**record.details, "loss": loss, "loss_die": die_name})
    new = _with_lost(health, health.lost + loss) if loss else health
    return new, record


def supervision_difficulty(health: HitosHealth) -> int:
    """fácil / media / difícil for Sano / Herido / Incapacitado (muy difícil Moribundo)."""
    return SUPERVISION_DIFFICULTY[health.state.key]


def supervision_spec(
    health: HitosHealth,
    characteristic: int,
    skill: int,
    *,
    modifier: int = 0,
    wound_penalty: int = 0,
    improve: bool = False,
    equal_succeeds: bool = False,
) -> HitosSpec:
    """The supervisor's roll for this patient (their characteristic and skill)."""
    return HitosSpec(
        characteristic,
        skill,
        supervision_difficulty(health),
        modifier=modifier,
        wound_penalty=wound_penalty,
        improve=improve,
        equal_succeeds=equal_succeeds,
    )


def medical_supervision(
    health: HitosHealth, spec: HitosSpec, rng: RandomSource | None = None
) -> tuple[HitosHealth, RollRecord]:
    """Roll the supervisor's check for a period (`spec` from `supervision_spec`);
    success grants «Bajo supervisión médica», failure removes it."""
    if spec.difficulty != supervision_difficulty(health):
        raise RuleError(
            gettext_noop("medical supervision of this patient is against %(difficulty)s"),
            difficulty=supervision_difficulty(health),
        )
    record = roll_check(spec, rng)
    return replace(health, medical_supervision=record.succeeded), record
