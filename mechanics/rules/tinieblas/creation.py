"""Character creation budgets for Mundo de Tinieblas.

Attributes: every attribute starts with one free dot; the three categories get 5, 4
and 3 extra dots by priority. Skills start at 0 and get 11, 7 and 4. For both, the
fifth dot of a trait costs 2 points. Then 3 specialties on skills with at least one
dot, 7 merit dots, a Virtue, a Vice, and Willpower = Aplomo + Compostura.

`points_left(draft)` is what a form calls on every click: it never raises, whatever
the draft holds. `check_creation(draft)` adds one `Problem` per broken rule; a sheet
is valid when it has none. Budgets count points, not dots, because of the fifth dot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import permutations

from mechanics.rules.catalogue import slug
from mechanics.rules.errors import gettext_noop
from mechanics.rules.tinieblas.catalogue import (
    ATTRIBUTES,
    CATEGORY_KEYS,
    CUSTOM_MERIT_RATINGS,
    SKILLS,
    VICES,
    VIRTUES,
    find_merit,
    format_ratings,
)

PRIORITIES: tuple[str, ...] = ("primary", "secondary", "tertiary")
ATTRIBUTE_BUDGETS: tuple[int, int, int] = (5, 4, 3)
SKILL_BUDGETS: tuple[int, int, int] = (11, 7, 4)
SPECIALTIES_REQUIRED = 3
MERIT_DOTS = 7

_ATTRIBUTES = {item.key: item for item in ATTRIBUTES}
_SKILLS = {item.key: item for item in SKILLS}
_VIRTUES = {item.key: item for item in VIRTUES}
_VICES = {item.key: item for item in VICES}

# One msgid per category so translators see whole sentences.
_BUDGET_TEMPLATES = {
    ("attributes", "mental"): gettext_noop(
        "Mental attributes: %(spent)s points spent of %(budget)s"
    ),
    ("attributes", "physical"): gettext_noop(
        "Physical attributes: %(spent)s points spent of %(budget)s"
    ),
    ("attributes", "social"): gettext_noop(
        "Social attributes: %(spent)s points spent of %(budget)s"
    ),
    ("skills", "mental"): gettext_noop("Mental skills: %(spent)s points spent of %(budget)s"),
    ("skills", "physical"): gettext_noop("Physical skills: %(spent)s points spent of %(budget)s"),
    ("skills", "social"): gettext_noop("Social skills: %(spent)s points spent of %(budget)s"),
}


class Ratings(Mapping[str, int]):
    """A read-only, hashable mapping of trait key to rating (keeps drafts frozen)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, int] | None = None) -> None:
        self._data = dict(data or {})
        self._hash: int | None = None

    def __getitem__(self, key: str) -> int:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Ratings({self._data!r})"


@dataclass(frozen=True)
class CreationDraft:
    """A character sheet being built; any part may still be missing.

    attributes: key -> rating (a missing attribute counts as its free dot, 1).
    skills: key -> rating (missing = 0).
    specialties: (skill_key, text) pairs.
    merits: (catalogue key or name, or a custom merit's name; dots) pairs.
    virtue, vice: catalogue keys (names are accepted too).
    attribute_priorities, skill_priorities: the three category keys, primary first;
    None lets `check_creation` choose the assignment that fits best.
    willpower: the sheet's Willpower; None means "derive it" and is not a problem.
    """

    attributes: Mapping[str, int] = field(default_factory=Ratings)
    skills: Mapping[str, int] = field(default_factory=Ratings)
    specialties: tuple[tuple[str, str], ...] = ()
    merits: tuple[tuple[str, int], ...] = ()
    virtue: str | None = None
    vice: str | None = None
    attribute_priorities: tuple[str, ...] | None = None
    skill_priorities: tuple[str, ...] | None = None
    willpower: int | None = None

    def __post_init__(self) -> None:
        for name in ("attributes", "skills"):
            value = getattr(self, name)
            if not isinstance(value, Ratings):
                object.__setattr__(self, name, Ratings(value))
        for name in ("specialties", "merits"):
            object.__setattr__(self, name, tuple(tuple(item) for item in getattr(self, name)))
        for name in ("attribute_priorities", "skill_priorities"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))


@dataclass(frozen=True)
class Problem:
    """One broken rule. `template` is an English msgid; `params` fill it.

    `key` says where the problem is, for a form to attach it to a field:
    "attributes.mental", "skills.social", "attribute.fuerza", "skill.pelea",
    "attribute_priorities", "skill_priorities", "specialties", "specialty.<index>",
    "merits", "merit.<index>", "virtue", "vice", "willpower".
    """

    key: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % dict(self.params) if self.params else self.template

    def translated(self, gettext) -> str:
        text = gettext(self.template)
        return text % dict(self.params) if self.params else text

    def to_dict(self) -> dict:
        return {"key": self.key, "message": self.message, "params": dict(self.params)}


@dataclass(frozen=True)
class CategoryPoints:
    """Points spent in one budget; `left` is negative when overspent."""

    group: str  # "attributes", "skills", "merits" or "specialties"
    category: str  # "mental", "physical", "social"; "" for merits and specialties
    priority: str  # "primary", "secondary", "tertiary"; "" for merits and specialties
    spent: int
    budget: int

    @property
    def left(self) -> int:
        return self.budget - self.spent

    def to_dict(self) -> dict:
        return {
            "group": self.group,
            "category": self.category,
            "priority": self.priority,
            "spent": self.spent,
            "budget": self.budget,
            "left": self.left,
        }


@dataclass(frozen=True)
class CreationReport:
    attribute_priorities: tuple[str, str, str]
    skill_priorities: tuple[str, str, str]
    attribute_priorities_auto: bool
    skill_priorities_auto: bool
    attributes: tuple[CategoryPoints, ...]  # mental, physical, social
    skills: tuple[CategoryPoints, ...]
    merits: CategoryPoints
    specialties: CategoryPoints
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def messages(self) -> list[str]:
        return [problem.message for problem in self.problems]

    def left(self) -> dict:
        """Points left per budget, the shape `points_left()` returns."""
        return {
            "attributes": {item.category: item.left for item in self.attributes},
            "skills": {item.category: item.left for item in self.skills},
            "merits": self.merits.left,
            "specialties": self.specialties.left,
        }

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "attribute_priorities": list(self.attribute_priorities),
            "skill_priorities": list(self.skill_priorities),
            "attribute_priorities_auto": self.attribute_priorities_auto,
            "skill_priorities_auto": self.skill_priorities_auto,
            "attributes": [item.to_dict() for item in self.attributes],
            "skills": [item.to_dict() for item in self.skills],
            "merits": self.merits.to_dict(),
            "specialties": self.specialties.to_dict(),
            "problems": [problem.to_dict() for problem in self.problems],
        }


# Costs ----------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def attribute_points(rating: int) -> int:
    """Creation points for an attribute rating: dots over the free one, the fifth costs 2."""
    rating = min(max(rating, 1), 5)
    return rating - 1 + (1 if rating == 5 else 0)


def skill_points(rating: int) -> int:
    """Creation points for a skill rating: one per dot, the fifth costs 2."""
    rating = min(max(rating, 0), 5)
    return rating + (1 if rating == 5 else 0)


def _spent_by_category(ratings: Mapping[str, int], known: Mapping, cost) -> dict[str, int]:
    spent = dict.fromkeys(CATEGORY_KEYS, 0)
    for key, value in ratings.items():
        definition = known.get(key) if isinstance(key, str) else None
        if definition is not None and _is_int(value):
            spent[definition.category] += cost(value)
    return spent


def _merit_dots(merits: tuple) -> int:
    return sum(item[1] for item in merits if len(item) == 2 and _is_int(item[1]) and item[1] > 0)


# Priorities --------------------------------------------------------------------------


def _valid_priorities(priorities: tuple[str, ...] | None) -> bool:
    return (
        isinstance(priorities, tuple)
        and len(priorities) == len(CATEGORY_KEYS)
        and set(priorities) == set(CATEGORY_KEYS)
    )


def best_priorities(
    spent: Mapping[str, int], budgets: tuple[int, int, int]
) -> tuple[str, str, str]:
    """The assignment of categories to budgets (primary first) that fits best.

    Fewest categories off their budget first, then the least overspend, then the
    one that follows the order of points spent (so on a half-filled form the category
    with the most points is primary), then the seed's order Mental, Física, Social.
    """

    def score(order: tuple[str, ...]) -> tuple[int, int, int]:
        budget = {category: budgets[index] for index, category in enumerate(order)}
        off = sum(1 for category in order if spent[category] != budget[category])
        over = sum(max(spent[category] - budget[category], 0) for category in order)
        inversions = sum(
            1
            for first in order
            for second in order
            if budget[first] > budget[second] and spent[first] < spent[second]
        )
        return off, over, inversions

    # min() keeps the first of equal scores, and permutations() yields the seed's
    # order first.
    return min(permutations(CATEGORY_KEYS), key=score)  # type: ignore[return-value]


def _priorities(
    given: tuple[str, ...] | None, spent: Mapping[str, int], budgets: tuple[int, int, int]
) -> tuple[tuple[str, str, str], bool]:
    if _valid_priorities(given):
        return given, False  # type: ignore[return-value]
    return best_priorities(spent, budgets), True


def _category_points(
    group: str, priorities: tuple[str, ...], spent: Mapping[str, int], budgets
) -> tuple[CategoryPoints, ...]:
    by_category = {
        category: CategoryPoints(
            group, category, PRIORITIES[index], spent[category], budgets[index]
        )
        for index, category in enumerate(priorities)
    }
    return tuple(by_category[category] for category in CATEGORY_KEYS)


def _tally(draft: CreationDraft) -> CreationReport:
    attribute_spent = _spent_by_category(draft.attributes, _ATTRIBUTES, attribute_points)
    skill_spent = _spent_by_category(draft.skills, _SKILLS, skill_points)
    attribute_order, attribute_auto = _priorities(
        draft.attribute_priorities, attribute_spent, ATTRIBUTE_BUDGETS
    )
    skill_order, skill_auto = _priorities(draft.skill_priorities, skill_spent, SKILL_BUDGETS)
    return CreationReport(
        attribute_priorities=attribute_order,
        skill_priorities=skill_order,
        attribute_priorities_auto=attribute_auto,
        skill_priorities_auto=skill_auto,
        attributes=_category_points(
            "attributes", attribute_order, attribute_spent, ATTRIBUTE_BUDGETS
        ),
        skills=_category_points("skills", skill_order, skill_spent, SKILL_BUDGETS),
        merits=CategoryPoints("merits", "", "", _merit_dots(draft.merits), MERIT_DOTS),
        specialties=CategoryPoints(
            "specialties", "", "", len(draft.specialties), SPECIALTIES_REQUIRED
        ),
    )


def points_left(draft: CreationDraft) -> dict:
    """Points left in every budget, for a form to show as dots are clicked.

    {"attributes": {"mental": 2, "physical": 0, "social": -1}, "skills": {...},
    "merits": 3, "specialties": 1}; negative means overspent. Invalid entries
    (unknown keys, ratings that are not whole numbers) count as nothing; ratings out
    of range count as the nearest valid rating. Never raises.
    """
    return _tally(draft).left()


# Validation ------------------------------------------------------------------------------


def _rating_problems(
    kind: str, ratings: Mapping[str, int], known: Mapping, low: int
) -> list[Problem]:
    problems = []
    for key, value in ratings.items():
        definition = known.get(key) if isinstance(key, str) else None
        if definition is None:
            template = (
                gettext_noop("Unknown attribute “%(key)s”")
                if kind == "attribute"
                else gettext_noop("Unknown skill “%(key)s”")
            )
            problems.append(Problem(f"{kind}.{key}", template, {"key": key}))
        elif not _is_int(value):
            problems.append(
                Problem(
                    f"{kind}.{key}",
                    gettext_noop("%(name)s must be a whole number"),
                    {"name": definition.name},
                )
            )
        elif not low <= value <= definition.maximum:
            problems.append(
                Problem(
                    f"{kind}.{key}",
                    gettext_noop("%(name)s must be between %(low)s and %(high)s"),
                    {"name": definition.name, "low": low, "high": definition.maximum},
                )
            )
    return problems


def _budget_problems(points: tuple[CategoryPoints, ...]) -> list[Problem]:
    return [
        Problem(
            f"{item.group}.{item.category}",
            _BUDGET_TEMPLATES[(item.group, item.category)],
            {"spent": item.spent, "budget": item.budget},
        )
        for item in points
        if item.spent != item.budget
    ]


def _specialty_problems(draft: CreationDraft) -> list[Problem]:
    problems = []
    count = len(draft.specialties)
    if count != SPECIALTIES_REQUIRED:
        problems.append(
            Problem(
                "specialties",
                gettext_noop("Choose exactly %(required)s specialties (%(count)s chosen)"),
                {"required": SPECIALTIES_REQUIRED, "count": count},
            )
        )
    seen: set[tuple[str, str]] = set()
    for index, item in enumerate(draft.specialties):
        key = f"specialty.{index}"
        skill_key, text = (*item, "", "")[:2]
        name = text.strip() if isinstance(text, str) else ""
        if not name:
            problems.append(Problem(key, gettext_noop("A specialty needs a name")))
            continue
        if not isinstance(skill_key, str) or skill_key not in _SKILLS:
            problems.append(
                Problem(
                    key,
                    gettext_noop("Specialty “%(name)s” is on an unknown skill"),
                    {"name": name},
                )
            )
            continue
        rating = draft.skills.get(skill_key, 0)
        if not _is_int(rating) or rating < 1:
            problems.append(
                Problem(
                    key,
                    gettext_noop("Specialty “%(name)s” is on a skill with no dots"),
                    {"name": name, "skill": _SKILLS[skill_key].name},
                )
            )
        identity = (skill_key, name.casefold())
        if identity in seen:
            problems.append(
                Problem(key, gettext_noop("Specialty “%(name)s” is listed twice"), {"name": name})
            )
        seen.add(identity)
    return problems


def _merit_problems(draft: CreationDraft, total: CategoryPoints) -> list[Problem]:
    problems = []
    taken: Counter[str] = Counter()
    for index, item in enumerate(draft.merits):
        key = f"merit.{index}"
        if len(item) != 2:
            problems.append(Problem(key, gettext_noop("A merit needs a name and its dots")))
            continue
        name_or_key, dots = item
        label = name_or_key.strip() if isinstance(name_or_key, str) else ""
        if not label:
            problems.append(Problem(key, gettext_noop("A merit needs a name")))
            continue
        definition = find_merit(label)
        name = definition.name if definition else label
        ratings = definition.ratings if definition else CUSTOM_MERIT_RATINGS
        if not _is_int(dots):
            problems.append(
                Problem(key, gettext_noop("%(name)s must be a whole number"), {"name": name})
            )
        elif dots not in ratings:
            problems.append(
                Problem(
                    key,
                    gettext_noop("%(name)s cannot have %(dots)s dots (allowed: %(allowed)s)"),
                    {"name": name, "dots": dots, "allowed": format_ratings(ratings)},
                )
            )
        identity = definition.key if definition else slug(label)
        taken[identity] += 1
        if taken[identity] == 2 and not (definition and definition.repeatable):
            problems.append(
                Problem(key, gettext_noop("%(name)s is taken more than once"), {"name": name})
            )
    if total.spent != total.budget:
        problems.append(
            Problem(
                "merits",
                gettext_noop("Merits: %(spent)s dots spent of %(budget)s"),
                {"spent": total.spent, "budget": total.budget},
            )
        )
    return problems


def _choice_problems(
    field_name: str, value: str | None, known: Mapping, missing: str, unknown: str
) -> list[Problem]:
    if value is None or (isinstance(value, str) and not value.strip()):
        return [Problem(field_name, missing)]
    if not isinstance(value, str) or (value not in known and slug(value) not in known):
        return [Problem(field_name, unknown, {"key": value})]
    return []


def _rating_or_default(ratings: Mapping[str, int], key: str, default: int) -> int:
    value = ratings.get(key, default)
    return min(max(value, 1), 5) if _is_int(value) else default


def check_creation(draft: CreationDraft) -> CreationReport:
    """Points per budget and one Problem per broken creation rule (see the module doc)."""
    report = _tally(draft)
    problems: list[Problem] = []
    problems += _rating_problems("attribute", draft.attributes, _ATTRIBUTES, 1)
    if draft.attribute_priorities is not None and not _valid_priorities(draft.attribute_priorities):
        problems.append(
            Problem(
                "attribute_priorities",
                gettext_noop(
                    "Attribute priorities must list Mental, Physical and Social once each"
                ),
            )
        )
    problems += _budget_problems(report.attributes)
    problems += _rating_problems("skill", draft.skills, _SKILLS, 0)
    if draft.skill_priorities is not None and not _valid_priorities(draft.skill_priorities):
        problems.append(
            Problem(
                "skill_priorities",
                gettext_noop("Skill priorities must list Mental, Physical and Social once each"),
            )
        )
    problems += _budget_problems(report.skills)
    problems += _specialty_problems(draft)
    problems += _merit_problems(draft, report.merits)
    problems += _choice_problems(
        "virtue",
        draft.virtue,
        _VIRTUES,
        gettext_noop("Choose a Virtue"),
        gettext_noop("Unknown Virtue “%(key)s”"),
    )
    problems += _choice_problems(
        "vice",
        draft.vice,
        _VICES,
        gettext_noop("Choose a Vice"),
        gettext_noop("Unknown Vice “%(key)s”"),
    )
    if draft.willpower is not None:
        expected = _rating_or_default(draft.attributes, "aplomo", 1) + _rating_or_default(
            draft.attributes, "compostura", 1
        )
        if draft.willpower != expected:
            problems.append(
                Problem(
                    "willpower",
                    gettext_noop(
                        "Willpower must equal Aplomo + Compostura (%(expected)s), not %(willpower)s"
                    ),
                    {"expected": expected, "willpower": draft.willpower},
                )
            )
    return CreationReport(
        attribute_priorities=report.attribute_priorities,
        skill_priorities=report.skill_priorities,
        attribute_priorities_auto=report.attribute_priorities_auto,
        skill_priorities_auto=report.skill_priorities_auto,
        attributes=report.attributes,
        skills=report.skills,
        merits=report.merits,
        specialties=report.specialties,
        problems=tuple(problems),
    )
