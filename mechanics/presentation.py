"""How a stored roll reads in the feed and the log: who, when, the dice drawn as dice,
the outcome and effects in words.

`roll_display(roll)` turns a `Roll` (its record is the engine's `RollRecord.to_dict()`)
into plain values for `templates/mechanics/_roll.html`. `die_view` draws one die (also
used by the roll panel's result); the words of a system's roll come from the roll panel's
`mechanics.display`, those of a GM's free roll from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from mechanics.dice_view import DieView, die_view
from mechanics.display import roll_display as panel_display
from mechanics.models import Roll
from mechanics.rules.expressions import SYSTEM as FREE_SYSTEM

# Free rolls (mechanics.rules.expressions): a pool has the Tinieblas grades, a sum none.
FREE_OUTCOMES = {
    "failure": (gettext_lazy("Failure"), "failure"),
    "marginal": (gettext_lazy("Marginal success"), "success"),
    "success": (gettext_lazy("Success"), "success"),
    "exceptional": (gettext_lazy("Exceptional success"), "exceptional"),
    "dramatic_failure": (gettext_lazy("Dramatic failure"), "dramatic"),
}


@dataclass(frozen=True)
class DiceGroupView:
    label: str
    dice: list[DieView]


@dataclass(frozen=True)
class RollDisplay:
    roll: Roll
    who: str
    character: str
    scene: str
    label: str
    expression: str
    groups: list[DiceGroupView]
    result: str
    outcome: str
    tone: str
    notes: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """One line for announcements and exports: who, what, result, outcome."""
        parts = [self.who]
        if self.character:
            parts.append(self.character)
        if self.label or self.expression:
            parts.append(self.label or self.expression)
        parts.append(self.result)
        if self.outcome:
            parts.append(self.outcome)
        return " · ".join(parts)


def _dice_views(record: dict) -> list[DieView]:
    dice = [die for die in record.get("dice") or () if isinstance(die, dict)]
    # "Kept" only means something when some dice were not counted.
    mark_kept = any("dropped" in (die.get("tags") or ()) for die in dice)
    return [die_view(die, mark_kept=mark_kept) for die in dice]


def _free_body(roll: Roll, record: dict) -> dict:
    """Words for a free roll: successes and their grade for a pool, the total for a sum."""
    if roll.kind == "pool":
        result = ngettext("%(count)s success", "%(count)s successes", roll.result) % {
            "count": roll.result
        }
        words, tone = FREE_OUTCOMES.get(roll.outcome, ("", "neutral"))
    else:
        result, words, tone = _("Total %(total)s") % {"total": roll.result}, "", "neutral"
    details = record.get("details") or {}
    return {
        "groups": [DiceGroupView("", _dice_views(record))],
        "result": result,
        "outcome": str(words),
        "tone": tone,
        "notes": [_("Chance die")] if details.get("chance_die") else [],
        "effects": [],
    }


def _system_body(roll: Roll) -> dict:
    """Words for a roll of a system: the roll panel's own reading (mechanics.display),
    so a roll reads the same in its result, the feed and the log."""
    shown = panel_display(roll)
    groups = [DiceGroupView("", shown.dice)]
    if shown.damage_dice:
        groups.append(DiceGroupView(_("Damage dice"), shown.damage_dice))
    return {
        "groups": groups,
        "result": shown.headline,
        "outcome": str(shown.outcome),
        "tone": shown.tone,
        "notes": list(shown.lines),
        "effects": list(shown.applied),
    }


def roll_display(roll: Roll) -> RollDisplay:
    """Everything `_roll.html` shows about one roll (its relations already loaded)."""
    record = roll.record if isinstance(roll.record, dict) else {}
    spec = record.get("spec") if isinstance(record.get("spec"), dict) else {}
    free = roll.system == FREE_SYSTEM
    body = _free_body(roll, record) if free else _system_body(roll)
    return RollDisplay(
        roll=roll,
        who=roll.user.username if roll.user_id and roll.user else _("someone"),
        character=roll.character.name if roll.character_id and roll.character else "",
        scene=roll.scene.title if roll.scene_id and roll.scene else "",
        label=roll.label,
        expression=str(spec.get("expression", "")) if free else "",
        **body,
    )
