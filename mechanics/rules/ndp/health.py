"""Wounds per body part and the states they bring (3d6 + NdP).

Stored: the wounds on each part (tier, damage type, hours of rest so far), the
hemorrhage of each part and unconsciousness. Derived from the wounds: Contusionado,
Fracturado, Desmembrado and death, so they end when their wounds heal.

Decisions where the seed is silent or terse (see also docs/rules.md#ndp-decisions):
- States (docs/rules.md#ndp-states-any-type): Contusionado is any grave wound on the
  head and Desmembrado any letal wound on a limb, whatever the damage type (the seed
  files them under Contundente and Cortante); Fracturado needs 2 grave contundente
  wounds on one limb, Hemorragia leve 2 grave cortante wounds on one part.
- Hemorragia grave comes only with Desmembrado (the seed gives it no other trigger); it
  replaces a Hemorragia leve on that part.
- "Occupied" limb: a limb whose letal box is taken, i.e. that already holds a letal
  wound (Desmembrado). A letal on it moves to the part nearest the torso: the torso.
- Bleeding wounds (one per round on each bleeding part) have no damage type.
- Wounds never escalate by number (the seed gives no boxes per tier).
- Healing (the seed only says "reposo hasta curarse"): with rest every wound heals in
  parallel, a leve after 24 h, a grave after 168 h (a week); a letal on a limb (the limb
  is lost) never heals. No healing while a part bleeds (apply Auxiliar first) or once
  dead.
- Overload (twice the maximum load): one grave contundente wound per turn on each leg
  still attached.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.ndp.catalogue import (
    BODY_PARTS,
    BODY_PARTS_BY_KEY,
    CONTUSIONADO_ADVERSITY,
    FRACTURADO_DESGRACIAS,
    LEGS,
    STATES_BY_KEY,
    VITAL_PARTS,
    WOUND_TIER_KEYS,
    body_part,
    check_damage_type,
)

HEAL_HOURS: dict[str, int | None] = {"leve": 24, "grave": 168, "letal": None}
BLEEDING_STATES = ("hemorragia_leve", "hemorragia_grave")
BLEEDING_TIER = {"hemorragia_leve": "leve", "hemorragia_grave": "grave"}
PART_KEYS: tuple[str, ...] = tuple(part.key for part in BODY_PARTS)


@dataclass(frozen=True)
class Wound:
    tier: str  # leve / grave / letal
    damage_type: str | None = None  # contundente / cortante; None for bleeding and others
    rest_hours: int = 0  # rest accumulated towards healing

    def __post_init__(self) -> None:
        if self.tier not in WOUND_TIER_KEYS:
            raise RuleError(gettext_noop("unknown wound tier %(key)s"), key=self.tier)
        check_damage_type(self.damage_type, allow_none=True)
        if isinstance(self.rest_hours, bool) or not isinstance(self.rest_hours, int):
            raise RuleError(gettext_noop("rest hours must be a whole number"))
        if self.rest_hours < 0:
            raise RuleError(gettext_noop("rest hours cannot be negative"))

    def to_dict(self) -> dict:
        return {"tier": self.tier, "damage_type": self.damage_type, "rest_hours": self.rest_hours}

    @classmethod
    def from_dict(cls, data: dict) -> Wound:
        return cls(
            tier=data["tier"],
            damage_type=data.get("damage_type"),
            rest_hours=data.get("rest_hours", 0),
        )


@dataclass(frozen=True)
class PartHealth:
    part: str
    wounds: tuple[Wound, ...] = ()
    bleeding: str | None = None  # "hemorragia_leve" / "hemorragia_grave"

    def __post_init__(self) -> None:
        body_part(self.part)
        if self.bleeding is not None and self.bleeding not in BLEEDING_STATES:
            raise RuleError(gettext_noop("unknown bleeding state %(key)s"), key=self.bleeding)

    def count(self, tier: str, damage_type: str | None = None) -> int:
        return sum(
            1
            for w in self.wounds
            if w.tier == tier and (damage_type is None or w.damage_type == damage_type)
        )

    @property
    def has_letal(self) -> bool:
        return any(w.tier == "letal" for w in self.wounds)

    @property
    def is_limb(self) -> bool:
        return BODY_PARTS_BY_KEY[self.part].is_limb

    @property
    def states(self) -> tuple[str, ...]:
        """State keys of this part, in catalogue order."""
        found = []
        if self.part == "cabeza" and self.count("grave"):
            found.append("contusionado")
        dismembered = self.is_limb and self.has_letal
        if self.is_limb and not dismembered and self.count("grave", "contundente") >= 2:
            found.append("fracturado")
        if self.bleeding:
            found.append(self.bleeding)
        if dismembered:
            found.append("desmembrado")
        return tuple(found)

    def to_dict(self) -> dict:
        return {
            "part": self.part,
            "wounds": [w.to_dict() for w in self.wounds],
            "bleeding": self.bleeding,
        }

    @classmethod
    def from_dict(cls, data: dict) -> PartHealth:
        return cls(
            part=data["part"],
            wounds=tuple(Wound.from_dict(w) for w in data.get("wounds", ())),
            bleeding=data.get("bleeding"),
        )


def _empty_parts() -> tuple[PartHealth, ...]:
    return tuple(PartHealth(key) for key in PART_KEYS)


@dataclass(frozen=True)
class NdpHealth:
    """A character's wounds: one PartHealth per body part, in catalogue order."""

    parts: tuple[PartHealth, ...] = _empty_parts()
    unconscious: bool = False

    def __post_init__(self) -> None:
        if tuple(p.part for p in self.parts) != PART_KEYS:
            raise RuleError(gettext_noop("health must list every body part once, in order"))
        if not isinstance(self.unconscious, bool):
            raise RuleError(gettext_noop("unconscious must be true or false"))

    def part(self, key: str) -> PartHealth:
        body_part(key)
        return self.parts[PART_KEYS.index(key)]

    @property
    def dead(self) -> bool:
        """Muerte: a letal wound on the head or the torso."""
        return any(self.part(key).has_letal for key in VITAL_PARTS)

    @property
    def states(self) -> tuple[tuple[str, str | None], ...]:
        """(state key, part key or None) pairs: Muerte first, as the one that says most
        (the sheet's headline is the first), then body parts in catalogue order."""
        found: list[tuple[str, str | None]] = [("muerte", None)] if self.dead else []
        found += [(state, p.part) for p in self.parts for state in p.states]
        if self.unconscious:
            found.append(("inconsciencia", None))
        return tuple(found)

    @property
    def bleeding_parts(self) -> tuple[str, ...]:
        return tuple(p.part for p in self.parts if p.bleeding)

    @property
    def fractured_limbs(self) -> tuple[str, ...]:
        return tuple(p.part for p in self.parts if "fracturado" in p.states)

    @property
    def dismembered_limbs(self) -> tuple[str, ...]:
        return tuple(p.part for p in self.parts if "desmembrado" in p.states)

    @property
    def quick_action_adversity(self) -> int:
        """Contusionado: +5 adversity to quick actions."""
        return CONTUSIONADO_ADVERSITY if "contusionado" in self.part("cabeza").states else 0

    def desgracias_for(self, limbs: Iterable[str]) -> int:
        """Fracturado: 2 Desgracias for an action that uses a fractured limb (each)."""
        fractured = set(self.fractured_limbs)
        return FRACTURADO_DESGRACIAS * sum(1 for limb in set(limbs) if limb in fractured)

    def summary(self) -> dict:
        """What a sheet shows: wounds per part, states with their names, flags."""
        return {
            "parts": {
                p.part: {
                    "name": BODY_PARTS_BY_KEY[p.part].name,
                    "leve": p.count("leve"),
                    "grave": p.count("grave"),
                    "letal": p.count("letal"),
                    "states": list(p.states),
                }
                for p in self.parts
            },
            "states": [
                {"key": key, "name": STATES_BY_KEY[key].name, "part": part}
                for key, part in self.states
            ],
            "dead": self.dead,
            "unconscious": self.unconscious,
            "quick_action_adversity": self.quick_action_adversity,
            # Not a bare number of hours: bleeding stops all healing and a lost limb never
            # heals, which a time alone would hide (docs/rules.md#ndp-heal-estimate).
            "healing": heal_estimate(self).to_dict(),
        }

    def to_dict(self) -> dict:
        return {"parts": [p.to_dict() for p in self.parts], "unconscious": self.unconscious}

    @classmethod
    def from_dict(cls, data: dict) -> NdpHealth:
        if not isinstance(data, dict):
            raise RuleError(gettext_noop("health must be an object"))
        try:
            parts = tuple(PartHealth.from_dict(p) for p in data.get("parts", ()))
        except (KeyError, TypeError, AttributeError):
            raise RuleError(gettext_noop("malformed health record")) from None
        return cls(parts=parts or _empty_parts(), unconscious=data.get("unconscious", False))


def _with_part(health: NdpHealth, part: PartHealth) -> NdpHealth:
    parts = tuple(part if p.part == part.part else p for p in health.parts)
    return replace(health, parts=parts)


def wound_part(health: NdpHealth, part: str, tier: str) -> str:
    """Where a wound of `tier` aimed at `part` lands: a letal on a limb that already holds
    one moves to the part nearest the torso."""
    if tier == "letal" and health.part(part).is_limb and health.part(part).has_letal:
        return BODY_PARTS_BY_KEY[part].nearer_to_torso
    return part


def apply_wound(
    health: NdpHealth, part: str, tier: str, damage_type: str | None = None
) -> NdpHealth:
    """Record one wound and the states it brings.

    A letal on a limb that already holds one moves to the torso; a letal on the head or
    the torso kills; a letal on a free limb dismembers it and starts Hemorragia grave.
    The second grave cortante on a part starts Hemorragia leve there.
    """
    if health.dead:
        raise RuleError(gettext_noop("the character is dead"))
    if tier not in WOUND_TIER_KEYS:
        raise RuleError(gettext_noop("unknown wound tier %(key)s"), key=tier)
    check_damage_type(damage_type, allow_none=True)
    target = health.part(wound_part(health, part, tier))
    wounded = replace(target, wounds=(*target.wounds, Wound(tier, damage_type)))
    if tier == "letal" and wounded.is_limb:
        wounded = replace(wounded, bleeding="hemorragia_grave")
    elif (
        tier == "grave"
        and damage_type == "cortante"
        and wounded.count("grave", "cortante") >= 2
        and wounded.bleeding != "hemorragia_grave"
    ):
        wounded = replace(wounded, bleeding="hemorragia_leve")
    return _with_part(health, wounded)


def apply_wounds(health: NdpHealth, wounds: Iterable[tuple[str, str, str | None]]) -> NdpHealth:
    """Apply (part, tier, damage_type) wounds in order."""
    for part, tier, damage_type in wounds:
        health = apply_wound(health, part, tier, damage_type)
    return health


def bleed_round(health: NdpHealth) -> NdpHealth:
    """One round of bleeding: a leve (Hemorragia leve) or grave (Hemorragia grave)
    wound on each bleeding part. Nothing happens to the dead."""
    if health.dead:
        return health
    for part in health.bleeding_parts:
        health = apply_wound(health, part, BLEEDING_TIER[health.part(part).bleeding])
    return health


def overload_turn(health: NdpHealth) -> NdpHealth:
    """A turn carrying twice the maximum load: one grave contundente on each leg."""
    if health.dead:
        return health
    for leg in LEGS:
        if "desmembrado" not in health.part(leg).states:
            health = apply_wound(health, leg, "grave", "contundente")
    return health


def auxiliar(health: NdpHealth, part: str | None = None) -> NdpHealth:
    """A successful Auxiliar: stops the bleeding (of one part, or all) and wakes the
    character."""
    if part is not None:
        body_part(part)
    parts = tuple(
        replace(p, bleeding=None) if part is None or p.part == part else p for p in health.parts
    )
    return replace(health, parts=parts, unconscious=False)


def set_unconscious(health: NdpHealth, unconscious: bool = True) -> NdpHealth:
    """The seed never says when a character falls unconscious: the GM marks it."""
    return replace(health, unconscious=unconscious)


def heal(health: NdpHealth, hours: int) -> NdpHealth:
    """Rest for `hours`: every healable wound advances; finished ones disappear."""
    if isinstance(hours, bool) or not isinstance(hours, int) or hours < 0:
        raise RuleError(gettext_noop("rest must be a whole number of hours, 0 or more"))
    if health.dead:
        raise RuleError(gettext_noop("the character is dead"))
    if health.bleeding_parts:
        raise RuleError(gettext_noop("stop the bleeding first (Auxiliar)"))
    parts = []
    for p in health.parts:
        kept = []
        for wound in p.wounds:
            needed = HEAL_HOURS[wound.tier]
            if needed is None:
                kept.append(wound)
                continue
            rested = wound.rest_hours + hours
            if rested < needed:
                kept.append(replace(wound, rest_hours=rested))
        parts.append(replace(p, wounds=tuple(kept)))
    return replace(health, parts=tuple(parts))


def time_to_heal(health: NdpHealth) -> int:
    """Hours of rest until every healable wound is gone (letal wounds never heal).

    Counted from when rest may start: `heal` refuses while a part bleeds or once dead.
    `heal_estimate` says whether and what that time heals."""
    remaining = 0
    for p in health.parts:
        for wound in p.wounds:
            needed = HEAL_HOURS[wound.tier]
            if needed is not None:
                remaining = max(remaining, needed - wound.rest_hours)
    return remaining


@dataclass(frozen=True)
class HealEstimate:
    """What rest will do to a character's wounds, as `heal` does it.

    `hours`: rest until every wound that can heal is gone (0: none left), counted from
    when rest may start. `bleeding`: the parts whose bleeding stops all healing until
    Auxiliar stops it (`heal` refuses meanwhile). `lost`: the limbs whose letal wound
    never heals. `dead`: nothing heals.
    """

    hours: int = 0
    bleeding: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    dead: bool = False

    @property
    def heals_fully(self) -> bool:
        """Rest starting now leaves no wound after `hours`: the time is the whole story."""
        return not (self.dead or self.bleeding or self.lost)

    def to_dict(self) -> dict:
        return {
            "hours": self.hours,
            "bleeding": list(self.bleeding),
            "lost": list(self.lost),
            "dead": self.dead,
            "heals_fully": self.heals_fully,
        }


def heal_estimate(health: NdpHealth) -> HealEstimate:
    """The time to heal with what stands in its way (docs/rules.md#ndp-heal-estimate)."""
    if health.dead:
        return HealEstimate(dead=True)
    # Alive, a letal wound can only be on a limb: that limb is lost for good.
    return HealEstimate(
        hours=time_to_heal(health),
        bleeding=health.bleeding_parts,
        lost=health.dismembered_limbs,
    )
