from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import ngettext


@dataclass(frozen=True)
class TraitSpec:
    key: str
    name: str
    kind: str  # attribute / skill / characteristic / advantage
    category: str
    minimum: int
    maximum: int
    description: str = ""
    custom: bool = False


@dataclass(frozen=True)
class ResourceSpec:
    key: str
    label: str
    maximum: int | None
    initial: int


@dataclass(frozen=True)
class HealthView:
    """What the sheet shows of a character's health."""

    state: str | None
    penalty: int
    unconscious: bool = False
    dead: bool = False
    cannot_act: bool = False
    # Time to heal fully, in words ("3 meses 1 semana 4 días y 18 h"), or "" if unhurt.
    time_to_heal: str = ""
    # Tinieblas: one mark per box ("A", "L", "B" or ""), with the box names.
    boxes: tuple[tuple[str, str | None], ...] = ()
    # Other systems: (label, value) lines such as Resistencia 7/15 or wounds per part.
    lines: tuple[tuple[str, str], ...] = ()
    states: tuple[str, ...] = field(default_factory=tuple)


class SheetSystem:
    """Base adapter; each system overrides what it has.

    Labels are game terms, in Spanish as the catalogues give them (RULES.md).
    """

    key: str = ""
    name: str = ""

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        raise NotImplementedError

    def trait_groups(self, campaign) -> list[tuple[str, tuple[TraitSpec, ...]]]:
        """Traits grouped for display, in catalogue order."""
        groups: dict[str, list[TraitSpec]] = {}
        for spec in self.trait_specs(campaign):
            groups.setdefault(spec.category, []).append(spec)
        return [(label, tuple(specs)) for label, specs in groups.items()]

    def trait_spec(self, campaign, key: str) -> TraitSpec | None:
        return next((s for s in self.trait_specs(campaign) if s.key == key), None)

    def initial_ratings(self, campaign) -> dict[str, int]:
        return {spec.key: spec.minimum for spec in self.trait_specs(campaign)}

    def resource_specs(
        self, ratings: Mapping[str, int], details: Mapping, rules: Mapping
    ) -> tuple[ResourceSpec, ...]:
        return ()

    def derived(
        self, ratings: Mapping[str, int], details: Mapping, rules: Mapping, items=()
    ) -> list[tuple[str, str]]:
        return []

    def new_health(self, ratings: Mapping[str, int], details: Mapping, rules: Mapping) -> dict:
        return {}

    def health_view(
        self, health: Mapping, ratings: Mapping[str, int], details: Mapping, rules: Mapping
    ) -> HealthView:
        raise NotImplementedError


def duration_in_words(*, months: int = 0, weeks: int = 0, days: int = 0, hours: int = 0) -> str:
    parts = []
    if months:
        parts.append(ngettext("%d month", "%d months", months) % months)
    if weeks:
        parts.append(ngettext("%d week", "%d weeks", weeks) % weeks)
    if days:
        parts.append(ngettext("%d day", "%d days", days) % days)
    if hours:
        parts.append(ngettext("%d hour", "%d hours", hours) % hours)
    return " ".join(parts)


def hours_in_words(hours: int | None) -> str:
    """Whole hours as months, weeks, days and hours (a month is 30 days)."""
    if not hours:
        return ""
    months, rest = divmod(int(hours), 30 * 24)
    weeks, rest = divmod(rest, 7 * 24)
    days, hours = divmod(rest, 24)
    return duration_in_words(months=months, weeks=weeks, days=days, hours=hours)
