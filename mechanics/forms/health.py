"""Forms of the health panel: damage by system, time passing, treatments.

They check what a user typed and turn it into the values the health services take;
the rules (what a level of damage does, what first aid needs) stay in the engine.
A scene's combat panel may reuse `DamageForm` for the same fields.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.rules.hitos import catalogue as hitos_catalogue
from mechanics.rules.ndp import catalogue as ndp_catalogue
from mechanics.rules.ndp.rolls import MAX_ADVERSITY
from mechanics.rules.tinieblas.health import MAX_LEVELS
from mechanics.systems.base import DamageInput, GameSystem

MAX_POINTS = 999
MAX_RD = 99
MAX_NDP_DAMAGE = 1000
# Ten years of game time at once is more than any rest needs.
MAX_HOURS = 10 * 365 * 24
HOURS_PER_UNIT = {"hours": 1, "days": 24, "weeks": 7 * 24}
# The presets of the time panel: (hours, label).
TIME_PRESETS = (
    (8, _("Rest 8 h")),
    (24, _("1 day")),
    (7 * 24, _("1 week")),
)
REASON_MAX = 200


def _reason_field() -> forms.CharField:
    return forms.CharField(
        label=_("Why"),
        max_length=REASON_MAX,
        required=False,
        help_text=_("Optional: the knife, the fall, the doctor's visit…"),
    )


def _radio() -> forms.RadioSelect:
    return forms.RadioSelect(attrs={"class": "form-check-input"})


class DamageForm(forms.Form):
    """The damage one system takes: levels and type (tinieblas), points and RD (hitos),
    body part, weapon roll or net damage, armour and type (ndp), PV (objetivo)."""

    def __init__(self, *args, system: GameSystem, armour_hint: str = "", **kwargs):
        kwargs.setdefault("prefix", "damage")
        super().__init__(*args, **kwargs)
        self.system = system
        key = system.key
        if key == "ndp":
            self.fields["part"] = forms.ChoiceField(
                label="Parte del cuerpo",
                choices=[(part.key, part.name) for part in ndp_catalogue.BODY_PARTS],
                initial="torso",
            )
        labels = {
            "tinieblas": _("Levels of damage"),
            "hitos": _("Points of damage"),
            "ndp": _("Weapon roll or net damage"),
            "objetivo": _("PV lost"),
        }
        if key == "ndp":
            low, high = 0, MAX_NDP_DAMAGE
        else:
            low, high = 1, MAX_LEVELS if key == "tinieblas" else MAX_POINTS
        self.fields["amount"] = forms.IntegerField(
            label=labels.get(key, _("Damage")),
            min_value=low,
            max_value=high,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        if system.damage_types():
            self.fields["damage_type"] = forms.ChoiceField(
                label=_("Type of damage"),
                choices=system.damage_types(),
                widget=_radio(),
                initial=system.damage_types()[0][0],
            )
        if key in ("hitos", "ndp"):
            help_text = (
                _("The highest RD the target wears; it is subtracted from the damage.")
                if key == "hitos"
                else _("RD of the armour on that part (0 for net damage).")
            )
            if armour_hint:
                help_text = f"{help_text} {armour_hint}"
            self.fields["rd"] = forms.IntegerField(
                label="RD",
                min_value=0,
                max_value=MAX_RD,
                initial=0,
                help_text=help_text,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        if key == "ndp":
            self.fields["armour_integrity"] = forms.IntegerField(
                label=_("Armour integrity"),
                min_value=0,
                max_value=MAX_RD,
                required=False,
                help_text=_("Leave it empty if unknown; at 0 the armour keeps at most RD 1."),
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        self.fields["reason"] = _reason_field()

    def damage(self) -> DamageInput:
        data = self.cleaned_data
        return DamageInput(
            amount=data["amount"],
            damage_type=data.get("damage_type", ""),
            rd=data.get("rd") or 0,
            part=data.get("part", ""),
            armour_integrity=data.get("armour_integrity"),
        )


class TimeForm(forms.Form):
    """A preset ("descanso 8 h", "1 día", "1 semana") or a custom number of hours, days
    or weeks."""

    preset = forms.TypedChoiceField(
        choices=[(hours, label) for hours, label in TIME_PRESETS],
        coerce=int,
        required=False,
    )
    amount = forms.IntegerField(
        label=_("How long"),
        min_value=1,
        max_value=MAX_HOURS,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    unit = forms.ChoiceField(
        label=_("Unit"),
        choices=[("hours", _("hours")), ("days", _("days")), ("weeks", _("weeks"))],
        initial="days",
        required=False,
    )
    reason = _reason_field()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "time")
        super().__init__(*args, **kwargs)

    def clean(self):
        cleaned = super().clean()
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


class HealerForm(forms.Form):
    """A treatment that one character of the campaign gives (the healer may be the
    patient)."""

    healer_label = _("Who treats")

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields = {
            "healer": forms.ModelChoiceField(
                label=self.healer_label,
                queryset=campaign.characters.order_by("is_npc", "name", "pk"),
                empty_label=_("Choose a character"),
            ),
            **self.fields,
        }


class FirstAidForm(HealerForm):
    """Mundo de Tinieblas: Inteligencia + Medicina of the healer."""

    proper_kit = forms.BooleanField(
        label=_("With proper medical kit (no −2)"),
        required=False,
        help_text=_("Not plasters: a real kit. Without it the roll has −2 dice."),
    )
    reason = _reason_field()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "first_aid")
        super().__init__(*args, **kwargs)


class SupervisionForm(HealerForm):
    """Hitos: the supervisor's characteristic + skill for one healing period."""

    healer_label = _("Supervisor")
    characteristic = forms.ChoiceField(
        label=_("Characteristic"),
        choices=[(c.key, c.name) for c in hitos_catalogue.CHARACTERISTICS],
        initial="intelecto",
    )
    skill = forms.ChoiceField(
        label=_("Skill"),
        choices=[(s.key, s.name) for s in hitos_catalogue.SKILLS],
        initial="profesion",
    )
    reason = _reason_field()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "supervision")
        super().__init__(*args, **kwargs)


class DrugForm(forms.Form):
    """Hitos painkillers: soft or strong."""

    drug = forms.ChoiceField(
        label=_("Painkiller"),
        choices=[
            (kind.key, f"{kind.name}: {kind.description}") for kind in hitos_catalogue.DRUG_KINDS
        ],
        widget=_radio(),
        initial=hitos_catalogue.DRUG_KINDS[0].key,
    )
    reason = _reason_field()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "drug")
        super().__init__(*args, **kwargs)


class AuxiliarForm(HealerForm):
    """3d6 + NdP: the healer's Auxiliar against an adversity the GM sets."""

    adversity = forms.IntegerField(
        label=_("Adversity to exceed"),
        min_value=0,
        max_value=MAX_ADVERSITY,
        initial=9,
        help_text="Fácil 4–8 · Intermedia 9–13 · Difícil 14–18 · Muy difícil 19–23 · Extrema 24+",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    part = forms.ChoiceField(
        label="Parte del cuerpo",
        choices=[("", _("Every bleeding part"))]
        + [(part.key, part.name) for part in ndp_catalogue.BODY_PARTS],
        required=False,
    )
    reason = _reason_field()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "auxiliar")
        super().__init__(*args, **kwargs)


class UndoForm(forms.Form):
    """The event the GM saw as the last one in force (nothing is undone if it changed)."""

    event = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class UnconsciousForm(forms.Form):
    unconscious = forms.TypedChoiceField(
        choices=(("1", "1"), ("0", "0")), coerce=lambda value: value == "1"
    )
