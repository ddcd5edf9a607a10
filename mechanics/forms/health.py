"""Forms of the health panel: damage, time passing, and what every treatment form shares.

They check what a user typed and turn it into the values the health services take;
the rules (what a level of damage does, what first aid needs) stay in the engine. Each
system's damage inputs (`GameSystem.damage_fields`) and treatment forms live in its
folder, `mechanics/systems/<key>/health.py`.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.setup import OddsView
from mechanics.systems.base import DamageInput, GameSystem

MAX_RD = 99
# Ten years of game time at once is more than any rest needs.
MAX_HOURS = 10 * 365 * 24
HOURS_PER_UNIT = {"hours": 1, "days": 24, "weeks": 7 * 24}
REASON_MAX = 200


def reason_field() -> forms.CharField:
    return forms.CharField(
        label=_("Why"),
        max_length=REASON_MAX,
        required=False,
        help_text=_("Optional: the knife, the fall, the doctor's visit…"),
    )


def radio() -> forms.RadioSelect:
    return forms.RadioSelect(attrs={"class": "form-check-input"})


def number() -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric"})


def rd_field(help_text: str) -> forms.IntegerField:
    """The armour's RD, subtracted from the damage."""
    return forms.IntegerField(
        label="RD", min_value=0, max_value=MAX_RD, initial=0, help_text=help_text, widget=number()
    )


class DamageForm(forms.Form):
    """The damage one character takes: the inputs its system asks for, and why."""

    def __init__(self, *args, system: GameSystem, character, **kwargs):
        kwargs.setdefault("prefix", "damage")
        super().__init__(*args, **kwargs)
        self.system = system
        self.fields.update(system.damage_fields(character))
        self.fields["reason"] = reason_field()

    def damage(self) -> DamageInput:
        data = self.cleaned_data
        return DamageInput(
            amount=data["amount"],
            damage_type=data.get("damage_type", ""),
            rd=data.get("rd") or 0,
            part=data.get("part", ""),
            armour_integrity=data.get("armour_integrity"),
            critical=data.get("critical") or "",
        )


class TimeForm(forms.Form):
    """One of the system's presets ("descanso 8 h", "1 día", "1 semana") or a custom
    number of hours, days or weeks."""

    preset = forms.TypedChoiceField(coerce=int, required=False)
    amount = forms.IntegerField(
        label=_("How long"), min_value=1, max_value=MAX_HOURS, required=False, widget=number()
    )
    unit = forms.ChoiceField(
        label=_("Unit"),
        choices=[("hours", _("hours")), ("days", _("days")), ("weeks", _("weeks"))],
        initial="days",
        required=False,
    )
    reason = reason_field()
    rested = forms.BooleanField(required=False, initial=True)

    def __init__(
        self, *args, presets: tuple[tuple[int, str], ...], rest_question: str | None, **kwargs
    ):
        kwargs.setdefault("prefix", "time")
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = list(presets)
        if rest_question is None:
            del self.fields["rested"]
        else:
            self.fields["rested"].label = rest_question

    def clean(self):
        cleaned = super().clean()
        cleaned.setdefault("rested", True)
        if cleaned.get("preset"):
            cleaned["hours"] = cleaned["preset"]
            return cleaned
        amount = cleaned.get("amount")
        if amount is None:
            if "amount" not in self.errors:
                self.add_error("amount", _("Say how much time passes."))
            return cleaned
        hours = amount * HOURS_PER_UNIT.get(cleaned.get("unit"), 1)
        if hours > MAX_HOURS:
            self.add_error("amount", _("At most ten years at once."))
        cleaned["hours"] = hours
        return cleaned


class TreatmentForm(forms.Form):
    """What one treatment needs (`mechanics.systems.base.Treatment.form`): `arguments()`
    is what its service takes besides the patient, the user and the scene. A treatment
    without inputs (one button) uses it as it is."""

    # A form that sets up a roll shows its exact odds before it is given (`odds()`).
    has_odds = False

    def __init__(self, *args, character, **kwargs):
        super().__init__(*args, **kwargs)
        self.character = character

    def arguments(self) -> dict[str, Any]:
        return dict(self.cleaned_data)

    def odds(self) -> tuple[OddsView | None, str]:
        """The odds of the roll set up so far, or None and what is missing."""
        return None, ""


def healer_choices(character):
    """The characters who may treat `character`: everyone in its campaign."""
    return character.campaign.characters.order_by("is_npc", "name", "pk")


class HealerForm(TreatmentForm):
    """A treatment that one character of the campaign gives (the healer may be the
    patient)."""

    healer_label = _("Who treats")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields = {
            "healer": forms.ModelChoiceField(
                label=self.healer_label,
                queryset=healer_choices(self.character),
                empty_label=_("Choose a character"),
            ),
            **self.fields,
        }


class UndoForm(forms.Form):
    """The event the GM saw as the last one in force (nothing is undone if it changed)."""

    event = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
