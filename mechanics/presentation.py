"""How a stored roll reads on every page: who, when, the dice drawn as dice, the outcome and
effects in words.

`roll_display(roll)` turns a `Roll` (its record is the engine's `RollRecord.to_dict()`)
into plain values: the roll panel's result (`templates/mechanics/_roll_result.html`), the
feed, the log and the export (`templates/mechanics/_roll.html`) all read the same, right
after a roll and later. What a system says in its own words (its outcomes, its headline,
its lines and effects) comes from its `RollWords` (`system.display`); a GM's free roll
reads as the engine's free expressions (`mechanics.rules.expressions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from mechanics.dice_view import DieView, die_view
from mechanics.models import Roll
from mechanics.rules.expressions import SYSTEM as FREE_SYSTEM
from mechanics.systems.base import RollWords
from mechanics.systems.registry import get_system

# Free rolls (mechanics.rules.expressions): a pool has success grades, a sum none.
FREE_OUTCOMES = {
    "failure": (gettext_lazy("Failure"), "failure"),
    "marginal": (gettext_lazy("Marginal success"), "success"),
    "success": (gettext_lazy("Success"), "success"),
    "exceptional": (gettext_lazy("Exceptional success"), "exceptional"),
    "dramatic_failure": (gettext_lazy("Dramatic failure"), "dramatic"),
}
# A system's roll outcomes, in the words every system shares.
OUTCOMES = {
    "failure": (gettext_lazy("Failure"), "failure"),
    "marginal": (gettext_lazy("Marginal success"), "success"),
    "success": (gettext_lazy("Success"), "success"),
    "exceptional": (gettext_lazy("Exceptional success"), "exceptional"),
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
    # The result in words ("3 successes", "Total 17") and the outcome ("Success").
    result: str
    outcome: str
    tone: str  # success / exceptional / failure / dramatic / neutral: a CSS hook only
    dice: list[DieView]
    damage_dice: list[DieView] = field(default_factory=list)
    # What was rolled, in one line: the pool or traits, the modifiers, the difficulty.
    setup: str = ""
    notes: list[str] = field(default_factory=list)
    # What the roll changed on the sheet (a pool spent, an aspect exhausted...).
    effects: list[str] = field(default_factory=list)

    @property
    def groups(self) -> list[DiceGroupView]:
        groups = [DiceGroupView("", self.dice)]
        if self.damage_dice:
            groups.append(DiceGroupView(_("Damage dice"), self.damage_dice))
        return groups

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


GENERIC_WORDS = RollWords()


def _words(system_key: str) -> RollWords:
    try:
        return get_system(system_key).display or GENERIC_WORDS
    except LookupError:  # a roll of a system no longer installed still reads
        return GENERIC_WORDS


def _outcome_words(words: RollWords, kind: str, outcome: str) -> tuple[str, str]:
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
    if outcome == "dramatic_failure":
        return str(words.dramatic_failure), "dramatic"
    if outcome == "critical":
        return pgettext("roll", "Crítico"), "exceptional"
    if kind == "initiative" or outcome == "initiative":
        # The label already says "Iniciativa"; the total is all there is to tell.
        return "", "neutral"
    if outcome == "rolled":
        return str(words.no_target), "neutral"
    # Only the outcome shown is translated: this runs for every card of a list.
    text, tone = OUTCOMES.get(outcome, (outcome, "neutral"))
    return str(text), tone


def _applied_text(words: RollWords, item: dict) -> str:
    text = words.applied_text(item)
    if text is not None:
        return text
    return f"{item['label']}: {item['old']} → {item['new']}"


def _setup(words: RollWords, record: dict) -> str:
    """What was rolled, in one line: every card shows it, the compact ones included."""
    details = record.get("details", {})
    parts = words.setup_lines(details) + words.modifier_lines(record)
    if record["kind"] == "initiative" and details.get("base") is not None:
        parts.append(_("Initiative before the die: %(base)s") % {"base": details["base"]})
    parts += words.target_lines(record)
    if "opponent" in details:
        parts.append(
            _("Against %(name)s: %(result)s")
            % {"name": details["opponent"]["name"], "result": details["opponent"]["result"]}
        )
    if "helping" in details:
        parts.append(_("Helping %(name)s") % {"name": details["helping"]["name"]})
    return " · ".join(parts)


def _lines(words: RollWords, record: dict) -> list[str]:
    """What else the roll did, after its set-up line: the dice, progress, opponents."""
    kind = record["kind"]
    details = record.get("details", {})
    lines = []
    if kind == "initiative" and details.get("tiebreak") is not None:
        lines.append(_("Tie-break roll: %(value)s") % {"value": details["tiebreak"]})
    lines += words.dice_lines(record)
    if kind == "teamwork" and details.get("helper_successes") is not None:
        lines.append(
            ngettext(
                "Helpers added %(count)s die.", "Helpers added %(count)s dice.", details["bonus"]
            )
            % {"count": details["bonus"]}
        )
    if details.get("role") == "defender":
        lines.append(_("Defender: wins ties."))
    damage = record.get("effects", {}).get("damage")
    if damage is not None:
        text = _("Damage: %(damage)s") % {"damage": damage} + words.damage_tier(record)
        if details.get("damage_category"):
            text += f" · {details['damage_category']}"
        if (details.get("damage_roll") or {}).get("multiplier") == 2:
            text += " · " + _("doubled by the crítico")
        lines.append(text)
    return lines + words.closing_lines(record)


def _progress(record: dict) -> list[str]:
    """Where an extended action stands after the roll: shown with its effects, so that
    the compact cards of a scene and the feed say it too."""
    if record["kind"] != "extended":
        return []
    details = record.get("details", {})
    lines = [
        _("Progress: %(progress)s of %(target)s successes")
        % {"progress": details["progress"], "target": details["target"]}
    ]
    if details.get("reached"):
        lines.append(_("The extended action succeeds."))
    elif details.get("done"):
        lines.append(_("The extended action is over without success."))
    return lines


def _system_body(record: dict) -> dict:
    """Words for a roll of a system, in that system's words."""
    words = _words(record["system"])
    outcome, tone = _outcome_words(words, record["kind"], record["outcome"])
    raw = record.get("dice", [])
    mark_kept = any("dropped" in d.get("tags", ()) for d in raw)
    details = record.get("details", {})
    return {
        "result": words.headline(record),
        "outcome": outcome,
        "tone": tone,
        "dice": [
            die_view(d, mark_kept=mark_kept) for d in raw if "damage" not in d.get("tags", ())
        ],
        "damage_dice": [die_view(d, mark_kept=False) for d in raw if "damage" in d.get("tags", ())],
        "setup": _setup(words, record),
        "notes": _lines(words, record),
        "effects": [
            *_progress(record),
            *(_applied_text(words, item) for item in details.get("applied", [])),
        ],
    }


def _free_body(roll: Roll, record: dict) -> dict:
    """Words for a free roll: successes and their grade for a pool, the total for a sum."""
    if roll.kind == "pool":
        result = ngettext("%(count)s success", "%(count)s successes", roll.result) % {
            "count": roll.result
        }
        words, tone = FREE_OUTCOMES.get(roll.outcome, ("", "neutral"))
    else:
        result, words, tone = _("Total %(total)s") % {"total": roll.result}, "", "neutral"
    dice = [die for die in record.get("dice") or () if isinstance(die, dict)]
    # "Kept" only means something when some dice were not counted.
    mark_kept = any("dropped" in (die.get("tags") or ()) for die in dice)
    details = record.get("details") or {}
    return {
        "result": result,
        "outcome": str(words),
        "tone": tone,
        "dice": [die_view(die, mark_kept=mark_kept) for die in dice],
        "notes": [_("Chance die")] if details.get("chance_die") else [],
    }


def roll_display(roll: Roll) -> RollDisplay:
    """Everything a page shows about one roll (its relations already loaded)."""
    record = roll.record if isinstance(roll.record, dict) else {}
    spec = record.get("spec") if isinstance(record.get("spec"), dict) else {}
    free = roll.system == FREE_SYSTEM
    body = _free_body(roll, record) if free else _system_body(record)
    return RollDisplay(
        roll=roll,
        who=roll.user.username if roll.user_id and roll.user else _("someone"),
        character=roll.character.name if roll.character_id and roll.character else "",
        scene=roll.scene.title if roll.scene_id and roll.scene else "",
        label=roll.label_text,
        expression=str(spec.get("expression", "")) if free else "",
        **body,
    )
