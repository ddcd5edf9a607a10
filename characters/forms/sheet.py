"""Forms for editing a sheet in place. They validate input; services do the writes.

None of them has an owner, campaign or XP field: whatever a forged POST adds is
ignored, because only declared fields reach `cleaned_data`.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from characters.models import Character, Item
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import catalogue as hitos_catalogue
from mechanics.rules.ndp import catalogue as ndp_catalogue
from mechanics.rules.ndp import equipment
from mechanics.rules.tinieblas import catalogue as tinieblas_catalogue
from mechanics.rules.tinieblas import traits as tinieblas_traits
from mechanics.systems.base import GameSystem, TraitSpec


class StoryForm(forms.Form):
    """What the owner writes: name, concept, description and notes."""

    name = forms.CharField(label=_("Name"), max_length=120)
    concept = forms.CharField(label=_("Concept"), max_length=200, required=False)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Other players see the name, concept and description."),
    )
    notes = forms.CharField(
        label=_("Notes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("Only you and the GMs see the notes."),
    )

    @classmethod
    def for_character(cls, character: Character, data=None) -> StoryForm:
        initial = {field: getattr(character, field) for field in cls.base_fields}
        return cls(data, initial=initial, prefix="story")

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The character needs a name."))
        return name


class PoolAdjustForm(forms.Form):
    delta = forms.IntegerField(min_value=-20, max_value=20)

    def clean_delta(self) -> int:
        if self.cleaned_data["delta"] == 0:
            raise forms.ValidationError(_("Nothing to change."))
        return self.cleaned_data["delta"]


class TraitRatingForm(forms.Form):
    # The range is the rules' business: the service checks it against the catalogue.
    rating = forms.IntegerField(min_value=-100, max_value=100)


class AspectExhaustedForm(forms.Form):
    exhausted = forms.TypedChoiceField(
        choices=(("1", "1"), ("0", "0")), coerce=lambda value: value == "1"
    )


class DetailsForm(forms.Form):
    """A GM's edit of the system values a sheet keeps in `details`: Virtue, Vice and
    Tamaño (Mundo de Tinieblas), the specialization (Dado objetivo)."""

    def __init__(self, *args, system: GameSystem, campaign, details: dict, **kwargs):
        super().__init__(*args, prefix="details", **kwargs)
        if system.key == "tinieblas":
            self.fields["virtue"] = forms.ChoiceField(
                label="Virtud",
                choices=[("", "—"), *((v.key, v.name) for v in tinieblas_catalogue.VIRTUES)],
                required=False,
            )
            self.fields["vice"] = forms.ChoiceField(
                label="Vicio",
                choices=[("", "—"), *((v.key, v.name) for v in tinieblas_catalogue.VICES)],
                required=False,
            )
            self.fields["tamano"] = forms.IntegerField(
                label="Tamaño", min_value=1, max_value=20, initial=tinieblas_traits.TAMANO_DEFAULT
            )
        elif system.key == "objetivo":
            skills = [spec for spec in system.trait_specs(campaign) if spec.kind == "skill"]
            self.fields["specialization"] = forms.ChoiceField(
                label="Especialización",
                choices=[("", "—"), *((spec.key, spec.name) for spec in skills)],
                required=False,
            )
        for name, field in self.fields.items():
            field.initial = details.get(name, field.initial)

    @property
    def has_fields(self) -> bool:
        return bool(self.fields)


class AspectForm(forms.Form):
    """A new aspect (Hitos): its slot, its text and, if temporary, how long it lasts."""

    kind = forms.ChoiceField(
        label=_("Kind"), choices=[(kind.key, kind.name) for kind in hitos_catalogue.ASPECT_KINDS]
    )
    text = forms.CharField(label=_("Aspect"), max_length=200)
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
        if data.get("kind") == "temporal":
            data["duration"] = data.get("duration") or "scene"
        else:
            data["duration"] = ""
        return data


class SpecialtyForm(forms.Form):
    skill_key = forms.ChoiceField(label=_("Skill"))
    name = forms.CharField(label=_("Specialty"), max_length=80)

    def __init__(self, *args, skills: list[TraitSpec], ratings: dict[str, int], **kwargs):
        super().__init__(*args, prefix="specialty", **kwargs)
        # Every skill is a valid choice, so a skill with no dots reaches the service and
        # gets its rule's message; the menu offers only the skills that have dots.
        self.fields["skill_key"].choices = [(spec.key, spec.name) for spec in skills]
        self.fields["skill_key"].widget.choices = [
            (spec.key, spec.name) for spec in skills if ratings.get(spec.key, 0) >= 1
        ]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Write the specialty."))
        return name


class MeritForm(forms.Form):
    """A catalogue merit (by key) or a custom one (empty key and a name)."""

    key = forms.ChoiceField(label=_("Merit"), required=False)
    name = forms.CharField(
        label=_("Custom merit name"),
        max_length=80,
        required=False,
        help_text=_("Only for a merit that is not in the list."),
    )
    rating = forms.IntegerField(label=_("Dots"), min_value=1, max_value=5, initial=1)
    notes = forms.CharField(label=_("Notes"), max_length=200, required=False)

    def __init__(self, *args, system: GameSystem, **kwargs):
        super().__init__(*args, prefix="merit", **kwargs)
        self.system = system
        choices = [("", _("Custom merit…"))]
        choices += [
            (merit.key, f"{merit.name} ({merit.ratings_text})")
            for merit in tinieblas_catalogue.MERITS
        ]
        self.fields["key"].choices = choices

    def clean(self) -> dict:
        data = super().clean()
        key = data.get("key", "")
        if key:
            data["name"] = tinieblas_catalogue.merit(key).name
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
                % {"name": data["name"], "ratings": tinieblas_catalogue.format_ratings(allowed)},
            )
        return data


# Equipment (3d6 + NdP). The system adapter checks the stats with the engine's own
# classes (RD, integrity, dice, GdC ranges) and returns what `Item.data` stores.


class ItemForm(forms.Form):
    kind = Item.Kind.ITEM
    stat_fields: tuple[str, ...] = ()
    name = forms.CharField(label=_("Name"), max_length=80)
    weight_kg = forms.DecimalField(
        label=_("Weight (kg)"),
        min_value=Decimal(0),
        max_value=Decimal(9999),
        decimal_places=2,
        initial=0,
    )

    def __init__(self, *args, system: GameSystem, **kwargs):
        super().__init__(*args, prefix=self.kind, **kwargs)
        self.system = system

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        stats = {name: data[name] for name in self.stat_fields}
        try:
            data["data"] = self.system.clean_item(
                self.kind, data["name"], float(data["weight_kg"]), stats
            )
        except DjangoValidationError as error:
            raise forms.ValidationError(error.messages) from None
        except RuleError as error:
            raise forms.ValidationError(error.translated(gettext)) from None
        return data


class ArmourForm(ItemForm):
    kind = Item.Kind.ARMOUR
    stat_fields = ("part", "rd", "integrity")
    part = forms.ChoiceField(
        label=_("Body part"),
        choices=[(part.key, part.name) for part in ndp_catalogue.BODY_PARTS],
    )
    rd = forms.IntegerField(label="RD", min_value=0, max_value=100)
    integrity = forms.IntegerField(label=_("Integrity"), min_value=0, max_value=1000)


class WeaponForm(ItemForm):
    kind = Item.Kind.WEAPON
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
        choices=[(kind.key, kind.name) for kind in ndp_catalogue.DAMAGE_TYPES],
    )
    skill = forms.ChoiceField(
        label=_("Skill"),
        choices=[(key, ndp_catalogue.skill(key).name) for key in equipment.WEAPON_SKILLS],
    )
    integrity = forms.IntegerField(label=_("Integrity"), min_value=0, max_value=1000)


class ShieldForm(ItemForm):
    kind = Item.Kind.SHIELD
    stat_fields = ("gdc", "integrity")
    gdc = forms.IntegerField(label="GdC", min_value=1, max_value=10)
    integrity = forms.IntegerField(label=_("Integrity"), min_value=0, max_value=1000)


ITEM_FORMS: dict[str, type[ItemForm]] = {
    form.kind: form for form in (ItemForm, ArmourForm, WeaponForm, ShieldForm)
}
