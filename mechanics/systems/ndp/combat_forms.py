"""The attack set-up of 3d6 + NdP in the combat panel: the attack, the weapon's damage,
and the target's defence roll or a fixed adversity."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.forms.combat import choice_key, trait_choices
from mechanics.forms.damage import parse_damage
from mechanics.rules.errors import RuleError
from mechanics.rules.ndp.catalogue import BODY_PARTS, DAMAGE_TYPES, SKILLS_BY_KEY
from mechanics.rules.ndp.equipment import Weapon
from mechanics.rules.ndp.rolls import check_damage
from mechanics.setup import Sheet
from mechanics.systems.ndp import wounds

# The skills a target may roll to defend itself; otherwise the GM gives an adversity.
DEFENCES = ("esquivar", "interceptar")


def weapon_items(sheet: Sheet | None) -> list:
    """The attacker's weapons on the sheet, in the sheet's order."""
    return [item for item in (sheet.items if sheet else ()) if item.kind == "weapon"]


def _weapon_label(item) -> str:
    try:
        weapon = Weapon.from_dict({**item.data, "name": item.name})
    except (RuleError, TypeError):
        return item.name
    return f"{item.name} · {weapon.damage_caption} · " + _("integrity %(value)s") % {
        "value": weapon.integrity
    }


def attack_fields(sheet: Sheet | None) -> dict[str, forms.Field]:
    skills = trait_choices(sheet, "skill")
    weapons = [(str(item.pk), _weapon_label(item)) for item in weapon_items(sheet)]
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
            label=_("Other Desgracias (−1d4 each)"),
            help_text=_(
                "The panel already adds those of a second attack, a fractured limb and the load."
            ),
            min_value=0,
            max_value=20,
            initial=0,
            required=False,
        ),
        "weapon": forms.ChoiceField(
            label=_("Weapon"),
            choices=[("", _("None from the sheet: the damage below")), *weapons],
            initial=weapons[0][0] if weapons else "",
            required=False,
            help_text=_("A weapon of the sheet gives its damage and loses its integrity."),
        ),
        "damage": forms.CharField(
            label=_("Weapon damage"), initial="1d6", max_length=20, required=False
        ),
        "damage_type": forms.ChoiceField(
            label=_("Damage type"),
            choices=[(t.key, t.name) for t in DAMAGE_TYPES],
            initial="cortante",
        ),
        "limb": forms.ChoiceField(
            label=_("Limb the attack uses"),
            choices=wounds.limb_choices(_("No limb named")),
            initial="brazo_derecho",
            required=False,
            help_text=_(
                "A fractured limb adds 2 Desgracias; a Pelea blow stopped by armour hurts it."
            ),
        ),
        "part": forms.ChoiceField(
            label=_("Body part hit"), choices=[(p.key, p.name) for p in BODY_PARTS], initial="torso"
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
            help_text=_(
                "Interceptar uses the target's shield (its GdC bonus) or else its weapon, "
                "which takes the blow."
            ),
        ),
        "feint": forms.BooleanField(
            label=_("After a successful feint (the defence takes a Desgracia)"), required=False
        ),
        "defence_desgracias": forms.IntegerField(
            label=_("Other Desgracias on the defence"),
            help_text=_("The panel already adds one for each earlier defence this round."),
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


def follow_attack_choices(form: forms.Form, sheet: Sheet | None) -> None:
    """A sheet weapon is rolled with its own skill (`_attack_data`): the skill select then
    shows that skill, disabled, and says why, so no other choice seems to count."""
    chosen = str(form["weapon"].value() or "")
    item = next((item for item in weapon_items(sheet) if str(item.pk) == chosen), None)
    if item is None:
        return
    try:
        weapon = Weapon.from_dict({**item.data, "name": item.name})
    except (RuleError, TypeError):
        return
    field = form.fields["skill"]
    field.disabled = True
    field.initial = weapon.skill
    field.help_text = _("%(weapon)s: the weapon rolls its own skill.") % {"weapon": item.name}


def clean_attack(form: forms.Form, data: dict) -> None:
    if not data.get("weapon") and "weapon" not in form.errors:
        try:
            count, sides, fixed = parse_damage(data.get("damage") or "", check_damage)
        except forms.ValidationError as error:
            form.add_error("damage", error)
        else:
            data.update(damage_count=count, damage_sides=sides, damage_fixed=fixed)
    if data.get("feint") and not data.get("defence"):
        form.add_error("feint", _("A feint only matters when the target rolls a defence."))
    if not data.get("defence") and data.get("adversity") is None:
        form.add_error(
            "adversity", _("Give the adversity to exceed, or let the target roll a defence.")
        )
