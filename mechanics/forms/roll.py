"""Roll panel forms: what a player chooses before a roll, per system.

They validate the choices against the character's sheet (which traits exist, which
aspects and specialties are theirs, whether a pool has points left) and hand their
cleaned data to `mechanics.setup`, which builds the engine's spec. The client never
sends dice, totals or outcomes; any such field is ignored because no form declares it.
"""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from mechanics.rules.hitos.catalogue import DAMAGE_CATEGORIES
from mechanics.rules.ndp.catalogue import DAMAGE_TYPES
from mechanics.rules.objetivo.catalogue import WEAPONS
from mechanics.rules.tinieblas.catalogue import RESISTANCE_ATTRIBUTES
from mechanics.setup import (
    CUSTOM_WEAPON,
    HITOS_DRAMA_POINTS,
    OBJETIVO_DESTINY,
    TINIEBLAS_WILLPOWER,
    Sheet,
    specialization_used,
)

KIND_LABELS = {
    "pool": _("Simple roll"),
    "extended": _("Extended action"),
    "check": _("Simple roll"),
    "attack": _("Attack"),
    "skill": _("Skill roll"),
    "attribute": _("Attribute roll"),
}

DAMAGE_RE = re.compile(r"^\s*(?:(\d{1,2})\s*[dD]\s*(\d{1,3}))?\s*(?:([+-]?)\s*(\d{1,3}))?\s*$")


def parse_damage(text: str) -> tuple[int, int, int]:
    """ "2d6+1" → (2, 6, 1); "1d8" → (1, 8, 0); "3" → (0, 0, 3). Raises ValidationError."""
    match = DAMAGE_RE.match(text or "")
    if not match or not (match.group(2) or match.group(4)):
        raise forms.ValidationError(
            _("Write the damage as dice and a bonus, like 1d8, 2d6+1 or 3."), code="damage"
        )
    count = int(match.group(1) or 0)
    sides = int(match.group(2) or 0)
    fixed = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    if sides and count < 1:
        raise forms.ValidationError(_("Roll at least one damage die."), code="damage")
    return count, sides, fixed


def _first(grouped: list) -> str | None:
    """The first key of grouped choices [(group, [(key, label), ...]), ...]."""
    return next((choices[0][0] for _group, choices in grouped if choices), None)


def _int_choices(low: int, high: int) -> list[tuple[int, str]]:
    return [(n, f"{n:+d}" if n else "0") for n in range(low, high + 1)]


class RollForm(forms.Form):
    """Fields every system's panel has; subclasses add theirs and a `layout`."""

    kinds: tuple[str, ...] = ()
    # (legend, kinds it applies to (None: all), field names)
    layout: tuple = ()

    kind = forms.ChoiceField(label=_("Type of roll"), widget=forms.RadioSelect)
    label = forms.CharField(
        label=_("What is the roll for?"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Forcing the lock")}),
    )

    def __init__(self, data=None, *, sheet: Sheet, is_gm: bool = False, **kwargs):
        super().__init__(data, **kwargs)
        self.sheet = sheet
        self.is_gm = is_gm
        self.fields["kind"].choices = [(kind, KIND_LABELS[kind]) for kind in self.kinds]
        self.fields["kind"].initial = self.kinds[0]
        if is_gm:
            self.fields["secret"] = forms.BooleanField(
                label=_("Secret roll (only GMs see it)"), required=False
            )
        self.setup_fields()
        for field in self.fields.values():
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

    # Narrow fields (small numbers) and fields that take a whole row.
    compact: frozenset[str] = frozenset(
        {"modifier_1", "modifier_2", "modifier_3", "gracias", "desgracias", "modifier"}
    )
    wide: frozenset[str] = frozenset({"label", "secret"})
    # Fields whose legend already says what they are: their labels are for screen readers.
    quiet_labels: frozenset[str] = frozenset({"modifier_1", "modifier_2", "modifier_3"})

    def fieldsets(self):
        """(legend, kinds, [(bound field, column classes)]) for the template."""
        for legend, kinds, names in self.layout:
            cells = []
            for name in names:
                if name not in self.fields:
                    continue
                bound = self[name]
                if name in self.wide or bound.widget_type in ("radioselect", "checkbox"):
                    css = "roll-cell roll-cell-wide"
                elif name in self.compact:
                    css = "roll-cell roll-cell-compact"
                else:
                    css = "roll-cell"
                if name in self.quiet_labels:
                    css += " roll-cell-quiet"
                cells.append((bound, css))
            if cells:
                yield legend, kinds or (), cells

    def value(self, name: str):
        return self.cleaned_data.get(name)


# --- Mundo de Tinieblas ---------------------------------------------------------------------

AGAIN_CHOICES = [
    ("10", _("10-again")),
    ("9", _("9-again")),
    ("8", _("8-again")),
    ("none", _("No again")),
]


class TinieblasRollForm(RollForm):
    kinds = ("pool", "extended")
    layout = (
        (_("Pool"), None, ["attribute", "skill", "specialty"]),
        (
            _("Modifiers"),
            None,
            ["modifier_1", "modifier_2", "modifier_3"],
        ),
        (None, None, ["extra_dice", "attempts"]),
        (_("Willpower"), None, ["willpower"]),
        (_("Dice"), None, ["again", "rote"]),
        (_("Extended action"), ("extended",), ["action", "target", "max_rolls"]),
        (None, None, ["label", "secret"]),
    )

    attribute = forms.ChoiceField(label=_("Attribute"))
    skill = forms.ChoiceField(label=_("Skill"), required=False)
    specialty = forms.ChoiceField(label=_("Specialty (+1 die)"), required=False)
    modifier_1 = forms.TypedChoiceField(
        label=_("First modifier"), coerce=int, initial=0, required=False
    )
    modifier_2 = forms.TypedChoiceField(
        label=_("Second modifier"), coerce=int, initial=0, required=False
    )
    modifier_3 = forms.TypedChoiceField(
        label=_("Third modifier"), coerce=int, initial=0, required=False
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
        choices=[
            ("", _("Don't spend")),
            ("dice", _("+3 dice")),
            ("resistance", _("+2 to a resistance attribute")),
        ],
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

    def __init__(self, *args, open_actions=None, **kwargs):
        self.open_actions = open_actions or {}
        super().__init__(*args, **kwargs)

    def setup_fields(self) -> None:
        sheet = self.sheet
        attributes = sheet.trait_choices("attribute")
        self.fields["attribute"].choices = attributes
        self.fields["attribute"].initial = _first(attributes)
        self.fields["skill"].choices = [("", _("No skill")), *sheet.trait_choices("skill")]
        self.fields["specialty"].choices = [("", _("None"))] + [
            (str(s.pk), f"{sheet.name(s.skill_key)}: {s.name}") for s in sheet.specialties
        ]
        if not sheet.specialties:
            del self.fields["specialty"]
        for name in ("modifier_1", "modifier_2", "modifier_3"):
            self.fields[name].choices = _int_choices(-5, 5)
        pool = sheet.pool(TINIEBLAS_WILLPOWER)
        if pool is not None:
            self.fields["willpower"].help_text = _("Pool: %(current)s of %(maximum)s") % {
                "current": pool.current,
                "maximum": pool.maximum,
            }
        self.fields["action"].choices = [("", _("New extended action"))] + [
            (
                group,
                "%s (%s/%s)"
                % (
                    roll.label or _("Extended action"),
                    roll.record["details"]["progress"],
                    roll.record["details"]["target"],
                ),
            )
            for group, roll in self.open_actions.items()
        ]

    def clean_again(self):
        value = self.cleaned_data["again"]
        return None if value == "none" else int(value)

    def clean(self):
        data = super().clean()
        data["modifiers"] = tuple(
            data.get(name) or 0 for name in ("modifier_1", "modifier_2", "modifier_3")
        )
        willpower = data.get("willpower")
        if willpower and self.sheet.pool_current(TINIEBLAS_WILLPOWER) < 1:
            self.add_error("willpower", _("No Willpower points left."))
        if willpower == "resistance" and data.get("attribute") not in RESISTANCE_ATTRIBUTES:
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
        if data.get("kind") == "extended" and not data.get("action") and not data.get("target"):
            self.add_error("target", _("Say how many successes the extended action needs."))
        return data


# --- Hitos ----------------------------------------------------------------------------------


class HitosRollForm(RollForm):
    kinds = ("check", "attack")
    layout = (
        (_("What you roll"), None, ["characteristic", "skill", "difficulty", "modifier"]),
        (_("Aspects"), None, ["aspect", "pay", "hinder"]),
        (
            _("Weapon and target"),
            ("attack",),
            ["weapon", "weapon_constant", "attack_range", "target_rd", "damage_shift"],
        ),
        (None, None, ["label", "secret"]),
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
    pay = forms.ChoiceField(
        label=_("Pay with"),
        choices=[("drama_point", _("A drama point")), ("exhaust", _("Exhausting the aspect"))],
        initial="drama_point",
        required=False,
        widget=forms.RadioSelect,
    )
    hinder = forms.BooleanField(
        label=_("An opponent activated an aspect against this roll (keep the lowest die)"),
        required=False,
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
    target_rd = forms.IntegerField(
        label=_("Target's RD (highest armour)"),
        min_value=0,
        max_value=50,
        initial=0,
        required=False,
    )
    damage_shift = forms.IntegerField(
        label=_("Damage category steps from aspects"),
        min_value=-5,
        max_value=5,
        initial=0,
        required=False,
    )

    def setup_fields(self) -> None:
        sheet = self.sheet
        characteristics = sheet.trait_choices("characteristic")
        self.fields["characteristic"].choices = characteristics
        skills = sheet.trait_choices("skill")
        self.fields["skill"].choices = [("", _("No skill")), *skills]
        self.fields["skill"].initial = _first(skills)
        self.fields["modifier"].choices = _int_choices(-10, 10)
        usable = [a for a in sheet.aspects if not a.exhausted]
        self.fields["aspect"].choices = [("", _("None"))] + [(str(a.pk), a.text) for a in usable]
        if len(usable) < len(sheet.aspects):
            self.fields["aspect"].help_text = _("Exhausted aspects cannot be activated.")
        self.fields["pay"].help_text = _("Drama points: %(count)s") % {
            "count": sheet.pool_current(HITOS_DRAMA_POINTS)
        }
        if not sheet.aspects:
            del self.fields["aspect"]
            del self.fields["pay"]

    def clean(self):
        data = super().clean()
        if data.get("aspect") and data.get("pay") in ("drama_point", "", None):
            data["pay"] = "drama_point"
            if self.sheet.pool_current(HITOS_DRAMA_POINTS) < 1:
                self.add_error("pay", _("No drama points left."))
        if data.get("kind") == "attack" and not data.get("weapon"):
            self.add_error("weapon", _("Choose the weapon's category."))
        return data


# --- 3d6 + NdP ------------------------------------------------------------------------------


class NdpRollForm(RollForm):
    kinds = ("check", "attack")
    layout = (
        (_("What you roll"), None, ["skill", "dice", "gracias", "desgracias", "adversity"]),
        (_("Opposed roll"), ("check",), ["opposed_total", "defending"]),
        (_("Weapon and target"), ("attack",), ["damage", "damage_type", "target_rd"]),
        (None, None, ["label", "secret"]),
    )

    skill = forms.ChoiceField(label=_("Skill"))
    dice = forms.ChoiceField(
        label=_("Dice"),
        choices=[("2", _("Desventaja (2d6)")), ("3", _("Normal (3d6)")), ("4", _("Ventaja (4d6)"))],
        initial="3",
        widget=forms.RadioSelect,
    )
    gracias = forms.IntegerField(
        label=_("Gracias (+1d4 each)"), min_value=0, max_value=20, initial=0, required=False
    )
    desgracias = forms.IntegerField(
        label=_("Desgracias (−1d4 each)"), min_value=0, max_value=20, initial=0, required=False
    )
    adversity = forms.IntegerField(
        label=_("Adversity to exceed"),
        help_text=_(
            "Fácil 4–8 · Intermedia 9–13 · Difícil 14–18 · Muy difícil 19–23 · Extrema 24+. "
            "Empty: no adversity."
        ),
        min_value=0,
        max_value=200,
        required=False,
    )
    opposed_total = forms.IntegerField(
        label=_("Or the other side's total"),
        help_text=_("For an opposed roll, instead of an adversity."),
        min_value=-400,
        max_value=400,
        required=False,
    )
    defending = forms.BooleanField(label=_("I defend: a tie goes to me"), required=False)
    damage = forms.CharField(label=_("Weapon damage"), initial="1d6", max_length=20, required=False)
    damage_type = forms.ChoiceField(
        label=_("Damage type"),
        choices=[(t.key, t.name) for t in DAMAGE_TYPES],
        initial="cortante",
        required=False,
    )
    target_rd = forms.IntegerField(
        label=_("RD of the armour hit"), min_value=0, max_value=100, initial=0, required=False
    )

    def setup_fields(self) -> None:
        self.fields["skill"].choices = self.sheet.trait_choices("skill")

    def clean(self):
        data = super().clean()
        if data.get("kind") == "check" and data.get("opposed_total") is not None:
            if data.get("adversity") is not None:
                self.add_error(
                    "opposed_total", _("Give either an adversity or the other side's total.")
                )
        elif data.get("defending"):
            self.add_error("defending", _("Only an opposed roll has a defender."))
        if data.get("kind") == "attack":
            try:
                count, sides, fixed = parse_damage(data.get("damage") or "")
            except forms.ValidationError as error:
                self.add_error("damage", error)
            else:
                if fixed < 0:
                    self.add_error("damage", _("The damage bonus cannot be negative."))
                data.update(damage_count=count, damage_sides=sides, damage_fixed=max(fixed, 0))
            if not data.get("damage_type"):
                self.add_error("damage_type", _("Choose the damage type."))
        return data


# --- Dado objetivo --------------------------------------------------------------------------


class ObjetivoRollForm(RollForm):
    kinds = ("skill", "attribute", "attack")
    layout = (
        (_("What you roll"), None, ["attribute", "skill", "modifier"]),
        (None, ("skill", "attribute"), ["difficulty"]),
        (_("Points"), None, ["specialization", "destiny_point"]),
        (_("Weapon and target"), ("attack",), ["weapon", "damage", "defensa"]),
        (None, None, ["label", "secret"]),
    )

    attribute = forms.ChoiceField(label=_("Attribute"))
    skill = forms.ChoiceField(label=_("Skill"), required=False)
    difficulty = forms.IntegerField(
        label=_("Difficulty"),
        help_text=_("Fácil 10 · Media 15 · Difícil 20 · Insólito 25 · Imposible 30. Empty: none."),
        min_value=1,
        max_value=100,
        required=False,
    )
    modifier = forms.IntegerField(
        label=_("Modifier"), min_value=-20, max_value=20, initial=0, required=False
    )
    specialization = forms.BooleanField(required=False)
    destiny_point = forms.BooleanField(
        label=_("Spend a destiny point (keep the highest die)"), required=False
    )
    weapon = forms.ChoiceField(label=_("Weapon"), required=False)
    damage = forms.CharField(
        label=_("Damage of another weapon"),
        help_text=_("Only for «Other weapon»: like 1d10 or 2d6+1."),
        max_length=20,
        required=False,
    )
    defensa = forms.IntegerField(
        label=_("Target's Defensa (or range difficulty)"),
        min_value=1,
        max_value=100,
        required=False,
    )

    def setup_fields(self) -> None:
        sheet = self.sheet
        self.fields["attribute"].choices = sheet.trait_choices("attribute")
        skills = sheet.trait_choices("skill")
        self.fields["skill"].choices = [("", _("No skill")), *skills]
        self.fields["skill"].initial = _first(skills)
        key = sheet.character.details.get("specialization")
        if key and key in sheet.ratings:
            label = _("Use the specialization in %(skill)s (keep the highest die)") % {
                "skill": sheet.name(key)
            }
            self.fields["specialization"].label = label
            if specialization_used(sheet):
                self.fields["specialization"].help_text = _("Already used in this scene.")
            else:
                self.fields["specialization"].help_text = _("Once per scene.")
        else:
            del self.fields["specialization"]
        self.fields["destiny_point"].help_text = _("Destiny points: %(count)s") % {
            "count": sheet.pool_current(OBJETIVO_DESTINY)
        }
        self.fields["weapon"].choices = [
            (
                w.key,
                f"{w.name} ({w.damage}{f', precisión {w.precision:+d}' if w.precision else ''})",
            )
            for w in WEAPONS
        ] + [(CUSTOM_WEAPON, pgettext_lazy("weapon", "Other weapon"))]

    def clean(self):
        data = super().clean()
        if data.get("destiny_point") and self.sheet.pool_current(OBJETIVO_DESTINY) < 1:
            self.add_error("destiny_point", _("No destiny points left."))
        if data.get("specialization") and specialization_used(self.sheet):
            self.add_error("specialization", _("Already used in this scene."))
        elif data.get("specialization") and data.get("skill") != self.sheet.character.details.get(
            "specialization"
        ):
            self.add_error(
                "specialization", _("The specialization only applies to a roll of its own skill.")
            )
        kind = data.get("kind")
        if kind in ("skill", "attack") and not data.get("skill"):
            self.add_error("skill", _("Choose a skill."))
        if kind == "attack":
            if not data.get("defensa"):
                self.add_error("defensa", _("An attack needs the target's Defensa."))
            if (data.get("weapon") or CUSTOM_WEAPON) == CUSTOM_WEAPON:
                try:
                    count, sides, fixed = parse_damage(data.get("damage") or "")
                except forms.ValidationError as error:
                    self.add_error("damage", error)
                else:
                    if not sides:
                        self.add_error("damage", _("Roll at least one damage die."))
                    data.update(damage_count=count, damage_sides=sides, damage_fixed=fixed)
        return data


FORMS = {
    "tinieblas": TinieblasRollForm,
    "hitos": HitosRollForm,
    "ndp": NdpRollForm,
    "objetivo": ObjetivoRollForm,
}

# Fields of a form that spend something: cleared after a roll so the next one does not
# spend again unless the player asks.
SPEND_FIELDS = ("willpower", "aspect", "destiny_point", "specialization", "secret")


# --- The GM's two-sided rolls ---------------------------------------------------------------


class SideForm(forms.Form):
    """One side of an opposed or teamwork roll: a character and what it rolls."""

    character = forms.TypedChoiceField(label=_("Character"), coerce=int, required=False)

    def __init__(self, data=None, *, campaign_system: str, characters, traits, required=True, **kw):
        super().__init__(data, **kw)
        self.system = campaign_system
        self.required = required
        self.fields["character"].choices = [("", "—")] + [(c.pk, c.name) for c in characters]
        self.fields["character"].required = required
        attributes, skills = traits
        if campaign_system in ("tinieblas", "objetivo"):
            self.fields["attribute"] = forms.ChoiceField(
                label=_("Attribute"), choices=attributes, required=False
            )
        if campaign_system == "objetivo":
            self.fields["skill"] = forms.ChoiceField(
                label=_("Skill"),
                choices=[("", _("No skill (attribute roll)")), *skills],
                required=False,
            )
        else:
            self.fields["skill"] = forms.ChoiceField(
                label=_("Skill"),
                choices=([("", _("No skill"))] if campaign_system == "tinieblas" else []) + skills,
                required=False,
            )
        if campaign_system == "ndp":
            self.fields["dice"] = forms.ChoiceField(
                label=_("Dice"),
                choices=[
                    ("2", _("Desventaja (2d6)")),
                    ("3", _("Normal (3d6)")),
                    ("4", _("Ventaja (4d6)")),
                ],
                initial="3",
            )
            self.fields["gracias"] = forms.IntegerField(
                label=_("Gracias"), min_value=0, max_value=20, initial=0, required=False
            )
            self.fields["desgracias"] = forms.IntegerField(
                label=_("Desgracias"), min_value=0, max_value=20, initial=0, required=False
            )
        elif campaign_system == "tinieblas":
            self.fields["extra_dice"] = forms.IntegerField(
                label=_("Modifier (dice)"), min_value=-30, max_value=30, initial=0, required=False
            )
        else:
            self.fields["modifier"] = forms.IntegerField(
                label=_("Modifier"), min_value=-20, max_value=20, initial=0, required=False
            )
        for field in self.fields.values():
            css = "form-select" if isinstance(field.widget, forms.Select) else "form-control"
            field.widget.attrs.setdefault("class", css)

    def clean(self):
        data = super().clean()
        if not data.get("character"):
            return data
        if self.system in ("tinieblas", "objetivo") and not data.get("attribute"):
            self.add_error("attribute", _("Choose an attribute."))
        if self.system == "ndp" and not data.get("skill"):
            self.add_error("skill", _("Choose a skill."))
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
