"""The aspects and the equipment of a Hitos sheet: their sections and the GM's forms to
add to them."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from campaigns.texts import LineField
from characters.forms.sheet import ItemForm
from characters.models import Aspect, Item
from mechanics.rules.hitos import catalogue
from mechanics.systems.base import SheetSection

# Each kind's place in the sheet's order (Concepto, Cita, Hitos, Complicación, free,
# temporary) and its name.
_KINDS = {kind.key: (index, kind.name) for index, kind in enumerate(catalogue.ASPECT_KINDS)}
TEMPORARY = "temporal"
SECUELA = "secuela"


class SecuelaForm(forms.Form):
    """The name a player gives a permanent secuela (a new complication)."""

    prefix = "secuela"
    text = forms.CharField(
        label=_("The permanent secuela"),
        max_length=limit(Aspect, "text"),
        help_text=_(
            "A complication fitting the harm that left the character Moribundo: a limp, a "
            "lost eye, a scar…"
        ),
    )


class AspectForm(forms.Form):
    """A new aspect: its slot, its text and, if temporary, how long it lasts."""

    kind = forms.ChoiceField(
        label=_("Kind"), choices=[(kind.key, kind.name) for kind in catalogue.ASPECT_KINDS]
    )
    text = LineField(label=_("Aspect"), max_length=limit(Aspect, "text"))
    duration = forms.ChoiceField(
        label=_("Lasts"),
        required=False,
        choices=[("", "—"), ("scene", _("the scene")), ("session", _("the session"))],
        help_text=_("Only for temporary aspects."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, prefix="aspect", **kwargs)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("kind") == TEMPORARY:
            data["duration"] = data.get("duration") or "scene"
        else:
            data["duration"] = ""
        return data


def kind_name(kind: str) -> str:
    return _KINDS.get(kind, (0, kind))[1]


class AspectsSection(SheetSection):
    key = "aspects"
    template = "systems/hitos/sheet_aspects.html"
    place = "top"
    reads = ("aspects",)
    # The secuelas a recovery owes.
    reads_health = True
    closed_forms = True

    def context(self, character, ratings, names) -> dict:
        """(kind name, aspect) in the sheet's order."""
        aspects = sorted(
            character.aspects.all(),
            key=lambda a: (_KINDS.get(a.kind, (len(_KINDS), ""))[0], a.position, a.pk),
        )
        # Recovering from Moribundo owes a permanent secuela the player names.
        named = sum(1 for aspect in aspects if aspect.kind == SECUELA)
        owed = int((character.health or {}).get("permanent_secuelas", 0))
        return {
            "aspects": [(kind_name(aspect.kind), aspect) for aspect in aspects],
            "unnamed_secuelas": max(0, owed - named),
            "secuela_form": SecuelaForm(),
        }

    def row_context(self, row) -> dict:
        return {"aspect": row, "kind_name": kind_name(row.kind)}

    def forms(self, character, ratings, data=None) -> dict:
        return {"aspect_form": AspectForm(data)}


class ArmourForm(ItemForm):
    """An armour and its RD (resistencia al daño)."""

    kind = Item.Kind.ARMOUR
    add_label = _("Add an armour")
    stat_fields = ("rd",)
    rd = forms.IntegerField(label="RD", min_value=0, max_value=50)


ITEM_FORMS = (ItemForm, ArmourForm)


def armour_rds(items) -> list[int]:
    """The RD of each armour the character keeps: an attack on it subtracts the highest
    one, as armours never add (docs/rules.md#hitos-damage)."""
    return [int(item.data.get("rd", 0)) for item in items if item.kind == Item.Kind.ARMOUR]


class EquipmentSection(SheetSection):
    key = "equipment"
    template = "systems/hitos/sheet_equipment.html"
    reads = ("items",)

    def context(self, character, ratings, names) -> dict:
        items = list(character.items.all())
        return {
            "armours": [item for item in items if item.kind == Item.Kind.ARMOUR],
            "plain_items": [item for item in items if item.kind != Item.Kind.ARMOUR],
        }

    def forms(self, character, ratings, data=None) -> dict:
        system = character.campaign.game_system
        return {"item_forms": {form.kind: form(data, system=system) for form in ITEM_FORMS}}


SECTIONS = (AspectsSection(), EquipmentSection())
