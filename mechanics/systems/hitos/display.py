"""Hitos rolls in words: the three dice (m, C, M) and the double 10 or double 1 they show,
and the aspect a roll exhausted."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from mechanics.systems.base import RollWords
from mechanics.templatetags.roll_panel import signed


class HitosWords(RollWords):
    def modifier_lines(self, record: dict) -> list[str]:
        """The bonus added to the kept die, and the modifier and wounds inside it."""
        bonus = record.get("details", {}).get("bonus")
        if bonus is None:
            return []
        spec = record.get("spec") or {}
        inside = []
        if spec.get("modifier"):
            inside.append(_("modifier %(value)s") % {"value": signed(spec["modifier"])})
        if spec.get("wound_penalty"):
            inside.append(_("wounds %(value)s") % {"value": signed(spec["wound_penalty"])})
        return [signed(bonus) + (f" ({', '.join(inside)})" if inside else "")]

    def dice_lines(self, record: dict) -> list[str]:
        details = record.get("details", {})
        if "m" not in details:
            return []
        lines = [
            _("m %(m)s · C %(C)s · M %(M)s — kept %(kept)s")
            % {"m": details["m"], "C": details["C"], "M": details["M"], "kept": details["kept_die"]}
        ]
        flags, outcome = record.get("flags", []), record["outcome"]
        # A tie fails unless the campaign says otherwise: say why, or it reads as a bug.
        if details.get("margin") == 0 and outcome in ("failure", "dramatic_failure"):
            lines.append(
                _("%(total)s does not beat %(difficulty)s: the difficulty must be exceeded.")
                % {"total": record["result"], "difficulty": details["difficulty"]}
            )
        # Double 10 and double 1 are dice, not grades: a failure can show a crítico.
        if "critical" in flags and outcome != "critical":
            lines.append(
                pgettext("roll", "Crítico (double 10) on a failure: a temporary aspect is offered.")
            )
        if "fumble" in flags and outcome != "dramatic_failure":
            lines.append(
                pgettext("roll", "Pifia (double 1) on a success: a temporary aspect is offered.")
            )
        return lines

    def applied_text(self, item: dict) -> str | None:
        if item.get("what") == "aspect":
            return _("Aspect exhausted: %(aspect)s") % {"aspect": item["label"]}
        if item.get("what") == "drama_point_to_owner":
            return _("%(name)s gains the drama point (%(old)s → %(new)s)") % {
                "name": item["label"],
                "old": item["old"],
                "new": item["new"],
            }
        return None
