"""Puntos de Vida for Dado objetivo: damage, states and healing.

States (docs/rules.md#objetivo-incapacitado): a wounded character (some PV lost) with
PV ≤ threshold (setting `incapacitated_threshold`, 10) is Incapacitado, target die one
level down; an unhurt one never is, whatever its maximum (RULES section 4); PV ≤ 0
unconscious; PV ≤ −20 dead. PV never go below −20: dead is dead, more damage changes
nothing.

Healing (the seed is silent; our decision): the GM enters healed PV (`heal`), or
advances hours of rest (`rest`), each full day healing HEALING_PV_PER_DAY = 1 PV, as in
other d10 games of this kind. Rest given in pieces adds up (RULES section 4): the hours
short of a full day are kept in `rest_hours`, so three 8-hour rests heal like one day.
New damage interrupts the rest and restarts them at 0, as Mundo de Tinieblas does; an
unhurt character keeps none. Unconscious characters heal too; the dead do not.
"""

from __future__ import annotations

from dataclasses import dataclass

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.objetivo.catalogue import (
    DEAD_AT,
    DEFAULT_INCAPACITATED_THRESHOLD,
    HEALTH_STATE_BY_KEY,
    UNCONSCIOUS_AT,
)
from mechanics.rules.objetivo.traits import pv as pv_for

HEALING_PV_PER_DAY = 1
HOURS_PER_DAY = 24
MAX_PV_LIMIT = 200


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class ObjetivoHealth:
    max_pv: int
    pv: int
    # Hours of rest already spent toward the next day's healing (0..23).
    rest_hours: int = 0

    def __post_init__(self) -> None:
        if not _whole(self.max_pv) or not 1 <= self.max_pv <= MAX_PV_LIMIT:
            raise RuleError(gettext_noop("maximum PV out of range 1..%(high)s"), high=MAX_PV_LIMIT)
        if not _whole(self.pv) or not DEAD_AT <= self.pv <= self.max_pv:
            raise RuleError(
                gettext_noop("PV must be between %(low)s and the maximum %(high)s"),
                low=DEAD_AT,
                high=self.max_pv,
            )
        if not _whole(self.rest_hours) or not 0 <= self.rest_hours < HOURS_PER_DAY:
            raise RuleError(gettext_noop("hours of rest out of range 0..23"))
        if self.rest_hours and not self.damage_taken:
            raise RuleError(gettext_noop("an unhurt character has no hours of rest to count"))

    @classmethod
    def for_resistencia(cls, resistencia: int) -> ObjetivoHealth:
        """Unhurt, with PV = Resistencia × 2."""
        max_pv = pv_for(resistencia)
        return cls(max_pv, max_pv)

    @property
    def damage_taken(self) -> int:
        return self.max_pv - self.pv

    @property
    def dead(self) -> bool:
        return self.pv <= DEAD_AT

    @property
    def unconscious(self) -> bool:
        return self.pv <= UNCONSCIOUS_AT

    def to_dict(self) -> dict:
        # Sheets stored before rest was counted in pieces have no `rest_hours`.
        data = {"max_pv": self.max_pv, "pv": self.pv}
        if self.rest_hours:
            data["rest_hours"] = self.rest_hours
        return data

    @classmethod
    def from_dict(cls, data: dict) -> ObjetivoHealth:
        try:
            return cls(data["max_pv"], data["pv"], data.get("rest_hours", 0))
        except (KeyError, TypeError) as error:
            raise RuleError(gettext_noop("health data needs max_pv and pv")) from error


@dataclass(frozen=True)
class HealthStatus:
    """What the sheet shows and what rolls need (`level_shift` goes to spec.incapacitated)."""

    key: str  # healthy / incapacitated / unconscious / dead
    name: str
    incapacitated: bool
    unconscious: bool
    dead: bool

    @property
    def level_shift(self) -> int:
        return -1 if self.incapacitated else 0

    @property
    def can_act(self) -> bool:
        return not self.unconscious

    def to_dict(self) -> dict:
        return {
            "key": self.key,
            "name": self.name,
            "incapacitated": self.incapacitated,
            "unconscious": self.unconscious,
            "dead": self.dead,
            "level_shift": self.level_shift,
            "can_act": self.can_act,
        }


def status(
    health: ObjetivoHealth, threshold: int = DEFAULT_INCAPACITATED_THRESHOLD
) -> HealthStatus:
    """The worst state that applies; an unconscious or dead character is also Incapacitado.

    Only a wounded character is Incapacitado: the seed's "está muy herido" and "es herido y
    le quedan 7" describe one, and PV = Resistencia × 2 would otherwise leave every
    Resistencia ≤ 5 character Incapacitado at full health."""
    incapacitated = health.damage_taken > 0 and health.pv <= threshold
    if health.dead:
        key = "dead"
    elif health.unconscious:
        key = "unconscious"
    elif incapacitated:
        key = "incapacitated"
    else:
        key = "healthy"
    return HealthStatus(
        key=key,
        name=HEALTH_STATE_BY_KEY[key].name,
        incapacitated=incapacitated,
        unconscious=health.unconscious,
        dead=health.dead,
    )


def _amount(value: int, what: str) -> None:
    if not _whole(value) or value < 0:
        raise RuleError(gettext_noop("%(what)s must be zero or more"), what=what)


def _with_rest(max_pv: int, pv: int, rest_hours: int) -> ObjetivoHealth:
    """The hours of rest count only while there is a wound left to heal."""
    return ObjetivoHealth(max_pv, pv, rest_hours if pv < max_pv else 0)


def apply_damage(health: ObjetivoHealth, damage: int) -> ObjetivoHealth:
    """Lose `damage` PV (never below −20); a new wound restarts the rest."""
    _amount(damage, gettext_noop("damage"))
    if not damage:
        return health
    return ObjetivoHealth(health.max_pv, max(DEAD_AT, health.pv - damage))


def heal(health: ObjetivoHealth, amount: int) -> ObjetivoHealth:
    """Regain `amount` PV (GM-entered), up to the maximum; the dead do not heal."""
    _amount(amount, gettext_noop("healing"))
    if health.dead and amount:
        raise RuleError(gettext_noop("a dead character does not heal"))
    pv = min(health.max_pv, health.pv + amount)
    return _with_rest(health.max_pv, pv, health.rest_hours)


def rest(
    health: ObjetivoHealth, hours: int, pv_per_day: int = HEALING_PV_PER_DAY
) -> ObjetivoHealth:
    """`hours` of rest: `pv_per_day` PV (1 by default) for each full day, counting the hours
    kept from earlier rests; the hours short of a day are kept for the next one."""
    _amount(hours, gettext_noop("hours"))
    _amount(pv_per_day, "PV per day")
    if health.dead:
        # A dead character's rest counts for nothing; a full day of it is refused.
        return heal(health, (hours // HOURS_PER_DAY) * pv_per_day)
    days, left = divmod(health.rest_hours + hours, HOURS_PER_DAY)
    healed = heal(health, days * pv_per_day)
    return _with_rest(healed.max_pv, healed.pv, left)


def hours_to_heal(health: ObjetivoHealth, pv_per_day: int = HEALING_PV_PER_DAY) -> int | None:
    """Hours of rest until unhurt, less those already rested; None for the dead."""
    if health.dead:
        return None
    if not _whole(pv_per_day) or pv_per_day < 1:
        raise RuleError(gettext_noop("PV healed per day must be at least 1"))
    days = -(-health.damage_taken // pv_per_day)
    return days * HOURS_PER_DAY - health.rest_hours if days else 0


def resize(health: ObjetivoHealth, max_pv: int) -> ObjetivoHealth:
    """New maximum (Resistencia changed), keeping the damage taken and the rest so far."""
    pv = max(DEAD_AT, min(max_pv, max_pv - health.damage_taken))
    return _with_rest(max_pv, pv, health.rest_hours)
