"""The attack set-up of Mundo de Tinieblas in the combat panel: a dice pool."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.forms.combat import choice_key, trait_choices
from mechanics.setup import Sheet
from mechanics.systems.registry import get_system


def attack_fields(sheet: Sheet | None) -> dict[str, forms.Field]:
    attributes = trait_choices(sheet, "attribute")
    skills = trait_choices(sheet, "skill")
    fields = {
        "attribute": forms.ChoiceField(
            label=_("Attribute"), choices=attributes, initial=choice_key(attributes, "fuerza")
        ),
        "skill": forms.ChoiceField(
            label=_("Skill"),
            choices=[("", _("No skill")), *skills],
            initial=choice_key(skills, "pelea"),
            required=False,
        ),
    }
    if sheet is not None and sheet.specialties:
        fields["specialty"] = forms.ChoiceField(
            label=_("Specialty (+1 die)"),
            choices=[("", _("None"))]
            + [(str(s.pk), f"{sheet.name(s.skill_key)}: {s.name}") for s in sheet.specialties],
            required=False,
        )
    fields["weapon_bonus"] = forms.IntegerField(
        label=_("Weapon (dice)"),
        help_text=_("Fists 0, knife or bat +1…"),
        min_value=-5,
        max_value=5,
        initial=0,
        required=False,
    )
    fields["damage_type"] = forms.ChoiceField(
        label=_("Damage type"), choices=get_system("tinieblas").damage_types(), initial="B"
    )
    fields["modifier"] = forms.IntegerField(
        label=_("Modifier (dice)"), min_value=-5, max_value=5, initial=0, required=False
    )
    fields["defensa"] = forms.IntegerField(
        label=_("Target's Defensa"),
        help_text=_("Empty: from the target's sheet. 0 against firearms."),
        min_value=0,
        max_value=10,
        required=False,
    )
    fields["willpower"] = forms.BooleanField(
        label=_("Spend 1 Willpower point: +3 dice"), required=False
    )
    return fields
