"""A Mundo de Tinieblas sheet beyond its traits: Virtue and Vice, specialties, merits, and
the GM's forms for them."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from characters.forms.sheet import SpecialtyForm
from characters.models import Merit
from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas import catalogue, traits
from mechanics.systems.base import SheetSection

# Game terms stay in Spanish (docs/rules.md#game-terms).
DETAIL_LABELS = {"virtue": "Virtud", "vice": "Vicio", "tamano": "Tamaño"}


def detail_fields(system, campaign) -> dict:
    """Virtue, Vice and Tamaño, which a GM may change on the sheet."""
    return {
        "virtue": forms.ChoiceField(
            label="Virtud",
            choices=[("", "—"), *((v.key, v.name) for v in catalogue.VIRTUES)],
            required=False,
        ),
        "vice": forms.ChoiceField(
            label="Vicio",
            choices=[("", "—"), *((v.key, v.name) for v in catalogue.VICES)],
            required=False,
        ),
        "tamano": forms.IntegerField(
            label="Tamaño", min_value=1, max_value=20, initial=traits.TAMANO_DEFAULT
        ),
    }


class MeritForm(forms.Form):
    """A catalogue merit (by key) or a custom one (empty key and a name)."""

    key = forms.ChoiceField(label=_("Merit"), required=False)
    name = forms.CharField(
        label=_("Custom merit name"),
        max_length=limit(Merit, "name"),
        required=False,
        help_text=_("Only for a merit that is not in the list."),
    )
    rating = forms.IntegerField(label=_("Dots"), min_value=1, max_value=5, initial=1)
    notes = forms.CharField(label=_("Notes"), max_length=limit(Merit, "notes"), required=False)

    def __init__(self, *args, system, **kwargs):
        super().__init__(*args, prefix="merit", **kwargs)
        self.system = system
        choices = [("", _("Custom merit…"))]
        choices += [
            (merit.key, f"{merit.name} ({merit.ratings_text})") for merit in catalogue.MERITS
        ]
        self.fields["key"].choices = choices

    def clean(self) -> dict:
        data = super().clean()
        key = data.get("key", "")
        if key:
            data["name"] = catalogue.merit(key).name
        elif not (data.get("name") or "").strip():
            self.add_error("name", _("Choose a merit from the list or write its name."))
            return data
        else:
            data["name"] = data["name"].strip()
        rating = data.get("rating")
        allowed = self.system.merit_ratings(key)
        if rating is not None and rating not in allowed:
            self.add_error(
                "rating",
                _("%(name)s may have %(ratings)s dots.")
                % {"name": data["name"], "ratings": catalogue.format_ratings(allowed)},
            )
        return data


def _moral_trait(lookup, key: str | None):
    """A Virtue or Vice from the catalogue, or None when unset or unknown."""
    if not key:
        return None
    try:
        return lookup(key)
    except RuleError:
        return None


class VirtueViceSection(SheetSection):
    key = "virtue_vice"
    template = "systems/tinieblas/sheet_virtue_vice.html"
    place = "status"

    def context(self, character, ratings, names) -> dict:
        details = character.details
        return {
            "virtue_vice": [
                ("Virtud", _moral_trait(catalogue.virtue, details.get("virtue"))),
                ("Vicio", _moral_trait(catalogue.vice, details.get("vice"))),
            ]
        }


class SpecialtiesSection(SheetSection):
    key = "specialties"
    template = "systems/tinieblas/sheet_specialties.html"
    reads = ("specialties",)
    # The form offers only the skills that have dots.
    follows_traits = True
    closed_forms = True

    def context(self, character, ratings, names) -> dict:
        return {
            "specialties": [
                (specialty, names.get(specialty.skill_key, ""))
                for specialty in character.specialties.all()
            ]
        }

    def forms(self, character, ratings, data=None) -> dict:
        campaign = character.campaign
        skills = [
            spec
            for _label, specs in campaign.game_system.trait_groups(campaign)
            for spec in specs
            if spec.kind == "skill"
        ]
        return {"specialty_form": SpecialtyForm(data, skills=skills, ratings=ratings)}


class MeritsSection(SheetSection):
    key = "merits"
    template = "systems/tinieblas/sheet_merits.html"
    reads = ("merits",)
    closed_forms = True

    def context(self, character, ratings, names) -> dict:
        rows = []
        for merit in character.merits.all():
            definition = catalogue.find_merit(merit.key) if merit.key else None
            allowed = definition.ratings if definition else catalogue.CUSTOM_MERIT_RATINGS
            top = max(allowed[-1], merit.rating)
            rows.append(
                {
                    "merit": merit,
                    "ratings_text": catalogue.format_ratings(allowed),
                    "dots": tuple(index < merit.rating for index in range(top)),
                    "description": definition.description if definition else "",
                    "custom": definition is None,
                }
            )
        return {"merits": rows}

    def forms(self, character, ratings, data=None) -> dict:
        return {"merit_form": MeritForm(data, system=character.campaign.game_system)}


SECTIONS = (VirtueViceSection(), SpecialtiesSection(), MeritsSection())
