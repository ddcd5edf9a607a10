"""Roll panel forms: what a player chooses before a roll. The generic half: each system's
panel form (`system.roll_form`) and its form for one side of a GM's two-sided roll
(`system.side_form`) live in `mechanics/systems/<key>/forms.py` and subclass these.

They validate the choices against the character's sheet (which traits exist, which
aspects and specialties are theirs, whether a pool has points left) and hand their
cleaned data to the system's `roll_setup`, which builds the engine's spec. The client
never sends dice, totals or outcomes; any such field is ignored because no form declares it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Scene
from characters.models import Character
from mechanics.setup import Sheet


def first_choice(grouped: list) -> str | None:
    """The first key of grouped choices [(group, [(key, label), ...]), ...]."""
    return next((choices[0][0] for _group, choices in grouped if choices), None)


def int_choices(low: int, high: int) -> list[tuple[int, str]]:
    return [(n, f"{n:+d}" if n else "0") for n in range(low, high + 1)]


def target_choices(sheet: Sheet, nobody: str) -> list:
    """The characters an attack from the roll panel may aim at: the campaign's others,
    players' characters first, then NPCs, by name; `nobody` words the empty choice."""
    others = Character.objects.filter(campaign_id=sheet.character.campaign_id).exclude(
        pk=sheet.character.pk
    )
    return [("", nobody), *((c.pk, c.name) for c in others.order_by("is_npc", "name", "pk"))]


def target_field(help_text: str) -> forms.TypedChoiceField:
    """The roll panel's choice of a character to attack (its choices: `target_choices`)."""
    return forms.TypedChoiceField(
        label=_("Target"), help_text=help_text, coerce=int, empty_value=None, required=False
    )


def refuse_secret_attack(form: forms.Form, data: Mapping) -> None:
    """An attack on a character goes to the fight, which everyone sees."""
    if data.get("kind") == "attack" and data.get("target") and data.get("secret"):
        form.add_error(
            "secret", _("An attack on a character goes to the fight: it cannot be secret.")
        )


class RollForm(forms.Form):
    """Fields every system's panel has; subclasses add theirs and a `layout`."""

    # (key, label) of each kind of roll the panel offers, the first chosen by default.
    kinds: tuple[tuple[str, str], ...] = ()
    # (legend, kinds it applies to (None: all), field names)
    layout: tuple = ()
    # Fields that spend something: cleared after a roll so the next one does not spend
    # again unless the player asks (a secret roll is asked for each time too).
    spends: tuple[str, ...] = ()

    kind = forms.ChoiceField(label=_("Type of roll"), widget=forms.RadioSelect)
    label = forms.CharField(
        label=_("What is the roll for?"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Forcing the lock")}),
    )

    def __init__(
        self,
        data=None,
        *,
        sheet: Sheet,
        is_gm: bool = False,
        open_actions=None,
        drawn: bool = True,
        **kwargs,
    ):
        super().__init__(data, **kwargs)
        self.sheet = sheet
        self.is_gm = is_gm
        # Rolls in progress the next one may go on with (RollSetup.open_actions).
        self.open_actions = {} if open_actions is None else open_actions
        # False: a form bound to a whole set-up only to check it (the odds box draws none
        # of its fields), which may leave out what only drawing it needs.
        self.drawn = drawn
        self.fields["kind"].choices = list(self.kinds)
        self.fields["kind"].initial = self.kinds[0][0]
        if is_gm:
            self.fields["secret"] = forms.BooleanField(
                label=_("Secret roll (only GMs see it)"), required=False
            )
        self.setup_fields()
        for field in self.fields.values() if drawn else ():
            widget = field.widget
            if isinstance(widget, forms.RadioSelect | forms.CheckboxInput):
                css = "form-check-input"
            elif isinstance(widget, forms.Select):
                css = "form-select"
            else:
                css = "form-control"
            widget.attrs.setdefault("class", css)

    def setup_fields(self) -> None:
        pass

    def clean(self):
        data = super().clean()
        # A kind's own fields are hidden on the others (a simple roll hides an extended
        # action's target): what they still hold, even wrong, is not this roll's.
        kind = data.get("kind")
        for _legend, kinds, names in self.layout:
            if not kinds or kind in kinds:
                continue
            for name in names:
                if name in self.fields:
                    self.errors.pop(name, None)
                    data[name] = self.fields[name].to_python(None)
        return data

    def bind(self, data) -> None:
        """Bind this form to `data`, as `type(self)(data, ...)` would, without making its
        fields again (a form's fields are copied, their choices read from the sheet): for
        choices that start from the form's own defaults (`default_data`), or those kept
        after a roll that left the sheet as it was."""
        self.data = data
        self.is_bound = True
        self._errors = None
        self._bound_fields_cache = {}

    # Narrow fields (small numbers) and fields that take a whole row.
    compact: frozenset[str] = frozenset()
    wide: frozenset[str] = frozenset({"label", "secret"})
    # Rarely changed fields, folded under "More options" so the set-up fits a phone's
    # screen; the fold opens by itself when one of them is set or wrong.
    folded: frozenset[str] = frozenset()
    # Classes a system adds to some fields' cells, for its stylesheet (static/css/dice.css).
    cell_classes: Mapping[str, str] = MappingProxyType({})

    @classmethod
    def one_off_fields(cls) -> tuple[str, ...]:
        """What the panel forgets after a roll: the spends and the secret flag."""
        return (*cls.spends, "secret")

    def fieldsets(self):
        """(legend, kinds, [(bound field, column classes)]) for the template: the fields
        always in view."""
        return self._fieldsets(folded=False)

    def folded_fieldsets(self):
        """The same for the fields under "More options"."""
        return self._fieldsets(folded=True)

    @property
    def folded_open(self) -> bool:
        """Whether "More options" starts open: one of its fields is set or wrong."""
        for name in self.folded & set(self.fields):
            bound = self[name]
            if bound.errors or _shown(bound.value()) != _shown(self.fields[name].initial):
                return True
        return False

    def _fieldsets(self, *, folded: bool):
        for legend, kinds, names in self.layout:
            cells = []
            for name in names:
                if name not in self.fields or (name in self.folded) != folded:
                    continue
                bound = self[name]
                if name in self.wide or bound.widget_type in ("radioselect", "checkbox"):
                    css = "roll-cell roll-cell-wide"
                elif name in self.compact:
                    css = "roll-cell roll-cell-compact"
                else:
                    css = "roll-cell"
                if name in self.cell_classes:
                    css = f"{css} {self.cell_classes[name]}"
                cells.append((bound, css))
            if cells:
                yield legend, kinds or (), cells

    def value(self, name: str):
        return self.cleaned_data.get(name)


def _single_select(field: forms.Field) -> bool:
    return isinstance(field.widget, forms.Select) and not field.widget.allow_multiple_selected


def _shown(value) -> str:
    """A field's value as the set-up shows it: empty, zero and unticked all read as unset."""
    return "" if value in (None, "", 0, "0", False, "False") else str(value)


def default_data(form: forms.Form) -> dict:
    """What an untouched form posts: each field's initial value or first choice."""
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        choices = getattr(field, "choices", None)
        if value is None and choices:
            flat = [
                key
                for key, label in choices
                for key in ([k for k, _name in label] if isinstance(label, list | tuple) else [key])
            ]
            # A select with no empty choice shows, and a browser posts, its first one even
            # when not required: drawn with none marked selected, the open page would take
            # it for a choice the user changed and hold back its live reload (live.js).
            shows_first = _single_select(field) and "" not in flat
            if field.required or shows_first:
                value = next((key for key in flat if key not in ("", None)), None)
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else str(value)
    return data


# --- The GM's two-sided rolls ---------------------------------------------------------------


class SideForm(forms.Form):
    """One side of an opposed or teamwork roll: a character and what it rolls. Each system
    with such rolls adds its fields in `setup_fields` (its `system.side_form`)."""

    character = forms.TypedChoiceField(label=_("Character"), coerce=int, required=False)
    # Fields that spend a pool: cleared after a roll, as on the roll panel.
    spends: tuple[str, ...] = ()

    def __init__(self, data=None, *, characters, traits, required=True, **kw):
        super().__init__(data, **kw)
        self.required = required
        self.fields["character"].choices = [("", "—")] + [(c.pk, c.name) for c in characters]
        self.fields["character"].required = required
        attributes, skills = traits
        self.setup_fields(attributes, skills)
        for field in self.fields.values():
            css = "form-select" if isinstance(field.widget, forms.Select) else "form-control"
            field.widget.attrs.setdefault("class", css)

    def setup_fields(self, attributes: list, skills: list) -> None:
        """Add what a side rolls, from the campaign's grouped attribute and skill choices."""

    def clean_side(self, data: dict) -> None:
        """Check a side whose character is chosen (add errors to the form)."""

    def clean(self):
        data = super().clean()
        if not data.get("character"):
            return data
        self.clean_side(data)
        data["kind"] = "side"
        return data

    @property
    def used(self) -> bool:
        return bool(self.is_valid() and self.cleaned_data.get("character"))


class TwoSidedForm(forms.Form):
    """The GM panel's common fields: which roll, a label, secret."""

    kind = forms.ChoiceField(label=_("Type of roll"), widget=forms.RadioSelect)
    label = forms.CharField(label=_("What is the roll for?"), max_length=200, required=False)
    secret = forms.BooleanField(label=_("Secret roll (only GMs see it)"), required=False)

    def __init__(self, data=None, *, kinds, **kwargs):
        super().__init__(data, **kwargs)
        labels = {"opposed": _("Opposed roll"), "teamwork": _("Teamwork")}
        self.fields["kind"].choices = [(kind, labels[kind]) for kind in kinds]
        self.fields["kind"].initial = kinds[0]
        self.fields["label"].widget.attrs["class"] = "form-control"
        self.fields["secret"].widget.attrs["class"] = "form-check-input"


# --- Which scene a roll goes to -------------------------------------------------------------

NO_SCENE = "none"


class RollSceneForm(forms.Form):
    """The open scene a character's roll goes to, beside the system's panel form. Left out
    (an older page, a script) it is the default; a scene that is not open in the campaign
    is refused, saying why."""

    scene = forms.CharField(label=_("Scene of the roll"), required=False, widget=forms.Select)

    def __init__(self, data=None, *, campaign, scenes, default, **kwargs):
        super().__init__(data, **kwargs)
        self.campaign = campaign
        self.scenes = {str(scene.pk): scene for scene in scenes}
        self.default = default
        field = self.fields["scene"]
        field.widget.choices = [(key, scene.title) for key, scene in self.scenes.items()] + [
            (NO_SCENE, _("No scene: the roll log only"))
        ]
        field.initial = str(default.pk) if default is not None else NO_SCENE
        field.widget.attrs["class"] = "form-select"

    def clean_scene(self):
        value = self.cleaned_data["scene"]
        if not value:
            return self.default
        if value == NO_SCENE:
            return None
        if value in self.scenes:
            return self.scenes[value]
        # Not open here: closed, or not a scene of this campaign (a short number: a bigint).
        closed = (
            value.isdigit()
            and len(value) <= 18
            and Scene.objects.filter(campaign=self.campaign, pk=int(value)).exists()
        )
        if closed:
            raise forms.ValidationError(
                _("That scene is closed: choose an open scene."), code="scene_closed"
            )
        raise forms.ValidationError(
            _("That scene is not one of this campaign's."), code="scene_elsewhere"
        )

    @property
    def chosen(self):
        """The scene the roll goes to (the default until the form is valid)."""
        if self.is_bound and self.is_valid():
            return self.cleaned_data["scene"]
        return self.default
