"""Forms of the combat panel and of a scene's "time passes" card.

They validate what the GM chose (characters that are in the fight, numbers in range)
and hand their cleaned data to `mechanics.combat`, which builds the engine calls. Each
system's attack fields come from its combat hooks (`mechanics/systems/<key>/combat_forms.py`,
with the helpers below). The client never sends dice, totals or damage: no form declares
such a field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from mechanics.combat import CombatRules
    from mechanics.setup import Sheet


def _style(form: forms.Form) -> None:
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.CheckboxInput | forms.CheckboxSelectMultiple):
            css = "form-check-input"
        elif isinstance(widget, forms.Select):
            css = "form-select"
        else:
            css = "form-control"
        widget.attrs.setdefault("class", css)


def choice_key(grouped: list, wanted: str) -> str | None:
    """`wanted` if it is among the grouped choices, else the first key."""
    keys = [key for _group, choices in grouped for key, _label in choices]
    if wanted in keys:
        return wanted
    return keys[0] if keys else None


def trait_choices(sheet: Sheet | None, kind: str) -> list:
    """The attacker's traits of a kind as grouped choices; none before anyone is chosen."""
    return sheet.trait_choices(kind) if sheet is not None else []


class AddFightersForm(forms.Form):
    characters = forms.TypedMultipleChoiceField(
        label=_("Characters"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _("That character cannot join this combat."),
            # Said beside the list: the generic "required" does not say what to do.
            "required": _("Choose at least one character to add to the fight."),
        },
    )

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [
            (
                c.pk,
                f"{c.name} · {c.owner.username}"
                if c.owner_id
                else _("%(name)s (NPC)") % {"name": c.name},
            )
            for c in candidates
        ]
        self.fields["characters"].widget.attrs["class"] = "form-check-input"


class PhaseForm(forms.Form):
    phase = forms.TypedChoiceField(label=_("Phase"), coerce=int)

    def __init__(self, *args, phases, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["phase"].choices = list(phases)
        _style(self)


class MoveForm(forms.Form):
    """A fighter's move this turn, for a system with movement rules."""

    fighter = forms.TypedChoiceField(label=_("Who moves"), coerce=int)
    metres = forms.IntegerField(label=_("Metres"), min_value=0, max_value=1000)
    adversity = forms.IntegerField(
        label=_("Adversity of the roll a long move takes"),
        help_text=_("Only for a move that takes a roll."),
        min_value=0,
        max_value=60,
        required=False,
    )

    def __init__(self, *args, fighters, **kwargs):
        # Its own names: the attack form beside it, whose choices every action of the
        # panel carries along, may have an adversity too.
        kwargs.setdefault("prefix", "move")
        super().__init__(*args, **kwargs)
        self.fields["fighter"].choices = [(c.pk, c.name) for c in fighters]
        _style(self)


class AttackForm(forms.Form):
    """Who attacks whom, and the fields the system's combat hooks add to set up the
    attack (`CombatRules.attack_fields`), in the order the panel shows them."""

    attacker = forms.TypedChoiceField(label=_("Attacker"), coerce=int)
    target = forms.TypedChoiceField(label=_("Target"), coerce=int)

    def __init__(self, *args, rules: CombatRules, fighters, sheet: Sheet | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        names = [(c.pk, c.name) for c in fighters]
        invalid = _("That character is not taking part in this combat.")
        for name in ("attacker", "target"):
            self.fields[name].choices = names
            self.fields[name].error_messages["invalid_choice"] = invalid
        own = rules.attack_fields(sheet)
        self.system_fields = tuple(own)
        self.fields.update(own)
        rules.follow_attack_choices(self, sheet)
        _style(self)

    def fieldsets(self) -> list:
        return [self[name] for name in self.system_fields]

    def clean(self):
        data = super().clean()
        if data.get("attacker") and data.get("attacker") == data.get("target"):
            self.add_error("target", _("A character cannot attack itself."))
        self.rules.clean_attack(self, data)
        return data


TIME_PRESETS = (
    ("8", _("Rest 8 h")),
    ("24", _("1 day")),
    ("168", _("1 week")),
)
TIME_UNITS = (("hours", _("hours")), ("days", _("days")), ("weeks", _("weeks")))
HOURS_PER_UNIT = {"hours": 1, "days": 24, "weeks": 168}
MAX_HOURS = 10 * 365 * 24


class SceneTimeForm(forms.Form):
    """Time passes for everyone in a scene: a preset button, or an amount and a unit."""

    preset = forms.ChoiceField(
        choices=[*TIME_PRESETS, ("custom", _("Custom"))], widget=forms.HiddenInput
    )
    amount = forms.IntegerField(label=_("Amount"), min_value=1, max_value=9999, required=False)
    unit = forms.ChoiceField(label=_("Unit"), choices=TIME_UNITS, initial="hours", required=False)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. A night at the inn")}),
    )
    # The system's rest question (`GameSystem.rest_question`); the card sends it checked
    # by default, and a system that asks nothing ignores it.
    rested = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def clean(self):
        data = super().clean()
        preset = data.get("preset")
        if preset is None:
            return data
        if preset != "custom":
            data["hours"] = int(preset)
            return data
        amount = data.get("amount")
        if amount is None:
            if "amount" not in self.errors:  # a wrong amount has said why already
                self.add_error("amount", _("Say how much time passes."))
            return data
        hours = amount * HOURS_PER_UNIT[data.get("unit") or "hours"]
        if hours > MAX_HOURS:
            self.add_error("amount", _("At most ten years at a time."))
            return data
        data["hours"] = hours
        return data
