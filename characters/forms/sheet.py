"""Forms for editing a sheet in place. They validate input; services do the writes.

None of them has an owner, campaign or XP field: whatever a forged POST adds is
ignored, because only declared fields reach `cleaned_data`.
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from django import forms
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.images import CleanImage, ImageUploadField
from campaigns.limits import limit
from campaigns.services import upload_allowance_take
from campaigns.texts import LineField, LongTextarea
from characters.models import Character, Item, Specialty
from characters.services import STORY_FIELDS
from mechanics.rules.errors import RuleError
from mechanics.systems.base import GameSystem, TraitSpec


class StoryForm(forms.Form):
    """What the owner writes: name, concept, description and notes."""

    name = LineField(label=_("Name"), max_length=limit(Character, "name"))
    concept = LineField(label=_("Concept"), max_length=limit(Character, "concept"), required=False)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=limit(Character, "description"),
        widget=LongTextarea(attrs={"rows": 3}),
        help_text=_("Other players see the name, concept and description."),
    )
    notes = forms.CharField(
        label=_("Notes"),
        required=False,
        max_length=limit(Character, "notes"),
        widget=LongTextarea(attrs={"rows": 5}),
        help_text=_("Only you and the GMs see the notes."),
    )
    portrait = ImageUploadField(label=_("Portrait"))
    remove_portrait = forms.BooleanField(label=_("Remove the portrait"), required=False)

    @classmethod
    def for_character(
        cls, character: Character, data=None, files=None, *, uploader=None
    ) -> StoryForm:
        initial = {field: getattr(character, field) for field in STORY_FIELDS}
        form = cls(data, files, initial=initial, prefix="story")
        if uploader is not None:
            form.fields["portrait"].allowance = partial(upload_allowance_take, user=uploader)
        if not character.portrait:
            del form.fields["remove_portrait"]
        if character.campaign.game_system.concept_aspect is not None:
            # The help the creation form gives (Hitos: services.character_update).
            form.fields["concept"].help_text = _(
                "A few words: who this character is. It is also the Concepto aspect."
            )
        return form

    def story(self) -> dict[str, str]:
        """The text fields, for `character_update`."""
        return {field: self.cleaned_data[field] for field in STORY_FIELDS}

    def portrait_change(self) -> tuple[bool, CleanImage | None]:
        """(whether the portrait changes, the new one or None to remove it)."""
        image = self.cleaned_data["portrait"]
        return image is not None or self.cleaned_data.get("remove_portrait", False), image

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
    """A GM's edit of the values a sheet keeps in `details` (Virtue and Vice, a
    specialization…): the fields are the system's (`GameSystem.detail_fields`)."""

    def __init__(self, *args, system: GameSystem, campaign, details: dict, **kwargs):
        super().__init__(*args, prefix="details", **kwargs)
        self.fields.update(system.detail_fields(campaign))
        for name, field in self.fields.items():
            field.initial = details.get(name, field.initial)

    @property
    def has_fields(self) -> bool:
        return bool(self.fields)


class SpecialtyForm(forms.Form):
    skill_key = forms.ChoiceField(label=_("Skill"))
    name = LineField(label=_("Specialty"), max_length=limit(Specialty, "name"))

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


class ItemForm(forms.Form):
    """A plain item: a name and a weight. A system with stats for its equipment subclasses
    it (`stat_fields`); the system adapter checks the stats and returns what `Item.data`
    stores."""

    kind = Item.Kind.ITEM
    # What the sheet's button that opens this form says.
    add_label = _("Add an item")
    stat_fields: tuple[str, ...] = ()
    name = LineField(label=_("Name"), max_length=limit(Item, "name"))
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
