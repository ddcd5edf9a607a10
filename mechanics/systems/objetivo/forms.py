"""The Dado objetivo roll panel: skill, attribute and attack rolls with the
specialization and destiny points; and one side of an opposed roll."""

from __future__ import annotations

from types import MappingProxyType

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from mechanics.forms.roll import (
    RollForm,
    SideForm,
    first_choice,
    refuse_secret_attack,
    target_choices,
    target_field,
)
from mechanics.rules.errors import RuleError
from mechanics.rules.objetivo.catalogue import WEAPONS
from mechanics.systems.objetivo.combat import RANGED_SKILL, attack_traits, shot_range
from mechanics.systems.objetivo.combat_forms import clean_damage, clean_ranges, range_fields
from mechanics.systems.objetivo.rolls import CUSTOM_WEAPON, DESTINY_POOL, specialization_used


class ObjetivoRollForm(RollForm):
    kinds = (
        ("skill", _("Skill roll")),
        ("attribute", _("Attribute roll")),
        ("attack", _("Attack")),
    )
    layout = (
        (_("What you roll"), None, ["attribute", "skill", "modifier"]),
        (None, ("skill", "attribute"), ["difficulty"]),
        (_("Points"), None, ["specialization", "destiny_point"]),
        (
            _("Weapon and target"),
            ("attack",),
            ["target", "weapon", "damage", "distance", "cover", "ranges", "defensa"],
        ),
        (None, None, ["label", "secret"]),
    )
    spends = ("destiny_point", "specialization")
    compact = frozenset({"modifier"})
    # The target's names and what choosing one does read across the row.
    wide = RollForm.wide | {"target"}
    # An attack's attribute follows from its weapon and skill: its list hides (objetivo.css).
    cell_classes = MappingProxyType({"attribute": "roll-cell-not-attack"})

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
    weapon = forms.ChoiceField(
        label=_("Weapon"),
        help_text=_("Melee: Fuerza + Armas CC or Pelea. Ranged: Destreza + Armas Dist."),
        required=False,
    )
    damage = forms.CharField(
        label=_("Damage of another weapon"),
        help_text=_("Only for «Other weapon»: like 1d10 or 2d6+1."),
        max_length=20,
        required=False,
    )
    target = target_field(
        _(
            "Its Defensa (or, for a shot, the range) is the difficulty and the Defensa typed "
            "is not used; a hit's damage waits for the GM in the scene's fight."
        )
    )
    defensa = forms.IntegerField(
        label=_("Target's Defensa (or range difficulty)"),
        help_text=_("Empty when shooting: from the distance typed."),
        min_value=1,
        max_value=100,
        required=False,
    )

    def setup_fields(self) -> None:
        sheet = self.sheet
        self.fields.update(range_fields())
        self.fields["attribute"].choices = sheet.trait_choices("attribute")
        self.fields["target"].choices = target_choices(sheet, _("Nobody: the Defensa typed"))
        skills = sheet.trait_choices("skill")
        self.fields["skill"].choices = [("", _("No skill")), *skills]
        self.fields["skill"].initial = first_choice(skills)
        key = sheet.character.details.get("specialization")
        if key and key in sheet.ratings:
            label = _("Use the specialization in %(skill)s (keep the highest die)") % {
                "skill": sheet.name(key)
            }
            self.fields["specialization"].label = label
            if specialization_used(sheet):
                # Drawn greyed out, but still checked when sent (a page older than the use).
                self.fields["specialization"].widget.attrs["disabled"] = True
                self.fields["specialization"].help_text = _("Already used in this scene.")
            else:
                self.fields["specialization"].help_text = _("Once per scene.")
        else:
            del self.fields["specialization"]
        # The panel's heading shows the pool (its game term, in both languages); the box
        # only says why it cannot be ticked, as Tinieblas does for Willpower.
        if sheet.pool_current(DESTINY_POOL) < 1:
            # Drawn greyed out, but still checked when sent (a page older than the spend).
            destiny = self.fields["destiny_point"]
            destiny.widget.attrs["disabled"] = True
            destiny.help_text = _("No destiny points left.")
        self.fields["weapon"].choices = [
            (
                w.key,
                f"{w.name} ({w.damage}{f', precisión {w.precision:+d}' if w.precision else ''})",
            )
            for w in WEAPONS
        ] + [(CUSTOM_WEAPON, pgettext_lazy("weapon", "Other weapon"))]

    def clean(self):
        data = super().clean()
        if data.get("destiny_point") and self.sheet.pool_current(DESTINY_POOL) < 1:
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
        # "No skill" in a skill roll or an attack is allowed: the seed's roll of a skill
        # with no points in it (docs/rules.md#objetivo-no-skill).
        if kind == "attack":
            clean_ranges(self, data)
            self._attack_traits(data)
            if data.get("target"):
                # The target's Defensa, or the range, sets the difficulty (the set-up).
                self.errors.pop("defensa", None)
                data["defensa"] = None
                if data.get("distance") is not None and "ranges" not in self.errors:
                    self._shot_difficulty(data)
            # A typed Defensa wins; else the distance, the ranges and cover set it.
            elif not data.get("defensa"):
                if data.get("distance") is None:
                    self.add_error("defensa", _("An attack needs the target's Defensa."))
                elif "ranges" not in self.errors:
                    self._shot_difficulty(data)
            elif data.get("skill") == RANGED_SKILL or data.get("distance") is not None:
                # A number typed for a shot is its difficulty: the target has no Defensa.
                data["shot"] = {}
            if (data.get("weapon") or CUSTOM_WEAPON) == CUSTOM_WEAPON:
                clean_damage(self, data)
        refuse_secret_attack(self, data)
        return data

    def _attack_traits(self, data: dict) -> None:
        """The rule's attribute, whatever the set-up sent; a skill that is not the rule's
        is refused (docs/rules.md#objetivo-attack-traits)."""
        attribute, skills = attack_traits(data)
        data["attribute"] = attribute
        skill = data.get("skill")
        if not skill or skill in skills:
            return
        name = self.sheet.name
        if len(skills) == 1:
            message = _("A shot is rolled with %(attribute)s + %(skill)s, or with no skill.")
        else:
            message = _(
                "A melee attack is rolled with %(attribute)s + %(skill)s or %(other)s, or "
                "with no skill."
            )
        self.add_error(
            "skill",
            message
            % {"attribute": name(attribute), "skill": name(skills[0]), "other": name(skills[-1])},
        )

    def _shot_difficulty(self, data: dict) -> None:
        """The range's difficulty as the Defensa (docs/rules.md#objetivo-ranged); a shot
        beyond long range, or a weapon without ranges, is refused on the distance."""
        try:
            data["defensa"], data["shot"] = shot_range(data)
        except RuleError as error:
            self.add_error("distance", error.translated(gettext))
        except forms.ValidationError as error:
            self.add_error("distance", error)


class ObjetivoSideForm(SideForm):
    spends = ("destiny_point",)

    def setup_fields(self, attributes: list, skills: list) -> None:
        self.fields["attribute"] = forms.ChoiceField(
            label=_("Attribute"), choices=attributes, required=False
        )
        self.fields["skill"] = forms.ChoiceField(
            label=_("Skill"),
            choices=[("", _("No skill (attribute roll)")), *skills],
            required=False,
        )
        self.fields["modifier"] = forms.IntegerField(
            label=_("Modifier"), min_value=-20, max_value=20, initial=0, required=False
        )
        # Each side spends from its own pool (docs/rules.md#objetivo-destiny).
        self.fields["destiny_point"] = forms.BooleanField(
            label=_("Spend a destiny point (keep the highest die)"),
            required=False,
            widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
        )

    def clean_side(self, data: dict) -> None:
        if not data.get("attribute"):
            self.add_error("attribute", _("Choose an attribute."))
