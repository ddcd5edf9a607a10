"""The Hitos roll panel: a characteristic and a skill against a difficulty, with aspects
that keep the highest or the lowest die, and attacks with a weapon category."""

from __future__ import annotations

from types import MappingProxyType

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import Character
from mechanics.forms.roll import (
    RollForm,
    first_choice,
    int_choices,
    refuse_secret_attack,
    target_choices,
    target_field,
)
from mechanics.rules.hitos.catalogue import DAMAGE_CATEGORIES
from mechanics.systems.hitos.combat_forms import TARGET_STATE_LABELS, fight_aspect_choices
from mechanics.systems.hitos.rolls import (
    DRAMA_POINTS_POOL,
    OTHER_PREFIX,
    SITUATION_PREFIX,
    others_aspects,
    situation_aspects,
)


def aspect_choices(usable, others, situation) -> list:
    """The aspects a character may activate, grouped by whose they are."""
    choices: list = [("", _("None"))]
    if usable:
        choices.append((_("Your aspects"), [(str(a.pk), a.text) for a in usable]))
    if others:
        choices.append((_("Against another character (their drama point)"), others))
    if situation:
        choices.append((_("Of the situation (the drama point is spent)"), situation))
    return choices


class HitosRollForm(RollForm):
    kinds = (("check", _("Simple roll")), ("attack", _("Attack")))
    layout = (
        (_("What you roll"), None, ["characteristic", "skill", "difficulty", "modifier"]),
        (
            _("Aspects"),
            None,
            [
                "aspect",
                "aspect_use",
                "pay",
                "hinderer",
                "hinder_aspect",
                "hinder_use",
                "hinder_pay",
            ],
        ),
        (
            _("Weapon and target"),
            ("attack",),
            ["target", "target_state", "weapon", "weapon_constant", "attack_range", "target_rd"],
        ),
        (None, None, ["label", "secret"]),
    )
    spends = ("aspect", "hinder_aspect")
    compact = frozenset({"modifier"})
    # The target's names and what choosing one does read across the row.
    wide = RollForm.wide | {"target"}
    # An attack rolls Reflejos + Combate whatever they say (`rolled_traits`): hidden then.
    cell_classes = MappingProxyType(
        {"characteristic": "for-kind k-check", "skill": "for-kind k-check"}
    )

    characteristic = forms.ChoiceField(label=_("Characteristic"))
    skill = forms.ChoiceField(label=_("Skill"), required=False)
    difficulty = forms.IntegerField(
        label=_("Difficulty or Defensa"),
        help_text=_("Fácil 10 · Media 15 · Difícil 20 · Muy difícil 25 · Extrema 30"),
        min_value=-20,
        max_value=60,
        initial=15,
    )
    modifier = forms.TypedChoiceField(label=_("Modifier"), coerce=int, initial=0, required=False)
    aspect = forms.ChoiceField(label=_("Activate an aspect (keep the highest die)"), required=False)
    aspect_use = forms.ChoiceField(
        label=_("What for"),
        choices=[
            ("roll", _("to improve the roll (keep M)")),
            ("damage", _("to raise the damage one category (attacks)")),
        ],
        initial="roll",
        required=False,
    )
    pay = forms.ChoiceField(
        label=_("Pay with"),
        choices=[("drama_point", _("A drama point")), ("exhaust", _("Exhausting the aspect"))],
        initial="drama_point",
        required=False,
        widget=forms.RadioSelect,
    )
    weapon = forms.ChoiceField(
        label=_("Weapon category"),
        choices=[(c.key, f"{c.name} ({c.label})") for c in DAMAGE_CATEGORIES],
        initial="central",
        required=False,
    )
    weapon_constant = forms.IntegerField(
        label=_("Weapon bonus"), min_value=-20, max_value=20, initial=0, required=False
    )
    attack_range = forms.ChoiceField(
        label=_("Kind of attack"),
        choices=[("melee", _("Melee")), ("ranged", _("Ranged"))],
        initial="melee",
        required=False,
    )
    target = target_field(
        _(
            "Its Defensa is the difficulty and its armour the RD; a hit's damage waits for "
            "the GM in the scene's fight."
        )
    )
    target_state = forms.ChoiceField(
        label=_("How the target faces it"),
        choices=list(TARGET_STATE_LABELS.items()),
        initial="normal",
        required=False,
    )
    target_rd = forms.IntegerField(
        label=_("Target's RD (highest armour), without a target"),
        min_value=0,
        max_value=50,
        initial=0,
        required=False,
    )

    def setup_fields(self) -> None:
        sheet = self.sheet
        characteristics = sheet.trait_choices("characteristic")
        self.fields["characteristic"].choices = characteristics
        skills = sheet.trait_choices("skill")
        self.fields["skill"].choices = [("", _("No skill")), *skills]
        self.fields["skill"].initial = first_choice(skills)
        self.fields["modifier"].choices = int_choices(-10, 10)
        self.fields["target"].choices = target_choices(
            sheet, _("Nobody: the difficulty and the RD typed")
        )
        usable = [a for a in sheet.aspects if not a.exhausted]
        # Another character's aspect, used against them, hands them the drama point paid.
        others = [
            (f"{OTHER_PREFIX}{a.pk}", f"{a.character.name}: {a.text}")
            for a in others_aspects(sheet)
        ]
        # The open scenes' situation aspects: the drama point paid goes to no one.
        situation = [
            (f"{SITUATION_PREFIX}{a.pk}", f"{a.scene.title}: {a.text}")
            for a in situation_aspects(sheet.character.campaign_id)
        ]
        self.fields["aspect"].choices = aspect_choices(usable, others, situation)
        if len(usable) < len(sheet.aspects):
            self.fields["aspect"].help_text = _("Exhausted aspects cannot be activated.")
        # The panel's heading shows the pool; the choice only says when it cannot be paid.
        if sheet.pool_current(DRAMA_POINTS_POOL) < 1:
            self.fields["pay"].help_text = _("No drama points left: exhaust the aspect.")
        if not sheet.aspects and not others and not situation:
            del self.fields["aspect"]
            del self.fields["pay"]
            del self.fields["aspect_use"]
        if self.is_gm:
            self._hinder_fields()

    def _hinder_fields(self) -> None:
        """An opponent's aspect against this roll (keep the lowest die), paid by the
        opponent: the GM names who activates it and which aspect
        (docs/rules.md#hitos-hindering)."""
        character = self.sheet.character
        opponents = Character.objects.filter(campaign_id=character.campaign_id).exclude(
            pk=character.pk
        )
        self.fields["hinderer"] = forms.TypedChoiceField(
            label=_("An opponent activates an aspect against this roll (keep the lowest die)"),
            choices=[("", _("Nobody")), *((c.pk, c.name) for c in opponents.order_by("name"))],
            coerce=int,
            empty_value=None,
            required=False,
        )
        self.fields["hinder_aspect"] = forms.ChoiceField(
            label=_("The opponent's aspect"),
            choices=fight_aspect_choices(self.sheet),
            required=False,
        )
        self.fields["hinder_use"] = forms.ChoiceField(
            label=_("What for"),
            choices=[
                ("roll", _("to hinder the roll (keep m)")),
                ("damage", _("to lower the damage one category (attacks)")),
            ],
            initial="roll",
            required=False,
        )
        self.fields["hinder_pay"] = forms.ChoiceField(
            label=_("The opponent pays with"),
            choices=[("drama_point", _("A drama point")), ("exhaust", _("Exhausting the aspect"))],
            initial="drama_point",
            required=False,
        )

    def clean(self):
        data = super().clean()
        if data.get("aspect") and data.get("pay") in ("drama_point", "", None):
            data["pay"] = "drama_point"
            if self.sheet.pool_current(DRAMA_POINTS_POOL) < 1:
                self.add_error("pay", _("No drama points left."))
        if data.get("aspect_use") == "damage" and data.get("kind") != "attack":
            self.add_error("aspect_use", _("Only an attack has damage to raise or lower."))
        if bool(data.get("hinderer")) != bool(data.get("hinder_aspect")):
            self.add_error(
                "hinder_aspect", _("Name both the opponent and the aspect they activate.")
            )
        if data.get("kind") == "attack" and not data.get("weapon"):
            self.add_error("weapon", _("Choose the weapon's category."))
        refuse_secret_attack(self, data)
        return data
