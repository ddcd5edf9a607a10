"""How a stored roll reads on screen: its dice marked, its outcome in words, its effects.

Works from the stored `Roll.record` (the engine's RollRecord.to_dict()), so a roll looks
the same right after it is made and later in the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from mechanics.dice_view import DieView, die_view
from mechanics.models import Roll
from mechanics.setup import step_label
from mechanics.templatetags.roll_panel import signed


@dataclass
class RollDisplay:
    roll: Roll
    outcome: str
    tone: str  # success / exceptional / failure / dramatic / neutral: a CSS hook only
    headline: str
    dice: list[DieView]
    damage_dice: list[DieView] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)


def _outcome_words(system: str, kind: str, outcome: str) -> tuple[str, str]:
    if outcome == "won":
        return _("Wins"), "success"
    if outcome == "lost":
        return _("Loses"), "failure"
    if outcome == "tie":
        return _("Tie"), "neutral"
    if kind == "attack":
        if outcome == "critical":
            return _("Hit, and a crítico"), "exceptional"
        if outcome == "success":
            return _("Hit"), "success"
        if outcome == "dramatic_failure":
            return _("Miss, and a pifia"), "dramatic"
        return _("Miss"), "failure"
    words = {
        "failure": (_("Failure"), "failure"),
        "marginal": (_("Marginal success"), "success"),
        "success": (_("Success"), "success"),
        "exceptional": (_("Exceptional success"), "exceptional"),
        "rolled": (_("Rolled"), "neutral"),
    }
    if outcome == "dramatic_failure":
        if system == "tinieblas":
            return _("Dramatic failure"), "dramatic"
        return pgettext("roll", "Pifia"), "dramatic"
    if outcome == "critical":
        return pgettext("roll", "Crítico"), "exceptional"
    return words.get(outcome, (outcome, "neutral"))


def _applied_text(item: dict) -> str:
    what = item.get("what")
    if what == "aspect":
        return _("Aspect exhausted: %(aspect)s") % {"aspect": item["label"]}
    if what == "specialization":
        return _("Specialization used for this scene: %(skill)s") % {"skill": item["label"]}
    if what == "destiny_penalty":
        return _("The destiny point handed back has been used.")
    if what == "pdp":
        return _("%(skill)s: PdP %(old)s → %(new)s") % {
            "skill": item["label"],
            "old": item["old"],
            "new": item["new"],
        }
    if what == "ndp":
        return _("%(skill)s rises to NdP %(new)s!") % {"skill": item["label"], "new": item["new"]}
    return f"{item['label']}: {item['old']} → {item['new']}"


def roll_display(roll: Roll) -> RollDisplay:
    record = roll.record
    system, kind, outcome = record["system"], record["kind"], record["outcome"]
    details = record.get("details", {})
    flags = record.get("flags", [])
    words, tone = _outcome_words(system, kind, outcome)
    if system == "tinieblas" and kind != "initiative":
        headline = ngettext("%(count)s success", "%(count)s successes", record["result"]) % {
            "count": record["result"]
        }
    else:
        headline = _("Total %(total)s") % {"total": record["result"]}
    raw = record.get("dice", [])
    mark_kept = any("dropped" in d.get("tags", ()) for d in raw)
    dice = [die_view(d, mark_kept=mark_kept) for d in raw if "damage" not in d.get("tags", ())]
    damage_dice = [die_view(d, mark_kept=False) for d in raw if "damage" in d.get("tags", ())]
    lines = []
    traits = details.get("traits") or {}
    if system == "tinieblas" and details.get("breakdown"):
        steps = " · ".join(
            f"{step_label(step['label'], traits)} {signed(step['delta'])}"
            for step in details["breakdown"]
        )
        lines.append(
            ngettext(
                "Pool of %(count)s die: %(steps)s",
                "Pool of %(count)s dice: %(steps)s",
                details.get("pool", 0),
            )
            % {"count": details.get("pool", 0), "steps": steps}
        )
    elif traits:
        lines.append(" + ".join(traits.values()))
    if kind == "initiative" and details.get("base") is not None:
        lines.append(_("Initiative before the die: %(base)s") % {"base": details["base"]})
    if kind == "initiative" and details.get("tiebreak") is not None:
        lines.append(_("Tie-break roll: %(value)s") % {"value": details["tiebreak"]})
    if details.get("chance_die"):
        lines.append(_("Chance die: only a 10, 9 or 8 succeeds, a 1 is a dramatic failure."))
    if system == "hitos" and "m" in details:
        lines.append(
            _("m %(m)s · C %(C)s · M %(M)s — kept %(kept)s")
            % {"m": details["m"], "C": details["C"], "M": details["M"], "kept": details["kept_die"]}
        )
        if "critical" in flags and outcome != "critical":
            lines.append(pgettext("roll", "Crítico (double 10): a temporary aspect is offered."))
        if "fumble" in flags and outcome != "dramatic_failure":
            lines.append(pgettext("roll", "Pifia (double 1): a temporary aspect is offered."))
    if details.get("difficulty") is not None:
        if kind == "attack":
            defensa = details.get("defensa", details["difficulty"])
            lines.append(_("Against Defensa %(defensa)s") % {"defensa": defensa})
        else:
            lines.append(_("Difficulty %(difficulty)s") % {"difficulty": details["difficulty"]})
    if system == "ndp" and details.get("threshold") is not None and kind != "opposed":
        lines.append(_("Needed %(threshold)s or more") % {"threshold": details["threshold"]})
    if kind == "extended":
        lines.append(
            _("Progress: %(progress)s of %(target)s successes")
            % {"progress": details["progress"], "target": details["target"]}
        )
        if details.get("reached"):
            lines.append(_("The extended action succeeds."))
        elif details.get("done"):
            lines.append(_("The extended action is over without success."))
    if kind == "teamwork" and details.get("helper_successes") is not None:
        lines.append(
            ngettext(
                "Helpers added %(count)s die.", "Helpers added %(count)s dice.", details["bonus"]
            )
            % {"count": details["bonus"]}
        )
    if "opponent" in details:
        lines.append(
            _("Against %(name)s: %(result)s")
            % {"name": details["opponent"]["name"], "result": details["opponent"]["result"]}
        )
    if "helping" in details:
        lines.append(_("Helping %(name)s") % {"name": details["helping"]["name"]})
    if details.get("role") == "defender":
        lines.append(_("Defender: wins ties."))
    damage = record.get("effects", {}).get("damage")
    if damage is not None:
        text = _("Damage: %(damage)s") % {"damage": damage}
        if details.get("tier"):
            text += f" ({details['tier']})"
        elif system == "ndp" and kind == "attack":
            text += " " + _("(no wound)")
        if details.get("damage_category"):
            text += f" · {details['damage_category']}"
        if (details.get("damage_roll") or {}).get("multiplier") == 2:
            text += " · " + _("doubled by the crítico")
        lines.append(text)
    if "progress" in flags and system == "ndp":
        lines.append(_("The d6 reached the progression difficulty: +1 PdP."))
    applied = [_applied_text(item) for item in details.get("applied", [])]
    return RollDisplay(
        roll=roll,
        outcome=words,
        tone=tone,
        headline=headline,
        dice=dice,
        damage_dice=damage_dice,
        lines=lines,
        applied=applied,
    )
