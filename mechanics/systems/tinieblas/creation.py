"""Creating a Mundo de Tinieblas character: the guided form.

It only parses what the user entered into the engine's `CreationDraft` and shows the
engine's report (the points left in each budget); every budget lives in
`mechanics/rules/tinieblas/creation.py`. The generic creation view
(`characters.views.creation`) renders it through the `CreationBaseForm` protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from characters.forms.creation import CreationBaseForm
from characters.models import Merit, Specialty
from mechanics.rules.tinieblas import catalogue, traits
from mechanics.rules.tinieblas.creation import (
    MERIT_DOTS,
    SPECIALTIES_REQUIRED,
    CategoryPoints,
    CreationDraft,
    CreationReport,
    Problem,
    check_creation,
)

# Seven one-dot merits fill the budget, so seven rows always suffice.
MERIT_ROWS = MERIT_DOTS
CUSTOM_MERIT = "custom"
CATEGORY_NAMES = dict(catalogue.CATEGORIES)
PRIORITY_NAMES = {
    "primary": _("primary"),
    "secondary": _("secondary"),
    "tertiary": _("tertiary"),
}
# Problems a GM may approve: the budgets themselves. The rest (unknown traits, ratings a
# merit cannot have, a specialty on a skill without dots, no Virtue…) make a sheet
# invalid whoever submits it.
_BUDGET_KEYS = ("merits", "specialties")
_BUDGET_PREFIXES = ("attributes.", "skills.")


def is_budget_problem(problem: Problem) -> bool:
    return problem.key in _BUDGET_KEYS or problem.key.startswith(_BUDGET_PREFIXES)


# Where on the form each problem's key points (the section's id), for links.
_SECTIONS = {
    "attributes": "attributes",
    "attribute": "attributes",
    "attribute_priorities": "attributes",
    "willpower": "attributes",
    "skills": "skills",
    "skill": "skills",
    "skill_priorities": "skills",
    "specialties": "specialties",
    "specialty": "specialties",
    "merits": "merits",
    "merit": "merits",
    "virtue": "virtue-vice",
    "vice": "virtue-vice",
}


def problem_section(problem: Problem) -> str:
    return _SECTIONS.get(problem.key.split(".")[0], "")


@dataclass(frozen=True)
class DotRow:
    """One trait drawn as a row of dot radios."""

    field: str
    label: str
    value: int | None
    low: int
    high: int
    description: str = ""
    # What the "no dots" radio sends (merit rows send nothing, skills send 0).
    zero_value: str = "0"
    # Shown instead of `label` where the context says the rest (screen readers get both).
    short_label: str = ""

    @property
    def choices(self) -> range:
        return range(max(self.low, 1), self.high + 1)


@dataclass(frozen=True)
class PointsRow:
    """A budget as the form shows it: spent, budget, left, and the priority if any."""

    key: str
    label: str
    priority: str
    spent: int
    budget: int

    @property
    def left(self) -> int:
        return self.budget - self.spent

    @property
    def over(self) -> int:
        return -self.left


def _points_row(item: CategoryPoints, label: str) -> PointsRow:
    key = f"{item.group}-{item.category}" if item.category else item.group
    return PointsRow(key, label, PRIORITY_NAMES.get(item.priority, ""), item.spent, item.budget)


def _priority_choices() -> list[tuple[str, str]]:
    choices = [("", _("Automatic priorities"))]
    for order in permutations(catalogue.CATEGORY_KEYS):
        choices.append((",".join(order), " > ".join(CATEGORY_NAMES[key] for key in order)))
    return choices


def _skill_choices() -> list:
    groups = [
        (
            CATEGORY_NAMES[category],
            [(skill.key, skill.name) for skill in catalogue.skills_in(category)],
        )
        for category in catalogue.CATEGORY_KEYS
    ]
    return [("", "—"), *groups]


def _merit_choices() -> list:
    groups = [
        (
            CATEGORY_NAMES[category],
            [
                (merit.key, f"{merit.name} ({merit.ratings_text})")
                for merit in catalogue.MERITS
                if merit.category == category
            ],
        )
        for category in catalogue.CATEGORY_KEYS
    ]
    return [("", "—"), *groups, (CUSTOM_MERIT, _("Another merit (your own)"))]


class TinieblasCreationForm(CreationBaseForm):
    """The guided form: dots for attributes and skills, specialties, merits, Virtue, Vice."""

    template = "systems/tinieblas/create.html"
    points_template = "systems/tinieblas/create_points.html"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for group, label in (
            ("attribute", _("Attribute priorities")),
            ("skill", _("Skill priorities")),
        ):
            self.fields[f"{group}_priorities"] = forms.ChoiceField(
                label=label, choices=_priority_choices(), required=False
            )
        skills = _skill_choices()
        for index in range(SPECIALTIES_REQUIRED):
            number = {"number": index + 1}
            self.fields[f"specialty_{index}_skill"] = forms.ChoiceField(
                label=gettext("Specialty %(number)s: skill") % number,
                choices=skills,
                required=False,
            )
            self.fields[f"specialty_{index}_name"] = forms.CharField(
                label=gettext("Specialty %(number)s: name") % number,
                max_length=limit(Specialty, "name"),
                required=False,
            )
        merits = _merit_choices()
        for index in range(MERIT_ROWS):
            number = {"number": index + 1}
            self.fields[f"merit_{index}_key"] = forms.ChoiceField(
                label=gettext("Merit %(number)s") % number, choices=merits, required=False
            )
            self.fields[f"merit_{index}_name"] = forms.CharField(
                label=gettext("Merit %(number)s: name of another merit") % number,
                max_length=limit(Merit, "name"),
                required=False,
            )
        self.fields["virtue"] = forms.ChoiceField(
            label=_("Virtue"),
            choices=[(v.key, v.name) for v in catalogue.VIRTUES],
            required=False,
        )
        self.fields["vice"] = forms.ChoiceField(
            label=_("Vice"), choices=[(v.key, v.name) for v in catalogue.VICES], required=False
        )
        if self.access.is_gm:
            self.fields["approve_over_budget"] = forms.BooleanField(
                label=_("Approve over budget"),
                required=False,
                help_text=_(
                    "Save the sheet even if it breaks the creation budgets; "
                    "it will be marked as approved over budget."
                ),
            )

    # What the user entered, read tolerantly: the points panel must work on any input.
    # Dots are plain inputs, not Django fields: the engine validates them (whole
    # numbers, ranges) with the rest of the sheet, so each problem is reported once.

    def _rating(self, name: str, default: int) -> int | str:
        """An entered rating: a whole number, the text as typed if it is not one (the
        engine reports it), or the default when nothing was sent."""
        text = self.value(name).strip()
        if not text:
            return default
        try:
            return int(text)
        except ValueError:
            return text

    def _attributes(self) -> dict[str, int]:
        return {
            item.key: self._rating(f"attr_{item.key}", item.minimum)
            for item in catalogue.ATTRIBUTES
        }

    def _skills(self) -> dict[str, int]:
        return {
            item.key: self._rating(f"skill_{item.key}", item.minimum) for item in catalogue.SKILLS
        }

    def _priorities(self, group: str) -> tuple[str, ...] | None:
        value = self.value(f"{group}_priorities")
        return tuple(value.split(",")) if value else None

    def _specialties(self) -> list[tuple[str, str]]:
        rows = []
        for index in range(SPECIALTIES_REQUIRED):
            skill = self.value(f"specialty_{index}_skill")
            name = self.value(f"specialty_{index}_name").strip()
            if skill or name:
                rows.append((skill, name))
        return rows

    def _merit_rows(self) -> list[tuple[str, str, int]]:
        """(catalogue key or "", name, dots) for every row the user touched."""
        rows = []
        for index in range(MERIT_ROWS):
            key = self.value(f"merit_{index}_key")
            name = self.value(f"merit_{index}_name").strip()
            dots = self._rating(f"merit_{index}_dots", 0)
            if not (key or name or dots):
                continue
            merit = catalogue.find_merit(key) if key and key != CUSTOM_MERIT else None
            if merit is not None:
                rows.append((merit.key, merit.name, dots))
            else:
                rows.append(("", name, dots))
        return rows

    def draft(self) -> CreationDraft:
        return CreationDraft(
            attributes=self._attributes(),
            skills=self._skills(),
            specialties=tuple(self._specialties()),
            merits=tuple((key or name, dots) for key, name, dots in self._merit_rows()),
            virtue=self.value("virtue") or None,
            vice=self.value("vice") or None,
            attribute_priorities=self._priorities("attribute"),
            skill_priorities=self._priorities("skill"),
        )

    def report(self) -> CreationReport:
        return check_creation(self.draft())

    def approving(self) -> bool:
        """A GM ticked "approve over budget" (the field does not exist for players)."""
        return "approve_over_budget" in self.fields and bool(
            self.cleaned_data.get("approve_over_budget")
        )

    def blocking_problems(self) -> list[tuple[str, str]]:
        """The problems that stop the sheet being saved: all, or for an approving GM only
        those that are not budgets; each with the id of its part of the form."""
        problems = self.report().problems
        if self.approving():
            problems = [p for p in problems if not is_budget_problem(p)]
        return [(p.translated(gettext), problem_section(p)) for p in problems]

    def approves_over_budget(self) -> bool:
        return self.approving() and not self.report().ok

    def service_kwargs(self) -> dict:
        """The validated sheet in the shape `character_create` takes; Fuerza de Voluntad
        and Moralidad start where the system puts them (`initial_ratings`)."""
        return {
            "ratings": {**self._attributes(), **self._skills()},
            "details": {"virtue": self.cleaned_data["virtue"], "vice": self.cleaned_data["vice"]},
            "specialties": self._specialties(),
            "merits": self._merit_rows(),
        }

    def display_context(self) -> dict:
        report = self.report()
        return {
            "points": self.points(report),
            "attribute_groups": self.attribute_groups(report),
            "skill_groups": self.skill_groups(report),
        }

    # Display ------------------------------------------------------------------------------

    def _dot_rows(self, prefix: str, items) -> list[DotRow]:
        return [
            DotRow(
                f"{prefix}_{item.key}",
                item.name,
                # An attribute's free dot is drawn from the start (its radio checked).
                self.int_value(f"{prefix}_{item.key}", item.minimum or None),
                item.minimum,
                item.maximum,
                item.description,
            )
            for item in items
        ]

    def attribute_groups(self, report: CreationReport) -> list[tuple[PointsRow, list[DotRow]]]:
        return [
            (
                _points_row(points, CATEGORY_NAMES[points.category]),
                self._dot_rows("attr", catalogue.attributes_in(points.category)),
            )
            for points in report.attributes
        ]

    def skill_groups(self, report: CreationReport) -> list[tuple[PointsRow, list[DotRow]]]:
        return [
            (
                _points_row(points, CATEGORY_NAMES[points.category]),
                self._dot_rows("skill", catalogue.skills_in(points.category)),
            )
            for points in report.skills
        ]

    def specialty_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"specialty_{index}_skill"], self[f"specialty_{index}_name"])
            for index in range(SPECIALTIES_REQUIRED)
        ]

    def merit_rows(self) -> list[tuple[forms.BoundField, forms.BoundField, DotRow]]:
        return [
            (
                self[f"merit_{index}_key"],
                self[f"merit_{index}_name"],
                DotRow(
                    f"merit_{index}_dots",
                    gettext("Merit %(number)s: dots") % {"number": index + 1},
                    self.int_value(f"merit_{index}_dots", None),
                    0,
                    5,
                    zero_value="",
                    short_label=gettext("Dots"),
                ),
            )
            for index in range(MERIT_ROWS)
        ]

    def points(self, report: CreationReport) -> dict:
        """Everything the points panel shows, from the engine's report."""
        aplomo, compostura = (
            min(max(self.int_value(f"attr_{key}", 1) or 1, 1), 5)
            for key in ("aplomo", "compostura")
        )
        willpower = traits.starting_willpower(aplomo, compostura)
        return {
            "attributes": [
                _points_row(item, CATEGORY_NAMES[item.category]) for item in report.attributes
            ],
            "skills": [_points_row(item, CATEGORY_NAMES[item.category]) for item in report.skills],
            "merits": _points_row(report.merits, gettext("Merits")),
            "specialties": _points_row(report.specialties, gettext("Specialties")),
            "willpower": willpower,
            "willpower_label": catalogue.willpower_label(willpower),
        }

    def _moral_choices(self, group: str, items) -> list[tuple[catalogue.MoralTrait, bool]]:
        chosen = self.value(group)
        return [(item, item.key == chosen) for item in items]

    def virtue_choices(self) -> list[tuple[catalogue.MoralTrait, bool]]:
        return self._moral_choices("virtue", catalogue.VIRTUES)

    def vice_choices(self) -> list[tuple[catalogue.MoralTrait, bool]]:
        return self._moral_choices("vice", catalogue.VICES)

    def extra_merits_open(self) -> bool:
        """Show the merit rows past the first three when any of them holds something."""
        return any(
            self.value(f"merit_{index}_{part}")
            for index in range(3, MERIT_ROWS)
            for part in ("key", "name", "dots")
        )

    @staticmethod
    def merit_catalogue() -> list[tuple[str, list[catalogue.MeritDef]]]:
        return [
            (
                CATEGORY_NAMES[category],
                [merit for merit in catalogue.MERITS if merit.category == category],
            )
            for category in catalogue.CATEGORY_KEYS
        ]
