"""The attack set-up of 3d6 + NdP in the combat panel: the attack, the weapon's damage,
and the target's defence roll or a fixed adversity."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.forms.combat import choice_key, trait_choices
from mechanics.forms.roll import parse_damage
from mechanics.rules.ndp.catalogue import BODY_PARTS, DAMAGE_TYPES, SKILLS_BY_KEY
from mechanics.setup import Sheet

# The skills a target may roll to defend itself; otherwise the GM gives an adversity.
DEFENCES = ("esquivar", "interceptar")


def attack_fields(sheet: Sheet | None) -> dict[str, forms.Field]:
    skills = trait_choices(sheet, "skill")
    return {
        "skill": forms.ChoiceField(
            label=_("Skill"), choices=skills, initial=choice_key(skills, "combate_c_a_c")
        ),
        "dice": forms.ChoiceField(
            label=_("Dice"),
            choices=[
                ("2", _("Desventaja (2d6)")),
                ("3", _("Normal (3d6)")),
                ("4", _("Ventaja (4d6)")),
            ],
            initial="3",
        ),
        "gracias": forms.IntegerField(
            label=_("Gracias (+1d4 each)"), min_value=0, max_value=20, initial=0, required=False
        ),
        "desgracias": forms.IntegerField(
            label=_("Desgracias (−1d4 each)"),
            help_text=_("A second attack in the turn: 1."),
            min_value=0,
            max_value=20,
            initial=0,
            required=False,
        ),
        "damage": forms.CharField(label=_("Weapon damage"), initial="1d6", max_length=20),
        "damage_type": forms.ChoiceField(
            label=_("Damage type"),
            choices=[(t.key, t.name) for t in DAMAGE_TYPES],
            initial="cortante",
        ),
        "part": forms.ChoiceField(
            label=_("Body part hit"), choices=[(p.key, p.name) for p in BODY_PARTS], initial="torso"
        ),
        "target_rd": forms.IntegerField(
            label=_("RD of the armour hit"), min_value=0, max_value=100, initial=0, required=False
        ),
        "defence": forms.ChoiceField(
            label=_("Target's defence"),
            choices=[
                *[
                    (key, _("Rolls %(skill)s") % {"skill": SKILLS_BY_KEY[key].name})
                    for key in DEFENCES
                ],
                ("", _("A fixed adversity")),
            ],
            initial="esquivar",
            required=False,
        ),
        "defence_desgracias": forms.IntegerField(
            label=_("Desgracias on the defence"),
            help_text=_("One for each earlier defence this turn."),
            min_value=0,
            max_value=20,
            initial=0,
            required=False,
        ),
        "adversity": forms.IntegerField(
            label=_("Adversity to exceed"),
            help_text=_("Only with a fixed adversity."),
            min_value=0,
            max_value=200,
            required=False,
        ),
    }


def clean_attack(form: forms.Form, data: dict) -> None:
    try:
        count, sides, fixed = parse_damage(data.get("damage") or "")
    except forms.ValidationError as error:
        form.add_error("damage", error)
    else:
        if fixed < 0:
            form.add_error("damage", _("The damage bonus cannot be negative."))
        data.update(damage_count=count, damage_sides=sides, damage_fixed=fixed)
    if not data.get("defence") and data.get("adversity") is None:
        form.add_error(
            "adversity", _("Give the adversity to exceed, or let the target roll a defence.")
        )
