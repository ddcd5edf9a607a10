"""What a purchase with XP (or with a pool's points) would buy and what it costs.

The system decides what a sheet may buy and prices it with its engine
(`GameSystem.advancement`, in `mechanics/systems/<key>/advancement.py`); this module
holds what every purchase is (`PurchaseSpec`, `Quote`, `Option`) and asks the system.
Read-only; `characters.services` applies purchases.

The per-scene XP rubric is the campaign's choice (`Campaign.uses_xp_rubric`), whatever
its system; the rubric itself is a system's (`GameSystem.scene_rubric`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.models import Campaign
from campaigns.texts import Message
from characters.models import Character, XpPurchase
from mechanics.rules.errors import RuleError
from mechanics.systems.base import Advancement, RubricLine
from mechanics.systems.registry import scene_rubric_for

Kind = XpPurchase.Kind


@dataclass(frozen=True)
class PurchaseSpec:
    """What the player asks for: a kind, a key and, for specialties and merits, a name
    (or, for a new catalogue merit, the detail that tells it apart: a language…)."""

    kind: str
    key: str = ""
    name: str = ""
    detail: str = ""


@dataclass(frozen=True)
class Quote:
    """A purchase checked against the sheet, with the engine's cost."""

    kind: str
    key: str
    name: str
    current: int
    target: int
    cost: int
    # The merit row raised, when the sheet already has the merit.
    merit_id: int | None = None
    # The skill a specialty is for, by name.
    skill_name: str = ""
    # The pool the cost is paid from ("" = the XP ledger).
    pool: str = ""

    @property
    def uses_drama_points(self) -> bool:
        return self.kind == Kind.DRAMA

    @property
    def is_new(self) -> bool:
        return self.current == 0

    @property
    def label(self) -> str:
        """ "Sigilo 2 → 3", "Especialidad de Sigilo: Tejados", "Recursos 0 → 1"."""
        if self.kind == Kind.SPECIALTY:
            return Message(
                gettext_noop("Specialty of %(skill)s: %(name)s"),
                skill=self.skill_name,
                name=self.name,
            )
        return f"{self.name} {self.current} → {self.target}"

    def as_spec(self) -> PurchaseSpec:
        return PurchaseSpec(kind=self.kind, key=self.key, name=self.name)


@dataclass(frozen=True)
class Option:
    """One choice in a purchase list: its value, label and cost (None: cannot be bought)."""

    value: str
    label: str
    cost: int | None
    note: str = ""


def refuse(message: str, code: str) -> ValidationError:
    return ValidationError(message, code=code)


def rule_error(error: RuleError) -> ValidationError:
    return ValidationError(error.translated(_) + ".", code="rule")


def advancement_of(campaign) -> Advancement | None:
    """What this campaign's sheets may buy, or None when its system or settings allow
    no purchases."""
    found = campaign.game_system.advancement
    return found if found is not None and found.available(campaign) else None


def trait_kind(character: Character, key: str) -> str | None:
    """The purchase kind that raises trait `key` on this sheet."""
    found = advancement_of(character.campaign)
    return found.trait_kind(character, key) if found is not None else None


def quote(
    character: Character, spec: PurchaseSpec, *, ratings: Mapping[str, int] | None = None
) -> Quote:
    """Check `spec` against the sheet and price it with the system's engine.

    The sheet's ratings may be passed in when the caller has them already; otherwise
    they are read. Raises ValidationError with a message for the player.
    """
    if spec.kind not in Kind.values:
        raise refuse(_("Unknown kind of purchase."), "unknown_kind")
    found = advancement_of(character.campaign)
    if found is None or spec.kind not in found.kinds:
        if spec.kind == Kind.DRAMA:
            raise refuse(
                _("This campaign does not allow raising skills with drama points."), "no_drama"
            )
        raise refuse(_("This rule system has no purchases with XP."), "no_xp_purchases")
    return found.quote(character, spec, ratings=ratings)


def purchase_label(character: Character, purchase: XpPurchase) -> str:
    """How a stored purchase reads, as its quote did."""
    campaign = character.campaign
    skill = campaign.game_system.trait_spec(campaign, purchase.key)
    return Quote(
        purchase.kind,
        purchase.key,
        purchase.name,
        purchase.current,
        purchase.target,
        purchase.cost,
        skill_name=skill.name if skill else purchase.key,
    ).label


# How an award reads ----------------------------------------------------------------------


def rubric_lines(campaign: Campaign, breakdown: Mapping | None) -> list[RubricLine]:
    """The rubric of an award as the engine itemises it; [] for a plain amount or bad data.
    A stored rubric reads the same after its campaign turns rubrics off."""
    rubric = scene_rubric_for(campaign.game_system)
    if not breakdown or rubric is None:
        return []
    try:
        award = rubric.award(dict(breakdown))
    except (RuleError, KeyError, TypeError):
        return []
    return rubric.lines(award)
