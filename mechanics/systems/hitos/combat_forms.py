"""The attack set-up of Hitos in the combat panel."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import Aspect
from mechanics.rules.hitos.catalogue import DAMAGE_CATEGORIES
from mechanics.setup import Sheet
from mechanics.systems.hitos.rolls import SITUATION_PREFIX, situation_aspects

# How the target faces the attack (the GM's choice), each changing its Defensa.
TARGET_STATE_LABELS = {
    "normal": _("Defends normally"),
    "unaware": _("Caught unaware (Defensa −2)"),
    "total_defence": _("Total defence (Defensa +4)"),
    "defenceless": _("Defenceless (difficulty 5)"),
}


def attack_fields(sheet: Sheet | None) -> dict[str, forms.Field]:
    """The attack rolls Reflejos + Combate, always (docs/rules.md#hitos-attack-traits):
    no characteristic or skill to choose."""
    return {
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
            help_text=_("Empty: the highest RD of the armours on the target's sheet."),
            min_value=0,
            max_value=50,
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
        **aspect_fields(sheet),
    }


def fight_aspect_choices(sheet: Sheet | None) -> list:
    """Every aspect a fighter might activate, grouped by character, and the situation
    aspects of the campaign's open scenes; which of them a side may use is checked once
    attacker and target are known (`hitos/combat.py`)."""
    if sheet is None:
        return [("", _("None"))]
    campaign_id = sheet.character.campaign_id
    grouped: dict[str, list] = {}
    aspects = Aspect.objects.filter(character__campaign_id=campaign_id).select_related("character")
    for aspect in aspects.order_by("character__name", "character_id", "position", "pk"):
        grouped.setdefault(aspect.character.name, []).append((str(aspect.pk), aspect.text))
    choices: list = [("", _("None")), *grouped.items()]
    situation = [
        (f"{SITUATION_PREFIX}{a.pk}", f"{a.scene.title}: {a.text}")
        for a in situation_aspects(campaign_id)
    ]
    if situation:
        choices.append((_("Of the situation (the drama point is spent)"), situation))
    return choices


def aspect_fields(sheet: Sheet | None) -> dict[str, forms.Field]:
    """An aspect each side may activate (docs/rules.md#hitos-combat-aspects): the attacker
    to improve the attack or raise the damage, the target to hinder it or lower the damage,
    each paid by whoever activates it."""
    choices = fight_aspect_choices(sheet)
    pay = [("drama_point", _("A drama point")), ("exhaust", _("Exhausting the aspect"))]
    fields = {}
    for prefix, who, uses in (
        (
            "",
            _("The attacker activates an aspect"),
            [
                ("roll", _("to improve the attack (keep M)")),
                ("damage", _("to raise the damage one category")),
            ],
        ),
        (
            "target_",
            _("The target activates an aspect"),
            [
                ("roll", _("to hinder the attack (the attacker keeps m)")),
                ("damage", _("to lower the damage one category")),
            ],
        ),
    ):
        fields[f"{prefix}aspect"] = forms.ChoiceField(label=who, choices=choices, required=False)
        fields[f"{prefix}aspect_use"] = forms.ChoiceField(
            label=_("What for"), choices=uses, initial="roll", required=False
        )
        fields[f"{prefix}pay"] = forms.ChoiceField(
            label=_("Pay with"), choices=pay, initial="drama_point", required=False
        )
    return fields
