"""The 3d6 + NdP roll panel with magic: the skill checks and attacks of `forms.py`, plus an
arcane spell built from the seed's gesture table, Disipar, Artesanía mágica, divine
conjurations spending a deity's faith and the binding roll of a summoning
(docs/rules.md#ndp-magic)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.rules.ndp import catalogue
from mechanics.rules.ndp.rolls import MAX_FAITH
from mechanics.systems.ndp.forms import NdpRollForm

ARCANE, DISPEL, CRAFTING, DIVINE, SUMMON = "arcane", "dispel", "crafting", "divine", "summon"
MAGIC_KINDS = (ARCANE, DISPEL, CRAFTING, DIVINE, SUMMON)
# Every magic roll but the divine one is Voluntad (seed: "Tirada: Voluntad").
VOLUNTAD = "voluntad"
# The fields of the plain panel that a magic roll uses too; the others are for the checks.
SHARED = frozenset({"dice", "gracias", "desgracias", "label", "secret"})
DICE_FIELDS = frozenset({"dice", "gracias", "desgracias"})
GESTURE_FIELDS = tuple(f"gesture_{g.key}" for g in catalogue.ARCANE_GESTURES)
MAX_GESTURE_PRANA = 50
CUSTOM_ARTEFACT = "other"
# Extra Prana (seed: "Fuentes extra"): own leve wounds and an item's integrity.
EXTRA_FIELDS = ["extra_wounds", "extra_item", "extra_integrity"]
MAX_EXTRA_WOUNDS = 20
MAX_EXTRA_INTEGRITY = 100


def _magic_layout(layout: tuple, plain_kinds: tuple[str, ...]) -> tuple:
    """The plain panel's layout with its fieldsets for every kind split: what a magic roll
    uses stays for every kind, the rest (skill, adversity…) only for the plain kinds."""
    head, tail = [], []
    for legend, kinds, names in layout:
        if kinds is not None:
            head.append((legend, kinds, names))
            continue
        own = [name for name in names if name not in SHARED]
        shared = [name for name in names if name in SHARED]
        if own:
            head.append((legend, plain_kinds, own))
        if shared and own:
            # Every roll but the divine one throws the d6 (divine magic throws d10).
            rolled = (*plain_kinds, ARCANE, DISPEL, CRAFTING, SUMMON)
            head.append((None, rolled, shared))
        elif shared:
            tail.append((legend, None, shared))
    magic = (
        (_("Spell gestures (Prana on each)"), (ARCANE,), list(GESTURE_FIELDS)),
        (_("Spell to dispel"), (DISPEL,), ["original_adversity"]),
        (_("Artefact"), (CRAFTING,), ["artefact", "artefact_cost"]),
        (_("Extra Prana"), (ARCANE, CRAFTING), EXTRA_FIELDS),
        (_("Divine conjuration"), (DIVINE,), ["deity", "faith", "divine_target"]),
        (_("Creature to bind"), (SUMMON,), ["creature", "school", "creature_voluntad"]),
    )
    return (*head, *magic, *tail)


def _gesture_field(gesture: catalogue.Gesture) -> forms.IntegerField:
    return forms.IntegerField(
        label=f"{gesture.name} ({gesture.cost_per_prana})",
        help_text=_("Base: %(base)s") % {"base": gesture.base},
        min_value=0,
        max_value=MAX_GESTURE_PRANA,
        initial=0,
        required=False,
    )


class NdpMagicRollForm(NdpRollForm):
    kinds = (
        *NdpRollForm.kinds,
        (ARCANE, _("Arcane spell")),
        (DISPEL, _("Dispel")),
        (CRAFTING, _("Magic crafting")),
        (DIVINE, _("Divine magic")),
        (SUMMON, _("Summoning")),
    )
    layout = _magic_layout(NdpRollForm.layout, tuple(key for key, _label in NdpRollForm.kinds))
    compact = NdpRollForm.compact | {"faith", "creature_voluntad"}
    # The wounds and integrity sacrificed for extra Prana are paid by one roll: the panel
    # forgets them after it, so the next cast never repeats the sacrifice unasked.
    spends = (*NdpRollForm.spends, "extra_wounds", "extra_item", "extra_integrity")

    original_adversity = forms.IntegerField(
        label=_("Original adversity of the spell"),
        help_text=_("The Prana the spell cost. You must touch it."),
        min_value=0,
        max_value=200,
        required=False,
    )
    artefact = forms.ChoiceField(
        label=_("Artefact"),
        choices=[
            *(
                (item.key, f"{item.name} ({item.prana_cost} Prana, Adv. {item.adversity})")
                for item in catalogue.CRAFTING_ITEMS
            ),
            (CUSTOM_ARTEFACT, _("Another artefact")),
        ],
        required=False,
    )
    artefact_cost = forms.IntegerField(
        label=_("Prana cost of another artefact"),
        min_value=0,
        max_value=190,
        required=False,
    )
    extra_wounds = forms.IntegerField(
        label=_("Leve wounds you take (1 Prana each)"),
        min_value=0,
        max_value=MAX_EXTRA_WOUNDS,
        initial=0,
        required=False,
    )
    extra_item = forms.TypedChoiceField(
        label=_("Item whose integrity you spend"), coerce=int, empty_value=None, required=False
    )
    extra_integrity = forms.IntegerField(
        label=_("Integrity points of the item (2 give 1 Prana)"),
        min_value=0,
        max_value=MAX_EXTRA_INTEGRITY,
        initial=0,
        required=False,
    )
    deity = forms.ChoiceField(label=_("Deity"), required=False)
    faith = forms.IntegerField(
        label=_("Faith points to spend (1d10 each)"),
        min_value=1,
        max_value=MAX_FAITH,
        initial=1,
        required=False,
    )
    divine_target = forms.TypedChoiceField(
        label=_("Power sought"),
        coerce=int,
        choices=[(t.threshold, f"{t.name} ({t.threshold}+)") for t in catalogue.DIVINE_TIERS],
        initial=catalogue.DIVINE_TIERS[0].threshold,
        required=False,
    )
    creature = forms.CharField(label=_("Creature"), max_length=80, required=False)
    school = forms.ChoiceField(
        label=_("School"),
        choices=[(s.key, f"{s.name}: {s.creatures}") for s in catalogue.SUMMONING_SCHOOLS],
        required=False,
    )
    creature_voluntad = forms.IntegerField(
        label=_("Creature's Voluntad (NdP)"),
        min_value=0,
        max_value=catalogue.MAX_LEVEL,
        initial=0,
        required=False,
    )

    def setup_fields(self) -> None:
        super().setup_fields()
        for gesture, name in zip(catalogue.ARCANE_GESTURES, GESTURE_FIELDS, strict=True):
            self.fields[name] = _gesture_field(gesture)
        deities = sorted(self.sheet.character.details.get("deities", {}).items())
        self.fields["deity"].choices = deities
        self.fields["extra_item"].choices = [
            ("", "—"),
            *(
                (item.pk, f"{item.name} ({item.data['integrity']})")
                for item in self.sheet.items
                if isinstance(item.data.get("integrity"), int)
            ),
        ]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind not in MAGIC_KINDS:
            return data
        # A magic roll is never a plain check: what the plain fields said does not apply
        # (nor, to a divine roll, the d6 and d4).
        unused = DICE_FIELDS if kind == DIVINE else frozenset()
        for name in self.errors.copy():
            if (
                name in NdpRollForm.base_fields
                and name not in ("kind", "label")
                and (name not in SHARED or name in unused)
            ):
                del self.errors[name]
        # A divine roll spends faith, not a skill.
        skill = "" if kind == DIVINE else VOLUNTAD
        data.update(skill=skill, adversity=None, opposed_total=None, defending=False)
        if kind == ARCANE:
            data["gestures"] = {
                gesture.key: data.get(name) or 0
                for gesture, name in zip(catalogue.ARCANE_GESTURES, GESTURE_FIELDS, strict=True)
            }
        elif kind == DISPEL and data.get("original_adversity") is None:
            self.add_error("original_adversity", _("Give the adversity the spell had."))
        elif kind == CRAFTING:
            self._clean_artefact(data)
        if kind in (ARCANE, CRAFTING):
            self._clean_extra(data)
        elif kind == DIVINE:
            if not data.get("deity"):
                self.add_error(
                    "deity" if self.fields["deity"].choices else None,
                    _("Choose the deity whose faith you spend.")
                    if self.fields["deity"].choices
                    else _("This character worships no deity yet: add one on the sheet."),
                )
            if not data.get("faith"):
                self.add_error("faith", _("Spend at least 1 faith point."))
            data.setdefault("divine_target", None)
        elif kind == SUMMON:
            if not (data.get("creature") or "").strip():
                self.add_error("creature", _("Name the creature."))
            if not data.get("school"):
                self.add_error("school", _("Choose the school."))
            if data.get("creature_voluntad") is None:
                self.add_error("creature_voluntad", _("Give the creature's Voluntad."))
        return data

    def _clean_extra(self, data: dict) -> None:
        data["extra_wounds"] = data.get("extra_wounds") or 0
        data["extra_integrity"] = integrity = data.get("extra_integrity") or 0
        if integrity % 2:
            self.add_error(
                "extra_integrity", _("Two integrity points give 1 Prana: give an even number.")
            )
        elif integrity and not data.get("extra_item"):
            self.add_error("extra_item", _("Choose the item whose integrity you spend."))
        if not integrity:
            data["extra_item"] = None

    def _clean_artefact(self, data: dict) -> None:
        key = data.get("artefact")
        if key == CUSTOM_ARTEFACT:
            if data.get("artefact_cost") is None:
                self.add_error("artefact_cost", _("Give the artefact's Prana cost."))
                return
            data["artefact_name"], data["prana_cost"] = "", data["artefact_cost"]
            return
        item = next((i for i in catalogue.CRAFTING_ITEMS if i.key == key), None)
        if item is None:
            self.add_error("artefact", _("Choose the artefact."))
            return
        data["artefact_name"], data["prana_cost"] = item.name, item.prana_cost
