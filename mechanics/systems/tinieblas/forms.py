"""The Mundo de Tinieblas roll panel: a dice pool from an attribute and a skill, with its
modifiers, Willpower and extended actions; and one side of an opposed or teamwork roll."""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType

from django import forms
from django.utils.translation import gettext_lazy as _

from mechanics.forms.roll import RollForm, SideForm, first_choice, int_choices
from mechanics.rules.tinieblas.catalogue import RESISTANCE_ATTRIBUTES
from mechanics.systems.tinieblas.rolls import (
    POOL_ROLES,
    WILLPOWER_POOL,
    action_pool,
    continued_action,
    finished_action_message,
)

AGAIN_CHOICES = [
    ("10", _("10-again")),
    ("9", _("9-again")),
    ("8", _("8-again")),
    ("none", _("No again")),
]
MODIFIERS = int_choices(-5, 5)
WILLPOWER_CHOICES = [
    ("", _("Don't spend")),
    ("dice", _("+3 dice")),
    ("resistance", _("+2 to a resistance attribute")),
]


class TinieblasRollForm(RollForm):
    kinds = (("pool", _("Simple roll")), ("extended", _("Extended action")))
    layout = (
        # The fields' own labels say what makes the pool.
        (None, None, ["attribute", "skill", "specialty"]),
        (
            _("Modifiers"),
            None,
            ["modifier_1", "modifier_2", "modifier_3"],
        ),
        (None, None, ["extra_dice", "attempts"]),
        # The panel's head shows the Willpower pool; the field's label says what it spends.
        (None, None, ["willpower"]),
        (_("Dice"), None, ["again", "rote"]),
        (_("Extended action"), ("extended",), ["action", "target", "max_rolls"]),
        (None, None, ["label", "secret"]),
    )
    spends = ("willpower",)
    compact = frozenset({"modifier_1", "modifier_2", "modifier_3"})
    folded = frozenset({"extra_dice", "attempts", "again", "rote", "label"})
    # What an extended action in progress sets itself (its first roll's pool, its target):
    # hidden while one is chosen.
    cell_classes = MappingProxyType(
        dict.fromkeys((*POOL_ROLES, "target", "max_rolls"), "roll-cell-new-action")
    )

    attribute = forms.ChoiceField(label=_("Attribute"))
    skill = forms.ChoiceField(label=_("Skill"), required=False)
    specialty = forms.ChoiceField(label=_("Specialty (+1 die)"), required=False)
    modifier_1 = forms.TypedChoiceField(
        label=_("Modifier 1"), choices=MODIFIERS, coerce=int, initial=0, required=False
    )
    modifier_2 = forms.TypedChoiceField(
        label=_("Modifier 2"), choices=MODIFIERS, coerce=int, initial=0, required=False
    )
    modifier_3 = forms.TypedChoiceField(
        label=_("Modifier 3"), choices=MODIFIERS, coerce=int, initial=0, required=False
    )
    extra_dice = forms.IntegerField(
        label=_("Other dice"),
        help_text=_("Weapon bonus, minus the target's Defensa…"),
        min_value=-30,
        max_value=30,
        initial=0,
        required=False,
    )
    attempts = forms.IntegerField(
        label=_("Earlier failed attempts"),
        help_text=_("−1 die for each earlier attempt at the same action."),
        min_value=0,
        max_value=30,
        initial=0,
        required=False,
    )
    willpower = forms.ChoiceField(
        label=_("Spend 1 Willpower point"),
        choices=WILLPOWER_CHOICES,
        required=False,
        widget=forms.RadioSelect,
    )
    again = forms.ChoiceField(label=_("Again"), choices=AGAIN_CHOICES, initial="10")
    rote = forms.BooleanField(
        label=_("Rote action (failed dice are rolled once more)"), required=False
    )
    action = forms.ChoiceField(label=_("Action"), required=False)
    target = forms.IntegerField(
        label=_("Successes needed"), min_value=1, max_value=1000, required=False
    )
    max_rolls = forms.IntegerField(
        label=_("Maximum number of rolls"),
        help_text=_("Leave empty for no limit."),
        min_value=1,
        max_value=1000,
        required=False,
    )

    def setup_fields(self) -> None:
        sheet = self.sheet
        attributes = sheet.trait_choices("attribute")
        self.fields["attribute"].choices = attributes
        self.fields["attribute"].initial = first_choice(attributes)
        self.fields["skill"].choices = [("", _("No skill")), *sheet.trait_choices("skill")]
        # The specialties are read for a form drawn or one that names a specialty: without
        # one, a set-up is checked alike with the field or without it (the odds box).
        if self.drawn or self.data.get("specialty"):
            self.fields["specialty"].choices = [("", _("None"))] + [
                (str(s.pk), f"{sheet.name(s.skill_key)}: {s.name}") for s in sheet.specialties
            ]
            if not sheet.specialties:
                del self.fields["specialty"]
        # Listed when drawn or checked: an empty choice (a new action) reads no roll.
        self.fields["action"].choices = self.action_choices
        if sheet.pool_current(WILLPOWER_POOL) < 1:
            # Drawn greyed out, but still checked when sent (a page older than the spend).
            willpower = self.fields["willpower"]
            willpower.widget.attrs["disabled"] = True
            willpower.help_text = _("No Willpower points left.")

    def action_choices(self) -> list[tuple[str, str]]:
        names = Counter(roll.label for roll in self.open_actions.values())
        choices = [("", _("New extended action"))]
        for group, roll in self.open_actions.items():
            details = roll.record["details"]
            text = "%s (%s/%s)" % (
                roll.label or _("Extended action"),
                details["progress"],
                details["target"],
            )
            if names[roll.label] > 1 and roll.scene is not None:
                # Actions of one name (a lock in each scene) told apart by their scene.
                text = f"{text} · {roll.scene.title}"
            choices.append((group, text))
        return choices

    def clean_again(self):
        value = self.cleaned_data["again"]
        return None if value == "none" else int(value)

    def clean(self):
        data = super().clean()
        data["modifiers"] = tuple(
            data.get(name) or 0 for name in ("modifier_1", "modifier_2", "modifier_3")
        )
        willpower = data.get("willpower")
        if willpower and self.sheet.pool_current(WILLPOWER_POOL) < 1:
            self.add_error("willpower", _("No Willpower points left."))
        attribute = data.get("attribute")
        if (last := continued_action(data, self.open_actions)) is not None:
            attribute = action_pool(self.sheet, last.record)["attribute"]  # what it throws
        if willpower == "resistance" and attribute not in RESISTANCE_ATTRIBUTES:
            self.add_error(
                "willpower",
                _("Willpower adds +2 only to Aplomo, Resistencia or Compostura."),
            )
        if "specialty" not in self.fields and self.data.get("specialty"):
            self.add_error(None, _("That specialty does not belong to the chosen skill."))
        if data.get("specialty"):
            specialty = next(
                (s for s in self.sheet.specialties if str(s.pk) == data["specialty"]), None
            )
            if specialty is None or specialty.skill_key != data.get("skill"):
                self.add_error(
                    "specialty", _("That specialty does not belong to the chosen skill.")
                )
        if "action" in self.errors:
            # A finished action (a stale page, a forged request): say why it is over.
            why = finished_action_message(self.sheet.character, self.data.get("action", ""))
            if why:
                self.errors["action"] = self.error_class([why])
        return data


class TinieblasSideForm(SideForm):
    spends = ("willpower",)

    def setup_fields(self, attributes: list, skills: list) -> None:
        self.fields["attribute"] = forms.ChoiceField(
            label=_("Attribute"), choices=attributes, required=False
        )
        self.fields["skill"] = forms.ChoiceField(
            label=_("Skill"), choices=[("", _("No skill")), *skills], required=False
        )
        self.fields["extra_dice"] = forms.IntegerField(
            label=_("Modifier (dice)"), min_value=-30, max_value=30, initial=0, required=False
        )
        # Each side spends from its own pool (docs/rules.md#tinieblas-willpower).
        self.fields["willpower"] = forms.ChoiceField(
            label=_("Spend 1 Willpower point"),
            choices=WILLPOWER_CHOICES,
            required=False,
        )

    def clean_side(self, data: dict) -> None:
        if not data.get("attribute"):
            self.add_error("attribute", _("Choose an attribute."))
        elif data.get("willpower") == "resistance" and data["attribute"] not in (
            RESISTANCE_ATTRIBUTES
        ):
            self.add_error(
                "willpower",
                _("Willpower adds +2 only to Aplomo, Resistencia or Compostura."),
            )
