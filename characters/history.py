"""The sheet history in words: what each recorded field means to a reader.

Services record fields as short codes ("trait:fuerza", "resource:willpower",
"details:virtue"); `FieldNames` turns them into the names the sheet shows, from the
system adapter (its traits, pools and `detail_labels`), so "trait:fuerza" reads "Fuerza"
and "resource:willpower" reads "Fuerza de Voluntad (reserva)".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.models import Character, Item, SheetChange

_PLAIN = {
    "created": gettext_lazy("Sheet created"),
    "imported": gettext_lazy("Sheet imported"),
    "name": gettext_lazy("Name"),
    "concept": gettext_lazy("Concept"),
    "description": gettext_lazy("Description"),
    "notes": gettext_lazy("Notes"),
    "portrait": gettext_lazy("Portrait"),
    "approved_over_budget": gettext_lazy("Approved over budget"),
}


@dataclass(frozen=True)
class HistoryRow:
    change: SheetChange
    label: str
    old: str
    new: str


class FieldNames:
    """Names for one character's recorded fields; built once per page (constant queries)."""

    def __init__(self, character: Character, ratings: dict[str, int]) -> None:
        campaign = character.campaign
        system = campaign.game_system
        self.details = system.detail_labels
        self.traits = {spec.key: spec.name for spec in system.trait_specs(campaign)}
        self.pools = {
            spec.key: spec.label
            for spec in system.resource_specs(ratings, character.details, campaign.rules)
        }

    def label(self, field: str) -> str:
        if field in _PLAIN:
            return str(_PLAIN[field])
        prefix, _sep, key = field.partition(":")
        if prefix == "trait":
            return self.traits.get(key, key)
        if prefix == "pdp":
            return _("%(name)s (PdP)") % {"name": self.traits.get(key, key)}
        if prefix == "resource":
            return _("%(name)s (pool)") % {"name": self.pools.get(key, key)}
        if prefix == "max":
            return _("%(name)s (maximum)") % {"name": self.pools.get(key, key)}
        if prefix == "specialty":
            return _("Specialty (%(skill)s)") % {"skill": self.traits.get(key, key)}
        if prefix == "merit":
            return _("Merit: %(name)s") % {"name": key}
        if prefix == "aspect":
            return _("Aspect: %(text)s") % {"text": key}
        if prefix == "item":
            kind = Item.Kind(key).label if key in Item.Kind.values else key
            return _("Equipment (%(kind)s)") % {"kind": kind}
        if prefix == "details":
            return str(self.details.get(key, key))
        return field

    def value(self, field: str, value: str) -> str:
        if value in ("", "None"):
            return "—"
        if value == "True":
            return _("yes")
        if value == "False":
            return _("no")
        if field == "details:specialization":
            return self.traits.get(value, value)
        return value

    def row(self, change: SheetChange) -> HistoryRow:
        if change.field == "portrait":
            # The stored values are the files' random names: say what happened instead.
            return HistoryRow(
                change=change,
                label=self.label(change.field),
                old=_("Previous portrait") if change.old_value else "—",
                new=_("New portrait") if change.new_value else _("Portrait removed"),
            )
        return HistoryRow(
            change=change,
            label=self.label(change.field),
            old=self.value(change.field, change.old_value),
            new=self.value(change.field, change.new_value),
        )
