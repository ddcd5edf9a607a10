"""The 3d6 + NdP roll panel: a skill with ventaja, gracias and desgracias against an
adversity or the other side's total, and attacks with a weapon's damage; and one side of
an opposed roll."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.forms.damage import parse_damage
from mechanics.forms.roll import RollForm, SideForm
from mechanics.rules.ndp.catalogue import DAMAGE_TYPES
from mechanics.rules.ndp.rolls import check_damage
from mechanics.systems.ndp import wounds


class NdpRollForm(RollForm):
    kinds = (("check", _("Simple roll")), ("attack", _("Attack")))
    layout = (
        (_("What you roll"), None, ["skill", "dice", "gracias", "desgracias", "adversity"]),
        (_("Wounds"), None, ["limb", "quick"]),
        (_("Opposed roll"), ("check",), ["opposed_total", "defending"]),
        (_("Weapon and target"), ("attack",), ["damage", "damage_type", "target_rd"]),
        (None, None, ["label", "secret"]),
    )
    compact = frozenset({"gracias", "desgracias"})

    skill = forms.ChoiceField(label=_("Skill"))
    dice = forms.ChoiceField(
        label=_("Dice"),
        choices=[("2", _("Desventaja (2d6)")), ("3", _("Normal (3d6)")), ("4", _("Ventaja (4d6)"))],
        initial="3",
        widget=forms.RadioSelect,
    )
    gracias = forms.IntegerField(
        label=_("Gracias (+1d4 each)"), min_value=0, max_value=20, initial=0, required=False
    )
    desgracias = forms.IntegerField(
        label=_("Desgracias (−1d4 each)"), min_value=0, max_value=20, initial=0, required=False
    )
    adversity = forms.IntegerField(
        label=_("Adversity to exceed"),
        help_text=_(
            "Fácil 4–8 · Intermedia 9–13 · Difícil 14–18 · Muy difícil 19–23 · Extrema 24+. "
            "Empty: no adversity."
        ),
        min_value=0,
        max_value=200,
        required=False,
    )
    opposed_total = forms.IntegerField(
        label=_("Or the other side's total"),
        help_text=_("For an opposed roll, instead of an adversity."),
        min_value=-400,
        max_value=400,
        required=False,
    )
    defending = forms.BooleanField(label=_("I defend: a tie goes to me"), required=False)
    damage = forms.CharField(label=_("Weapon damage"), initial="1d6", max_length=20, required=False)
    damage_type = forms.ChoiceField(
        label=_("Damage type"),
        choices=[(t.key, t.name) for t in DAMAGE_TYPES],
        initial="cortante",
        required=False,
    )
    target_rd = forms.IntegerField(
        label=_("RD of the armour hit"), min_value=0, max_value=100, initial=0, required=False
    )

    def setup_fields(self) -> None:
        self.fields["skill"].choices = self.sheet.trait_choices("skill")
        self.fields.update(wounds.roll_fields(self.sheet))

    def clean(self):
        data = super().clean()
        if data.get("kind") == "check" and data.get("opposed_total") is not None:
            if data.get("adversity") is not None:
                self.add_error(
                    "opposed_total", _("Give either an adversity or the other side's total.")
                )
        elif data.get("defending"):
            self.add_error("defending", _("Only an opposed roll has a defender."))
        if data.get("kind") == "attack":
            try:
                count, sides, fixed = parse_damage(data.get("damage") or "", check_damage)
            except forms.ValidationError as error:
                self.add_error("damage", error)
            else:
                data.update(damage_count=count, damage_sides=sides, damage_fixed=fixed)
            if not data.get("damage_type"):
                self.add_error("damage_type", _("Choose the damage type."))
        return data


class NdpSideForm(SideForm):
    def setup_fields(self, attributes: list, skills: list) -> None:
        self.fields["skill"] = forms.ChoiceField(label=_("Skill"), choices=skills, required=False)
        self.fields["dice"] = forms.ChoiceField(
            label=_("Dice"),
            choices=[
                ("2", _("Desventaja (2d6)")),
                ("3", _("Normal (3d6)")),
                ("4", _("Ventaja (4d6)")),
            ],
            initial="3",
        )
        self.fields["gracias"] = forms.IntegerField(
            label=_("Gracias"), min_value=0, max_value=20, initial=0, required=False
        )
        self.fields["desgracias"] = forms.IntegerField(
            label=_("Desgracias"), min_value=0, max_value=20, initial=0, required=False
        )
        # The side's character is picked in this same form, so both wound questions are
        # always asked; the rules add nothing for a character without those wounds.
        self.fields["limb"] = wounds.limb_field(_("Limb the action uses"))
        self.fields["quick"] = forms.BooleanField(
            label=_("Quick action (Contusionado: +5 adversity)"),
            required=False,
            widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
        )

    def clean_side(self, data: dict) -> None:
        if not data.get("skill"):
            self.add_error("skill", _("Choose a skill."))
