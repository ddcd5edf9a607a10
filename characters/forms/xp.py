"""Forms for the XP pages: the per-scene award panel, purchases, adjustments, log filters.

They validate what the browser sends; the services re-check everything and the
engine prices everything. The per-scene rubric is the campaign's choice whatever its
system (`Campaign.scene_rubric`); its scales are a system's (`GameSystem.scene_rubric`).
"""

from __future__ import annotations

from django import forms
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from campaigns.forms.menus import option_tags
from characters.advancement import PurchaseSpec
from characters.models import XpEntry, XpPurchase
from mechanics.systems.base import SceneAward, SceneRubric

PLAIN_AWARD_MAX = 50


class SceneAwardForm(forms.Form):
    """One character's row in the award panel (prefixed with the character's id)."""

    include = forms.BooleanField(
        label=_("Award XP"),
        required=False,
        widget=forms.CheckboxInput(attrs={"class": "form-check-input", "role": "switch"}),
    )
    willpower = forms.BooleanField(
        label=_("+1 Fuerza de Voluntad (acted by Virtue or Vice)"),
        required=False,
        widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
    )

    def __init__(
        self,
        *args,
        character,
        rubric: SceneRubric | None,
        willpower: bool,
        granted: bool,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.character = character
        self.rubric = rubric
        if rubric is not None:
            self.fields.update(rubric.fields())
        else:
            self.fields["amount"] = forms.IntegerField(
                label=_("XP"), min_value=0, max_value=PLAIN_AWARD_MAX, required=False
            )
        if not willpower:
            del self.fields["willpower"]
        elif granted:
            # Granted once per scene; the box stays ticked to show it.
            self.fields["willpower"].disabled = True

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("include"):
            return cleaned
        if self.rubric is not None:
            for name in self.rubric.graded:
                if cleaned.get(name) in (None, ""):
                    self.add_error(name, _("Choose a level."))
        elif cleaned.get("amount") is None:
            self.add_error("amount", _("Write the XP."))
        return cleaned

    def award(self) -> SceneAward | int:
        """What the service records for this row (0 when the row is not awarded)."""
        data = self.cleaned_data
        if not data.get("include"):
            return 0
        if self.rubric is None:
            return data["amount"]
        return self.rubric.award(data)

    def wants_willpower(self) -> bool:
        field = self.fields.get("willpower")
        return bool(field and not field.disabled and self.cleaned_data.get("willpower"))


class PurchaseForm(forms.Form):
    """What the purchase forms send: kind, key and name, and the price the player saw.

    The trait form sends a trait key (its kind follows from the sheet); the merit form
    sends "key|name" from its list, or "custom" with a name.
    """

    kind = forms.ChoiceField(choices=[*XpPurchase.Kind.choices, ("trait", "trait")])
    key = forms.CharField(max_length=60, required=False)
    merit = forms.CharField(max_length=150, required=False)
    name = forms.CharField(max_length=80, required=False, strip=True)
    expected_cost = forms.IntegerField(min_value=0, max_value=1000, required=False)

    def spec(self, trait_kind) -> PurchaseSpec | None:
        """The purchase asked for, or None when the form names none.

        `trait_kind(key)` gives the kind that raises a trait (the adapter's trait_kind).
        """
        data = self.cleaned_data
        kind, key, name = data["kind"], data.get("key", ""), data.get("name", "")
        if kind == "trait":
            kind = trait_kind(key) if key else None
            return PurchaseSpec(kind=kind, key=key) if kind else None
        if kind == XpPurchase.Kind.MERIT:
            choice = data.get("merit", "")
            if choice == "custom":
                return PurchaseSpec(kind=kind, key="", name=name)
            if "|" not in choice:
                return None
            merit_key, _sep, held_name = choice.partition("|")
            if held_name:
                return PurchaseSpec(kind=kind, key=merit_key, name=held_name)
            return PurchaseSpec(kind=kind, key=merit_key, detail=name)
        return PurchaseSpec(kind=kind, key=key, name=name)


class DecisionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("approve", "approve"), ("reject", "reject"), ("cancel", "cancel")]
    )
    note = forms.CharField(label=_("Reason"), max_length=200, required=False)
    back = forms.ChoiceField(choices=[("sheet", "sheet"), ("log", "log")], required=False)


class XpAdjustForm(forms.Form):
    amount = forms.IntegerField(
        label=_("XP"),
        min_value=-100,
        max_value=100,
        help_text=_("Negative to take XP back."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("Give or take at least 1 XP."))
        return amount


class XpLogFilterForm(forms.Form):
    character = forms.TypedChoiceField(label=_("Character"), coerce=int, required=False)
    scene = forms.TypedChoiceField(label=_("Scene"), coerce=int, required=False)
    kind = forms.ChoiceField(label=_("Kind"), required=False)
    measure = forms.ChoiceField(
        label=_("Chart"),
        choices=[("balance", _("XP balance")), ("earned", _("XP earned"))],
        required=False,
    )

    def __init__(self, *args, characters, scenes, **kwargs):
        super().__init__(*args, **kwargs)
        everyone = [("", _("All"))]
        self.fields["character"].choices = everyone + [(c.pk, c.name) for c in characters]
        # (pk, title) pairs: a long campaign's scenes are not loaded as models for a menu.
        self.fields["scene"].choices = everyone + list(scenes)
        self.fields["kind"].choices = everyone + list(XpEntry.Kind.choices)

    def menus(self) -> list[tuple[forms.BoundField, SafeString]]:
        """Each filter with its <option>s."""
        return [(field, option_tags(field)) for field in self]

    def filters(self) -> dict:
        """The valid filters only: a bad value is ignored rather than an error page."""
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value not in (None, "")}
