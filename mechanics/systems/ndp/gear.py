"""The sheet's equipment as the engine sees it, and what Interceptar does with it: the
object used to intercept adds a shield's GdC bonus and takes the blow when the defence
stops it (docs/rules.md#ndp-interceptar), in the combat panel and in the GM's opposed
roll alike."""

from __future__ import annotations

from django.utils.translation import gettext as _

from characters.models import Item
from characters.services.sheet import item_wear
from mechanics.rules.dice import RollRecord
from mechanics.rules.errors import RuleError
from mechanics.rules.ndp.equipment import Shield, Weapon
from mechanics.setup import Sheet

INTERCEPTAR = "interceptar"


def stats(item, kind):
    """The engine's view of a sheet item; None when its stats do not fit (the sheet says)."""
    try:
        return kind.from_dict({**item.data, "name": item.name})
    except (RuleError, TypeError):
        return None


def items(sheet: Sheet, kind: str, stats_kind) -> list:
    pairs = [(item, stats(item, stats_kind)) for item in sheet.items if item.kind == kind]
    return [(item, found) for item, found in pairs if found is not None]


def interceptor(target: Sheet):
    """What the target intercepts with: its best shield, else its first weapon, else
    nothing (docs/rules.md#ndp-interceptar)."""
    shields = items(target, "shield", Shield)
    if shields:
        return max(shields, key=lambda pair: (pair[1].integrity > 0, pair[1].gdc))
    weapons = items(target, "weapon", Weapon)
    return weapons[0] if weapons else None


def intercepting(sheet: Sheet, data: dict):
    """A side's roll set-up with what it intercepts with: (data, (item, stats) or None).
    A shield adds its GdC bonus as a step of the roll; a weapon adds nothing. Data seen
    once (the combat panel's defence, whose odds are an opposed roll) is left alone."""
    if data.get("skill") != INTERCEPTAR or data.get("intercepts"):
        return data, None
    used = interceptor(sheet)
    data = {**data, "intercepts": True}
    if used and isinstance(used[1], Shield):
        bonus = used[1].interceptar_bonus
        data = {
            **data,
            "bonus": (data.get("bonus") or 0) + bonus,
            "bonus_steps": [
                *data.get("bonus_steps", ()),
                (f"{used[0].name} (GdC {used[1].gdc})", bonus),
            ],
        }
    return data, used


def wear_interceptor(character, user, record: RollRecord) -> list[dict]:
    """In the roll's transaction: the object a winning Interceptar used takes the blow,
    1 integrity; nothing if it left the sheet meanwhile."""
    used = record.details.get("intercepted_with")
    if not used:
        return []
    item = Item.objects.filter(pk=used["item"], character=character).first()
    if item is None or not isinstance(item.data.get("integrity"), int):
        return []
    old = item.data["integrity"]
    new = item_wear(item=item, user=user)
    label = _("%(name)s · Integrity") % {"name": item.name}
    return [{"what": "integrity", "label": label, "old": old, "new": new}]
