"""Forms of the combat panel and of a scene's "time passes" card.

They validate what the GM chose (characters that are in the fight, numbers in range)
and hand their cleaned data to `mechanics.combat`, which builds the engine calls. The
client never sends dice, totals or damage: no form declares such a field.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from mechanics.combat import HITOS_TARGET_STATES, NDP_DEFENCES
from mechanics.forms.roll import parse_damage
from mechanics.rules.hitos.catalogue import DAMAGE_CATEGORIES
from mechanics.rules.ndp.catalogue import BODY_PARTS, SKILLS_BY_KEY
from mechanics.rules.ndp.catalogue import DAMAGE_TYPES as NDP_DAMAGE_TYPES
from mechanics.rules.objetivo.catalogue import WEAPONS
from mechanics.setup import CUSTOM_WEAPON, Sheet
from mechanics.systems.registry import get_system


def _style(form: forms.Form) -> None:
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.CheckboxInput | forms.CheckboxSelectMultiple):
            css = "form-check-input"
        elif isinstance(widget, forms.Select):
            css = "form-select"
        else:
            css = "form-control"
        widget.attrs.setdefault("class", css)


def _precision(value: int) -> str:
    return f", precisión {value:+d}" if value else ""


def _choice_key(grouped: list, wanted: str) -> str | None:
    """`wanted` if it is among the grouped choices, else the first key."""
    keys = [key for _group, choices in grouped for key, _label in choices]
    if wanted in keys:
        return wanted
    return keys[0] if keys else None


class AddFightersForm(forms.Form):
    characters = forms.TypedMultipleChoiceField(
        label=_("Characters"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": _("That character cannot join this combat.")},
    )

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [
            (
                c.pk,
                f"{c.name} · {c.owner.username}"
                if c.owner_id
                else _("%(name)s (NPC)") % {"name": c.name},
            )
            for c in candidates
        ]
        self.fields["characters"].widget.attrs["class"] = "form-check-input"


class PhaseForm(forms.Form):
    phase = forms.TypedChoiceField(label=_("Phase"), coerce=int)

    def __init__(self, *args, phases, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["phase"].choices = list(phases)
        _style(self)


class AttackForm(forms.Form):
    """Who attacks whom, and what the system needs to set up the attack."""

    attacker = forms.TypedChoiceField(label=_("Attacker"), coerce=int)
    target = forms.TypedChoiceField(label=_("Target"), coerce=int)

    # Fields each system shows, in order (the template lays them out).
    layout = {
        "tinieblas": [
            "attribute",
            "skill",
            "specialty",
            "weapon_bonus",
            "damage_type",
            "modifier",
            "defensa",
            "willpower",
        ],
        "hitos": [
            "characteristic",
            "skill",
            "weapon",
            "weapon_constant",
            "attack_range",
            "target_rd",
            "target_state",
            "defensa",
            "modifier",
            "damage_shift",
        ],
        "ndp": [
            "skill",
            "dice",
            "gracias",
            "desgracias",
            "damage",
            "damage_type",
            "part",
            "target_rd",
            "defence",
            "defence_desgracias",
            "adversity",
        ],
        "objetivo": ["weapon", "damage", "skill", "modifier", "defensa", "destiny_point"],
    }
    # Fields that spend something: cleared after a roll so the next one does not spend again.
    spends = ("willpower", "destiny_point")

    def __init__(self, *args, system: str, fighters, sheet: Sheet | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.system = system
        names = [(c.pk, c.name) for c in fighters]
        invalid = _("That character is not taking part in this combat.")
        for name in ("attacker", "target"):
            self.fields[name].choices = names
            self.fields[name].error_messages["invalid_choice"] = invalid
        getattr(self, f"_fields_{system}")(sheet)
        _style(self)

    def _traits(self, sheet: Sheet | None, kind: str) -> list:
        return sheet.trait_choices(kind) if sheet is not None else []

    def _fields_tinieblas(self, sheet) -> None:
        attributes = self._traits(sheet, "attribute")
        skills = self._traits(sheet, "skill")
        self.fields["attribute"] = forms.ChoiceField(
            label=_("Attribute"), choices=attributes, initial=_choice_key(attributes, "fuerza")
        )
        self.fields["skill"] = forms.ChoiceField(
            label=_("Skill"),
            choices=[("", _("No skill")), *skills],
            initial=_choice_key(skills, "pelea"),
            required=False,
        )
        if sheet is not None and sheet.specialties:
            self.fields["specialty"] = forms.ChoiceField(
                label=_("Specialty (+1 die)"),
                choices=[("", _("None"))]
                + [(str(s.pk), f"{sheet.name(s.skill_key)}: {s.name}") for s in sheet.specialties],
                required=False,
            )
        self.fields["weapon_bonus"] = forms.IntegerField(
            label=_("Weapon (dice)"),
            help_text=_("Fists 0, knife or bat +1…"),
            min_value=-5,
            max_value=5,
            initial=0,
            required=False,
        )
        self.fields["damage_type"] = forms.ChoiceField(
            label=_("Damage type"), choices=get_system("tinieblas").damage_types(), initial="B"
        )
        self.fields["modifier"] = forms.IntegerField(
            label=_("Modifier (dice)"), min_value=-5, max_value=5, initial=0, required=False
        )
        self.fields["defensa"] = forms.IntegerField(
            label=_("Target's Defensa"),
            help_text=_("Empty: from the target's sheet. 0 against firearms."),
            min_value=0,
            max_value=10,
            required=False,
        )
        self.fields["willpower"] = forms.BooleanField(
            label=_("Spend 1 Willpower point: +3 dice"), required=False
        )

    def _fields_hitos(self, sheet) -> None:
        characteristics = self._traits(sheet, "characteristic")
        skills = self._traits(sheet, "skill")
        self.fields["characteristic"] = forms.ChoiceField(
            label=_("Characteristic"),
            choices=characteristics,
            initial=_choice_key(characteristics, "reflejos"),
        )
        self.fields["skill"] = forms.ChoiceField(
            label=_("Skill"),
            choices=[("", _("No skill")), *skills],
            initial=_choice_key(skills, "combate"),
            required=False,
        )
        self.fields["weapon"] = forms.ChoiceField(
            label=_("Weapon category"),
            choices=[(c.key, f"{c.name} ({c.label})") for c in DAMAGE_CATEGORIES],
            initial="central",
        )
        self.fields["weapon_constant"] = forms.IntegerField(
            label=_("Weapon bonus"), min_value=-20, max_value=20, initial=0, required=False
        )
        self.fields["attack_range"] = forms.ChoiceField(
            label=_("Kind of attack"),
            choices=[("melee", _("Melee")), ("ranged", _("Ranged"))],
            initial="melee",
        )
        self.fields["target_rd"] = forms.IntegerField(
            label=_("Target's RD (highest armour)"),
            min_value=0,
            max_value=50,
            initial=0,
            required=False,
        )
        labels = {
            "normal": _("Defends normally"),
            "unaware": _("Caught unaware (Defensa −2)"),
            "total_defence": _("Total defence (Defensa +4)"),
            "defenceless": _("Defenceless (difficulty 5)"),
        }
        self.fields["target_state"] = forms.ChoiceField(
            label=_("Target"),
            choices=[(key, labels[key]) for key in HITOS_TARGET_STATES],
            initial="normal",
        )
        self.fields["defensa"] = forms.IntegerField(
            label=_("Target's Defensa"),
            help_text=_("Empty: from the target's sheet."),
            min_value=0,
            max_value=60,
            required=False,
        )
        self.fields["modifier"] = forms.IntegerField(
            label=_("Modifier"), min_value=-10, max_value=10, initial=0, required=False
        )
        self.fields["damage_shift"] = forms.IntegerField(
            label=_("Damage category steps from aspects"),
            min_value=-5,
            max_value=5,
            initial=0,
            required=False,
        )

    def _fields_ndp(self, sheet) -> None:
        skills = self._traits(sheet, "skill")
        self.fields["skill"] = forms.ChoiceField(
            label=_("Skill"), choices=skills, initial=_choice_key(skills, "combate_c_a_c")
        )
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
            label=_("Gracias (+1d4 each)"), min_value=0, max_value=20, initial=0, required=False
        )
        self.fields["desgracias"] = forms.IntegerField(
            label=_("Desgracias (−1d4 each)"),
            help_text=_("A second attack in the turn: 1."),
            min_value=0,
            max_value=20,
            initial=0,
            required=False,
        )
        self.fields["damage"] = forms.CharField(
            label=_("Weapon damage"), initial="1d6", max_length=20
        )
        self.fields["damage_type"] = forms.ChoiceField(
            label=_("Damage type"),
            choices=[(t.key, t.name) for t in NDP_DAMAGE_TYPES],
            initial="cortante",
        )
        self.fields["part"] = forms.ChoiceField(
            label=_("Body part hit"), choices=[(p.key, p.name) for p in BODY_PARTS], initial="torso"
        )
        self.fields["target_rd"] = forms.IntegerField(
            label=_("RD of the armour hit"), min_value=0, max_value=100, initial=0, required=False
        )
        self.fields["defence"] = forms.ChoiceField(
            label=_("Target's defence"),
            choices=[
                *[
                    (key, _("Rolls %(skill)s") % {"skill": SKILLS_BY_KEY[key].name})
                    for key in NDP_DEFENCES
                ],
                ("", _("A fixed adversity")),
            ],
            initial="esquivar",
            required=False,
        )
        self.fields["defence_desgracias"] = forms.IntegerField(
            label=_("Desgracias on the defence"),
            help_text=_("One for each earlier defence this turn."),
            min_value=0,
            max_value=20,
            initial=0,
            required=False,
        )
        self.fields["adversity"] = forms.IntegerField(
            label=_("Adversity to exceed"),
            help_text=_("Only with a fixed adversity."),
            min_value=0,
            max_value=200,
            required=False,
        )

    def _fields_objetivo(self, sheet) -> None:
        skills = self._traits(sheet, "skill")
        self.fields["weapon"] = forms.ChoiceField(
            label=_("Weapon"),
            choices=[(w.key, f"{w.name} ({w.damage}{_precision(w.precision)})") for w in WEAPONS]
            + [(CUSTOM_WEAPON, pgettext_lazy("weapon", "Other weapon"))],
            initial=WEAPONS[0].key,
        )
        self.fields["damage"] = forms.CharField(
            label=_("Damage of another weapon"),
            help_text=_("Only for «Other weapon»: like 1d10 or 2d6+1."),
            max_length=20,
            required=False,
        )
        self.fields["skill"] = forms.ChoiceField(
            label=_("Skill"),
            choices=[("", _("The weapon's own")), *skills],
            required=False,
        )
        self.fields["modifier"] = forms.IntegerField(
            label=_("Modifier"), min_value=-20, max_value=20, initial=0, required=False
        )
        self.fields["defensa"] = forms.IntegerField(
            label=_("Target's Defensa (or range difficulty)"),
            help_text=_("Empty: from the target's sheet; short range (15) for ranged weapons."),
            min_value=1,
            max_value=100,
            required=False,
        )
        self.fields["destiny_point"] = forms.BooleanField(
            label=_("Spend a destiny point (keep the highest die)"), required=False
        )

    def fieldsets(self) -> list:
        return [self[name] for name in self.layout[self.system] if name in self.fields]

    def clean(self):
        data = super().clean()
        if data.get("attacker") and data.get("attacker") == data.get("target"):
            self.add_error("target", _("A character cannot attack itself."))
        if self.system in ("ndp", "objetivo"):
            text = data.get("damage") or ""
            weapon = data.get("weapon")
            if self.system == "ndp" or weapon == CUSTOM_WEAPON:
                try:
                    count, sides, fixed = parse_damage(text)
                except forms.ValidationError as error:
                    self.add_error("damage", error)
                else:
                    if self.system == "objetivo" and not sides:
                        self.add_error("damage", _("Roll at least one damage die."))
                    elif self.system == "ndp" and fixed < 0:
                        self.add_error("damage", _("The damage bonus cannot be negative."))
                    data.update(damage_count=count, damage_sides=sides, damage_fixed=fixed)
        if self.system == "ndp" and not data.get("defence") and data.get("adversity") is None:
            self.add_error(
                "adversity", _("Give the adversity to exceed, or let the target roll a defence.")
            )
        return data


TIME_PRESETS = (
    ("8", _("Rest 8 h")),
    ("24", _("1 day")),
    ("168", _("1 week")),
)
TIME_UNITS = (("hours", _("hours")), ("days", _("days")), ("weeks", _("weeks")))
HOURS_PER_UNIT = {"hours": 1, "days": 24, "weeks": 168}
MAX_HOURS = 10 * 365 * 24


class SceneTimeForm(forms.Form):
    """Time passes for everyone in a scene: a preset button, or an amount and a unit."""

    preset = forms.ChoiceField(
        choices=[*TIME_PRESETS, ("custom", _("Custom"))], widget=forms.HiddenInput
    )
    amount = forms.IntegerField(label=_("Amount"), min_value=1, max_value=9999, required=False)
    unit = forms.ChoiceField(label=_("Unit"), choices=TIME_UNITS, initial="hours", required=False)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. A night at the inn")}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def clean(self):
        data = super().clean()
        preset = data.get("preset")
        if preset is None:
            return data
        if preset != "custom":
            data["hours"] = int(preset)
            return data
        amount = data.get("amount")
        if amount is None:
            self.add_error("amount", _("Say how much time passes."))
            return data
        hours = amount * HOURS_PER_UNIT[data.get("unit") or "hours"]
        if hours > MAX_HOURS:
            self.add_error("amount", _("At most ten years at a time."))
            return data
        data["hours"] = hours
        return data
