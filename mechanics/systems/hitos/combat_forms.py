"""The attack set-up of Hitos in the combat panel."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.forms.combat import choice_key, trait_choices
from mechanics.rules.hitos.catalogue import DAMAGE_CATEGORIES
from mechanics.setup import Sheet

# How the target faces the attack (the GM's choice), each changing its Defensa.
TARGET_STATE_LABELS = {
    "normal": _("Defends normally"),
    "unaware": _("Caught unaware (Defensa −2)"),
    "total_defence": _("Total defence (Defensa +4)"),
    "defenceless": _("Defenceless (difficulty 5)"),
}


def attack_fields(sheet: Sheet | None) -> dict[str, forms.Field]:
    characteristics = trait_choices(sheet, "characteristic")
    skills = trait_choices(sheet, "skill")
    return {
        "characteristic": forms.ChoiceField(
            label=_("Characteristic"),
            choices=characteristics,
            initial=choice_key(characteristics, "reflejos"),
        ),
        "skill": forms.ChoiceField(
            label=_("Skill"),
            choices=[("", _("No skill")), *skills],
            initial=choice_key(skills, "combate"),
            required=False,
        ),
        "weapon": forms.ChoiceField(
            label=_("Weapon category"),
            choices=[(c.key, f"{c.name} ({c.label})") for c in DAMAGE_CATEGORIES],
            initial="central",
        ),
        "weapon_constant": forms.IntegerField(
            label=_("Weapon bonus"), min_value=-20, max_value=20, initial=0, required=False
        ),
        "attack_range": forms.ChoiceField(
            label=_("Kind of attack"),
            choices=[("melee", _("Melee")), ("ranged", _("Ranged"))],
            initial="melee",
        ),
        "target_rd": forms.IntegerField(
            label=_("Target's RD (highest armour)"),
            min_value=0,
            max_value=50,
            initial=0,
            required=False,
        ),
        "target_state": forms.ChoiceField(
            label=_("Target"), choices=list(TARGET_STATE_LABELS.items()), initial="normal"
        ),
        "defensa": forms.IntegerField(
            label=_("Target's Defensa"),
            help_text=_("Empty: from the target's sheet."),
            min_value=0,
            max_value=60,
            required=False,
        ),
        "modifier": forms.IntegerField(
            label=_("Modifier"), min_value=-10, max_value=10, initial=0, required=False
        ),
        "damage_shift": forms.IntegerField(
            label=_("Damage category steps from aspects"),
            min_value=-5,
            max_value=5,
            initial=0,
            required=False,
        ),
    }
