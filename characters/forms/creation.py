"""Character creation forms.

`CreationBaseForm` holds what every sheet starts with (name, concept, description, the
owner) and the protocol the creation view uses; a system with its own creation rules
declares a subclass (`GameSystem.creation_form`). `TraitsCreationForm` serves the
systems without one: the adapter's traits as numbers within their ranges.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from campaigns.models import Role
from campaigns.texts import LineField, LongTextarea
from characters.models import Character


def _owner_field(campaign) -> forms.ModelChoiceField:
    users = (
        get_user_model()
        .objects.filter(
            memberships__campaign=campaign, memberships__role__in=[Role.GM, Role.PLAYER]
        )
        .order_by("username")
    )
    return forms.ModelChoiceField(
        label=_("Owner"),
        queryset=users,
        required=False,
        empty_label=_("Nobody: an NPC run by the GMs"),
        help_text=_("The member who plays this character."),
    )


class CreationBaseForm(forms.Form):
    """Name, concept and description; GMs also choose the owner (none for an NPC).

    Players have no owner field at all: their characters are always theirs, so a
    forged `owner` in the POST is simply not read.
    """

    # The system's part of the form (a template fragment).
    template = "characters/partials/create_traits.html"
    # The points panel beside the form, refreshed as the user types (its `#points_update`
    # partial) and on "Check points"; None: the form has no budgets to count.
    points_template: str | None = None

    name = LineField(label=_("Name"), max_length=limit(Character, "name"))
    concept = LineField(
        label=_("Concept"),
        max_length=limit(Character, "concept"),
        required=False,
        help_text=_("A few words: who this character is."),
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=limit(Character, "description"),
        widget=LongTextarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, campaign, access, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.access = access
        self.system = campaign.game_system
        if access.is_gm:
            self.fields["owner"] = _owner_field(campaign)
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def owner_for(self, user):
        """The owner of the new sheet: the GM's choice, or the player themself."""
        if self.access.is_gm:
            return self.cleaned_data.get("owner")
        return user

    def value(self, name: str) -> str:
        """What the user entered in an input (or its initial value), as text."""
        if self.is_bound:
            return self.data.get(self.add_prefix(name), "")
        field = self.fields.get(name)
        initial = self.initial.get(name, field.initial if field else None)
        return "" if initial is None else str(initial)

    def int_value(self, name: str, default: int | None) -> int | None:
        try:
            return int(self.value(name))
        except (TypeError, ValueError):
            return default

    def blocking_problems(self) -> list[tuple[str, str]]:
        """Why the system's creation rules refuse the sheet: (message, id of the part of
        the form it points to), after `is_valid()`."""
        return []

    def approves_over_budget(self) -> bool:
        """A GM saves a sheet that breaks the creation budgets."""
        return False

    def display_context(self) -> dict:
        """What `template` and `points_template` show besides the form."""
        return {}

    def service_kwargs(self) -> dict:
        """The validated sheet in the shape `character_create` takes."""
        raise NotImplementedError


class TraitsCreationForm(CreationBaseForm):
    """Ratings as numbers within the adapter's ranges. A system adds its own fields in a
    subclass (`extra_template` shows them; `details` and `aspects` read them)."""

    # The subclass's fields, shown after the traits.
    extra_template: str | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.groups: list[tuple[str, list[str]]] = []
        for label, specs in self.system.trait_groups(self.campaign):
            names = []
            for spec in specs:
                name = f"trait_{spec.key}"
                self.fields[name] = forms.IntegerField(
                    label=spec.name,
                    min_value=spec.minimum,
                    max_value=spec.maximum,
                    initial=spec.minimum,
                    # Left empty: the trait stays at its minimum.
                    required=False,
                    help_text=f"{spec.minimum}–{spec.maximum}",
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
                names.append(name)
            self.groups.append((label, names))

    def trait_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(label, [self[name] for name in names]) for label, names in self.groups]

    def details(self) -> dict:
        """The values the sheet keeps in `details`."""
        return {}

    def aspects(self) -> list[tuple[str, str]]:
        """(kind, text) of the aspects the sheet starts with."""
        return []

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        ratings = {
            name.removeprefix("trait_"): data[name]
            for _label, names in self.groups
            for name in names
            if data[name] is not None
        }
        return {"ratings": ratings, "details": self.details(), "aspects": self.aspects()}
