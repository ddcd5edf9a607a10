"""Mundo de Tinieblas rolls in words: successes, the pool's steps, the chance die."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from mechanics.rules.tinieblas.rolls import LABEL_ATTRIBUTE, LABEL_SKILL
from mechanics.systems.base import RollWords
from mechanics.templatetags.roll_panel import signed


def step_label(label: str, names: Mapping[str, str]) -> str:
    """A pool step's words: the trait's own name for the attribute and skill steps."""
    if label == LABEL_ATTRIBUTE and names.get("attribute"):
        return names["attribute"]
    if label == LABEL_SKILL and names.get("skill"):
        return names["skill"]
    return _(label)


def translated_steps(
    steps: Iterable[tuple[str, int]], names: Mapping[str, str]
) -> tuple[tuple[str, int], ...]:
    return tuple((step_label(label, names), delta) for label, delta in steps)


class TinieblasWords(RollWords):
    dramatic_failure = gettext_lazy("Dramatic failure")

    def headline(self, record: dict) -> str:
        if record["kind"] == "initiative":
            return super().headline(record)
        return ngettext("%(count)s success", "%(count)s successes", record["result"]) % {
            "count": record["result"]
        }

    def setup_lines(self, details: dict) -> list[str]:
        if not details.get("breakdown"):
            return super().setup_lines(details)
        traits = details.get("traits") or {}
        steps = " · ".join(
            f"{step_label(step['label'], traits)} {signed(step['delta'])}"
            for step in details["breakdown"]
        )
        pool = details.get("pool", 0)
        return [
            ngettext("Pool of %(count)s die: %(steps)s", "Pool of %(count)s dice: %(steps)s", pool)
            % {"count": pool, "steps": steps}
        ]

    def dice_lines(self, record: dict) -> list[str]:
        if record.get("details", {}).get("chance_die"):
            return [_("Chance die: only a 10, 9 or 8 succeeds, a 1 is a dramatic failure.")]
        return []
