"""A Dado objetivo sheet's specialization: its section and the GM's field to change it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.systems.base import SheetSection

# Game terms stay in Spanish (docs/rules.md#game-terms); the rest is UI text.
DETAIL_LABELS = {
    "specialization": "Especialización",
    "destiny_returned": _("Destiny point handed back"),
    "specialization_used_scene": _("Specialization used in scene"),
}


def detail_fields(system, campaign) -> dict:
    skills = [spec for spec in system.trait_specs(campaign) if spec.kind == "skill"]
    return {
        "specialization": forms.ChoiceField(
            label="Especialización",
            choices=[("", "—"), *((spec.key, spec.name) for spec in skills)],
            required=False,
        )
    }


class SpecializationSection(SheetSection):
    key = "specialization"
    template = "systems/objetivo/sheet_specialization.html"
    place = "status"

    def context(self, character, ratings, names) -> dict:
        return {"specialization": names.get(character.details.get("specialization"))}


SECTIONS = (SpecializationSection(),)
