"""A 3d6 + NdP sheet's equipment: armour by body part, weapons, shields and the load, with
the GM's forms to add each kind. The system adapter checks the stats with the engine's own
classes (RD, integrity, dice, GdC ranges) and returns what `Item.data` stores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.forms.sheet import ItemForm
from characters.models import Item
from mechanics.rules.errors import RuleError
from mechanics.rules.ndp import catalogue, equipment
from mechanics.systems.base import SheetSection

DETAIL_LABELS = {"deities": "Divinidades"}


class ArmourForm(ItemForm):
    kind = Item.Kind.ARMOUR
    add_label = _("Add an armour piece")
    stat_fields = ("part", "rd", "integrity")
    part = forms.ChoiceField(
        label=_("Body part"),
        choices=[(part.key, part.name) for part in catalogue.BODY_PARTS],
    )
    rd = forms.IntegerField(label="RD", min_value=0, max_value=100)
    integrity = forms.IntegerField(label=_("Integrity"), min_value=0, max_value=1000)


class WeaponForm(ItemForm):
    kind = Item.Kind.WEAPON
    add_label = _("Add a weapon")
    stat_fields = ("count", "sides", "fixed", "damage_type", "skill", "integrity")
    count = forms.IntegerField(label=_("Dice"), min_value=1, max_value=10, initial=1)
    sides = forms.TypedChoiceField(
        label=_("Die"),
        coerce=int,
        choices=[(sides, f"d{sides}") for sides in (4, 6, 8, 10, 12, 20)],
        initial=6,
    )
    fixed = forms.IntegerField(label=_("Bonus"), min_value=0, max_value=100, initial=0)
    damage_type = forms.ChoiceField(
        label=_("Damage type"),
        choices=[(kind.key, kind.name) for kind in catalogue.DAMAGE_TYPES],
    )
    skill = forms.ChoiceField(
        label=_("Skill"),
        choices=[(key, catalogue.skill(key).name) for key in equipment.WEAPON_SKILLS],
    )
    integrity = forms.IntegerField(label=_("Integrity"), min_value=0, max_value=1000)


class ShieldForm(ItemForm):
    kind = Item.Kind.SHIELD
    add_label = _("Add a shield")
    stat_fields = ("gdc", "integrity")
    gdc = forms.IntegerField(label="GdC", min_value=1, max_value=10)
    integrity = forms.IntegerField(label=_("Integrity"), min_value=0, max_value=1000)


ITEM_FORMS = (ItemForm, ArmourForm, WeaponForm, ShieldForm)


@dataclass
class Equipment:
    items: list[Item] = field(default_factory=list)
    armour: list[tuple[str, list[dict]]] = field(default_factory=list)
    unarmoured: list[str] = field(default_factory=list)
    weapons: list[dict] = field(default_factory=list)
    shields: list[dict] = field(default_factory=list)
    total_kg: float = 0.0
    load: equipment.LoadState | None = None


def _engine_item(item: Item, kind):
    try:
        return kind.from_dict({"name": item.name, "weight_kg": float(item.weight_kg), **item.data})
    except (RuleError, TypeError, KeyError):
        return None


def equipment_of(character, ratings: Mapping[str, int]) -> Equipment:
    result = Equipment()
    armour_by_part: dict[str, list[dict]] = {part.key: [] for part in catalogue.BODY_PARTS}
    damage_types = {t.key: t.name for t in catalogue.DAMAGE_TYPES}
    for item in character.items.all():
        result.total_kg += float(item.weight_kg)
        if item.kind == Item.Kind.ARMOUR:
            piece = _engine_item(item, equipment.ArmourPiece)
            part = piece.part if piece else item.data.get("part", "")
            armour_by_part.setdefault(part, []).append({"item": item, "piece": piece})
        elif item.kind == Item.Kind.WEAPON:
            weapon = _engine_item(item, equipment.Weapon)
            skill = catalogue.SKILLS_BY_KEY.get(weapon.skill) if weapon else None
            damage = damage_types.get(weapon.damage_type, "") if weapon else ""
            result.weapons.append(
                {
                    "item": item,
                    "weapon": weapon,
                    "skill": skill.name if skill else "",
                    "damage_type": damage,
                }
            )
        elif item.kind == Item.Kind.SHIELD:
            result.shields.append({"item": item, "shield": _engine_item(item, equipment.Shield)})
        else:
            result.items.append(item)
    names = {part.key: part.name for part in catalogue.BODY_PARTS}
    result.armour = [
        (names.get(part, part), pieces) for part, pieces in armour_by_part.items() if pieces
    ]
    result.unarmoured = [names[part] for part, pieces in armour_by_part.items() if not pieces]
    result.load = equipment.load_state(result.total_kg, ratings.get("fortitud", 0))
    return result


class EquipmentSection(SheetSection):
    key = "equipment"
    template = "systems/ndp/sheet_equipment.html"
    reads = ("items",)

    def context(self, character, ratings, names) -> dict:
        return {"equipment": equipment_of(character, ratings)}

    def forms(self, character, ratings, data=None) -> dict:
        system = character.campaign.game_system
        return {"item_forms": {form.kind: form(data, system=system) for form in ITEM_FORMS}}


SECTIONS = (EquipmentSection(),)
