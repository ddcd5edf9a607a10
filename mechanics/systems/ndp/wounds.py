"""What wounds do to a 3d6 + NdP roll (docs/rules.md#ndp-wound-effects): Contusionado
adds 5 to the adversity of a quick action, Fracturado 2 Desgracias to an action with that
limb. The roll panel asks for the limb only while one is fractured, and whether the action
is quick only while the roller is Contusionado."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mechanics.rules.errors import RuleError
from mechanics.rules.ndp import catalogue
from mechanics.rules.ndp.health import NdpHealth
from mechanics.setup import Sheet

BOTH_ARMS = "ambos_brazos"
ARMS = ("brazo_derecho", "brazo_izquierdo")


def state(sheet: Sheet) -> NdpHealth:
    """The roller's wounds; an unreadable record counts as unhurt here (the sheet says why)."""
    return wounds_of(sheet.character)


def wounds_of(character) -> NdpHealth:
    """A character's wounds, read as `state` reads a roller's."""
    try:
        return NdpHealth.from_dict(dict(character.health or {}))
    except RuleError:
        return NdpHealth()


def limbs(choice: str) -> tuple[str, ...]:
    """The limbs an action names: one limb, both arms, or none ("")."""
    if choice == BOTH_ARMS:
        return ARMS
    return (choice,) if choice in catalogue.LIMBS else ()


def limb_choices(blank: str | None = None) -> list[tuple[str, str]]:
    names = {part.key: part.name for part in catalogue.BODY_PARTS}
    choices = [(key, names[key]) for key in (*ARMS, "pierna_derecha", "pierna_izquierda")]
    choices.insert(2, (BOTH_ARMS, _("Both arms")))
    return [("", blank), *choices] if blank is not None else choices


def fracture_desgracias(sheet: Sheet, choice: str) -> int:
    """Fracturado: 2 Desgracias for each fractured limb the action uses."""
    return state(sheet).desgracias_for(limbs(choice))


def limb_field(label) -> forms.ChoiceField:
    """The limb an action uses, asked whoever acts: for an actor picked in the same form
    (a side of a GM's roll, a healer), whose wounds the form cannot know yet."""
    return forms.ChoiceField(
        label=label,
        choices=limb_choices(_("No limb named")),
        required=False,
        help_text=_("Fracturado: 2 Desgracias for each fractured limb used."),
    )


def quick_adversity(sheet: Sheet) -> int:
    """Contusionado: what a quick action adds to its adversity (0 when not contused)."""
    return state(sheet).quick_action_adversity


def roll_fields(sheet: Sheet) -> dict[str, forms.Field]:
    """The roll panel's wound questions, only those the roller's wounds make matter."""
    health = state(sheet)
    fields: dict[str, forms.Field] = {}
    if health.fractured_limbs:
        fractured = ", ".join(catalogue.body_part(p).name for p in health.fractured_limbs)
        fields["limb"] = forms.ChoiceField(
            label=gettext_lazy("Limb the action uses"),
            choices=limb_choices(_("No limb named")),
            required=False,
            help_text=_("Fracturado (%(limbs)s): 2 Desgracias for each fractured limb used.")
            % {"limbs": fractured},
        )
    if health.quick_action_adversity:
        fields["quick"] = forms.BooleanField(
            label=gettext_lazy("Quick action (Contusionado: +5 adversity)"), required=False
        )
    return fields
