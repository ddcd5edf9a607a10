"""The attack set-up of Dado objetivo in the combat panel: a weapon of the catalogue or
another with its own damage dice."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from mechanics.forms.combat import trait_choices
from mechanics.forms.damage import parse_damage
from mechanics.rules.objetivo.catalogue import WEAPONS, DamageDice
from mechanics.rules.objetivo.rolls import check_damage
from mechanics.setup import Sheet
from mechanics.systems.objetivo.rolls import CUSTOM_WEAPON

# The weapon choice for one not in the catalogue: its damage is typed in.


def _precision(value: int) -> str:
    return f", precisión {value:+d}" if value else ""


def range_fields() -> dict[str, forms.Field]:
    """What a shot's difficulty comes from (docs/rules.md#objetivo-ranged), asked alike by
    the combat panel and the player's own roll panel."""
    return {
        "distance": forms.IntegerField(
            label=_("Distance to the target (m)"),
            help_text=_("Shooting: the weapon's ranges turn it into the difficulty."),
            min_value=0,
            max_value=100000,
            required=False,
        ),
        "cover": forms.BooleanField(
            label=_("The target is under cover (one step harder)"), required=False
        ),
        "ranges": forms.CharField(
            label=_("Ranges of another weapon (m)"),
            help_text=_("Only for «Other weapon» shooting: short/medium/long, like 35/60/120."),
            max_length=30,
            required=False,
        ),
    }


def clean_ranges(form: forms.Form, data: dict) -> None:
    """Another weapon's ranges typed as short/medium/long become three growing numbers."""
    text = (data.get("ranges") or "").strip()
    if text:
        parts = [part.strip() for part in text.replace(",", "/").split("/")]
        if len(parts) != 3 or not all(part.isdigit() and 0 < int(part) <= 100000 for part in parts):
            form.add_error("ranges", _("Write three distances in metres, like 35/60/120."))
        elif not int(parts[0]) < int(parts[1]) < int(parts[2]):
            form.add_error("ranges", _("The ranges must grow: short, medium, long."))
        else:
            data["ranges"] = tuple(int(part) for part in parts)


def attack_fields(sheet: Sheet | None) -> dict[str, forms.Field]:
    skills = trait_choices(sheet, "skill")
    return {
        "weapon": forms.ChoiceField(
            label=_("Weapon"),
            choices=[(w.key, f"{w.name} ({w.damage}{_precision(w.precision)})") for w in WEAPONS]
            + [(CUSTOM_WEAPON, pgettext_lazy("weapon", "Other weapon"))],
            initial=WEAPONS[0].key,
        ),
        "damage": forms.CharField(
            label=_("Damage of another weapon"),
            help_text=_("Only for «Other weapon»: like 1d10 or 2d6+1."),
            max_length=20,
            required=False,
        ),
        "skill": forms.ChoiceField(
            label=_("Skill"),
            choices=[("", _("The weapon's own")), *skills],
            required=False,
        ),
        "modifier": forms.IntegerField(
            label=_("Modifier"), min_value=-20, max_value=20, initial=0, required=False
        ),
        **range_fields(),
        "defensa": forms.IntegerField(
            label=_("Target's Defensa (or range difficulty)"),
            help_text=_(
                "Empty: from the target's sheet, or from the distance for ranged weapons "
                "(short range, 15, if no distance is typed)."
            ),
            min_value=1,
            max_value=100,
            required=False,
        ),
        "destiny_point": forms.BooleanField(
            label=_("Spend a destiny point (keep the highest die)"), required=False
        ),
    }


def clean_damage(form: forms.Form, data: dict) -> None:
    """Another weapon's damage: its dice and a bonus. A number alone is no weapon's damage
    (seed: "se tira el daño correspondiente al arma utilizada (por ejemplo 1d10 si fuera
    una espada)"), so the message asks for dice as the help does. Dice that are none
    (0d6, 1d0) are refused by the parser, those too large or of 1 side by the engine's
    `check_damage`, each with its own message."""
    try:
        count, sides, fixed = parse_damage(
            data.get("damage") or "", _check_damage, dice_required=True
        )
    except forms.ValidationError as error:
        form.add_error("damage", error)
    else:
        data.update(damage_count=count, damage_sides=sides, damage_fixed=fixed)


def _check_damage(count: int, sides: int, fixed: int) -> None:
    check_damage(DamageDice(count, sides, fixed))


def clean_attack(form: forms.Form, data: dict) -> None:
    clean_ranges(form, data)
    if data.get("weapon") == CUSTOM_WEAPON:
        clean_damage(form, data)
