"""What a purchase with XP (or a Hitos drama point) would buy and what it costs.

The adapter between a stored sheet and the engine's advancement rules
(`mechanics/rules/tinieblas/advancement.py`, `mechanics/rules/hitos/advancement.py`):
it reads the sheet, asks the engine for the cost and says what the purchase would
change. Read-only; `characters.services` applies purchases.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from characters.models import Character, Merit, Specialty, Trait, XpPurchase
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import advancement as hitos_advancement
from mechanics.rules.hitos.catalogue import SKILL_MAX as HITOS_SKILL_MAX
from mechanics.rules.tinieblas import advancement, catalogue
from mechanics.rules.tinieblas.catalogue import XP_DIARIO, XP_IDEAS, XP_INTERPRETACION
from mechanics.systems.registry import get_system
from mechanics.systems.tinieblas.system import MORALITY, WILLPOWER

Kind = XpPurchase.Kind
XP_KINDS = (
    Kind.ATTRIBUTE,
    Kind.SKILL,
    Kind.SPECIALTY,
    Kind.MERIT,
    Kind.MORALITY,
    Kind.WILLPOWER,
)
# Kinds that raise one rated trait (Trait rows), and the engine's name for each.
_ENGINE_TRAIT = {
    Kind.ATTRIBUTE: "attribute",
    Kind.SKILL: "skill",
    Kind.MORALITY: "morality",
    Kind.WILLPOWER: "willpower",
}
SPECIALTY_MAX_LENGTH = 80
MERIT_NAME_MAX_LENGTH = 80


@dataclass(frozen=True)
class PurchaseSpec:
    """What the player asks for: a kind, a key and, for specialties and merits, a name."""

    kind: str
    key: str = ""
    name: str = ""


@dataclass(frozen=True)
class Quote:
    """A purchase checked against the sheet, with the engine's cost."""

    kind: str
    key: str
    name: str
    current: int
    target: int
    cost: int
    # The merit row raised, when the sheet already has the merit.
    merit_id: int | None = None

    @property
    def uses_drama_points(self) -> bool:
        return self.kind == Kind.DRAMA

    @property
    def is_new(self) -> bool:
        return self.current == 0

    @property
    def label(self) -> str:
        """ "Sigilo 2 → 3", "Especialidad de Sigilo: Tejados", "Recursos 0 → 1"."""
        if self.kind == Kind.SPECIALTY:
            skill = catalogue.skill(self.key).name
            return _("Specialty of %(skill)s: %(name)s") % {"skill": skill, "name": self.name}
        return f"{self.name} {self.current} → {self.target}"

    def as_spec(self) -> PurchaseSpec:
        return PurchaseSpec(kind=self.kind, key=self.key, name=self.name)


def _refuse(message: str, code: str) -> ValidationError:
    return ValidationError(message, code=code)


def _rule_error(error: RuleError) -> ValidationError:
    return ValidationError(error.translated(_) + ".", code="rule")


def trait_kind(character: Character, key: str) -> str | None:
    """The purchase kind that raises trait `key` on a Mundo de Tinieblas sheet."""
    if key == MORALITY:
        return Kind.MORALITY
    if key == WILLPOWER:
        return Kind.WILLPOWER
    spec = get_system(character.campaign.system).trait_spec(character.campaign, key)
    if spec is None:
        return None
    return {"attribute": Kind.ATTRIBUTE, "skill": Kind.SKILL}.get(spec.kind)


def may_buy_with_xp(character: Character) -> bool:
    """Only Mundo de Tinieblas prices purchases in XP."""
    return character.campaign.system == "tinieblas"


def may_sacrifice_drama(character: Character) -> bool:
    campaign = character.campaign
    return campaign.system == "hitos" and campaign.hitos_drama_sacrifice


def quote(
    character: Character,
    spec: PurchaseSpec,
    *,
    ratings: Mapping[str, int] | None = None,
    merits: Iterable[Merit] | None = None,
    specialties: Iterable[Specialty] | None = None,
) -> Quote:
    """Check `spec` against the sheet and price it with the engine.

    The sheet's ratings, merits and specialties may be passed in when the caller has
    them already (the purchase form prices every option at once); otherwise they are
    read. Raises ValidationError with a message for the player.
    """
    kind = spec.kind
    if kind == Kind.DRAMA:
        return _quote_drama(character, spec, ratings)
    if kind not in XP_KINDS:
        raise _refuse(_("Unknown kind of purchase."), "unknown_kind")
    if not may_buy_with_xp(character):
        raise _refuse(_("This rule system has no purchases with XP."), "no_xp_purchases")
    if ratings is None:
        ratings = {t.key: t.rating for t in Trait.objects.filter(character=character)}
    if kind == Kind.SPECIALTY:
        return _quote_specialty(character, spec, ratings, specialties)
    if kind == Kind.MERIT:
        return _quote_merit(character, spec, merits)
    return _quote_trait(character, spec, ratings)


def _quote_trait(character: Character, spec: PurchaseSpec, ratings: Mapping[str, int]) -> Quote:
    trait = get_system(character.campaign.system).trait_spec(character.campaign, spec.key)
    if trait is None or trait_kind(character, spec.key) != spec.kind:
        raise _refuse(_("Unknown trait: %(key)s.") % {"key": spec.key}, "unknown_trait")
    current = ratings.get(spec.key, trait.minimum)
    try:
        cost = advancement.xp_cost(_ENGINE_TRAIT[spec.kind], current)
    except RuleError as error:
        raise _rule_error(error) from None
    return Quote(spec.kind, spec.key, trait.name, current, current + 1, cost)


def _quote_specialty(
    character: Character,
    spec: PurchaseSpec,
    ratings: Mapping[str, int],
    specialties: Iterable[Specialty] | None,
) -> Quote:
    name = " ".join(spec.name.split())
    try:
        skill = catalogue.skill(spec.key)
    except RuleError:
        raise _refuse(_("Choose a skill for the specialty."), "unknown_skill") from None
    if ratings.get(skill.key, 0) < 1:
        raise _refuse(_("A specialty needs a skill with at least one dot."), "skill_without_dots")
    if not name:
        raise _refuse(_("Write the specialty."), "empty_specialty")
    if len(name) > SPECIALTY_MAX_LENGTH:
        raise _refuse(
            _("A specialty has at most %(count)s characters.") % {"count": SPECIALTY_MAX_LENGTH},
            "specialty_too_long",
        )
    if specialties is None:
        specialties = Specialty.objects.filter(character=character, skill_key=skill.key)
    if any(s.skill_key == skill.key and s.name.casefold() == name.casefold() for s in specialties):
        raise _refuse(
            _("%(skill)s already has the specialty %(name)s.")
            % {"skill": skill.name, "name": name},
            "duplicate_specialty",
        )
    try:
        cost = advancement.xp_cost("specialty", 0)
    except RuleError as error:  # pragma: no cover - the engine accepts 0
        raise _rule_error(error) from None
    return Quote(Kind.SPECIALTY, skill.key, name, 0, 1, cost)


def _quote_merit(character: Character, spec: PurchaseSpec, merits: Iterable[Merit] | None) -> Quote:
    if merits is None:
        merits = Merit.objects.filter(character=character)
    merits = list(merits)
    name = " ".join(spec.name.split())
    definition = None
    if spec.key:
        definition = catalogue.find_merit(spec.key)
        if definition is None:
            raise _refuse(_("Unknown merit: %(key)s.") % {"key": spec.key}, "unknown_merit")
        name = name or definition.name
    elif not name:
        raise _refuse(_("Write the name of the merit."), "empty_merit")
    if len(name) > MERIT_NAME_MAX_LENGTH:
        raise _refuse(
            _("A merit's name has at most %(count)s characters.")
            % {"count": MERIT_NAME_MAX_LENGTH},
            "merit_name_too_long",
        )
    key = definition.key if definition else ""
    held = next((m for m in merits if m.key == key and m.name.casefold() == name.casefold()), None)
    if held is None and definition is not None and not definition.repeatable:
        # A merit taken once per sheet: buying it again raises the one the sheet has.
        held = next((m for m in merits if m.key == key), None)
    if held is not None:
        name = held.name
    current = held.rating if held else 0
    try:
        cost = advancement.xp_cost("merit", current, merit_key=key or None)
    except RuleError as error:
        raise _rule_error(error) from None
    ratings = definition.ratings if definition else catalogue.CUSTOM_MERIT_RATINGS
    target = next(rating for rating in ratings if rating > current)
    return Quote(Kind.MERIT, key, name, current, target, cost, held.pk if held else None)


def _quote_drama(
    character: Character, spec: PurchaseSpec, ratings: Mapping[str, int] | None
) -> Quote:
    if not may_sacrifice_drama(character):
        raise _refuse(
            _("This campaign does not allow raising skills with drama points."), "no_drama"
        )
    trait = Trait.objects.filter(character=character, key=spec.key).first()
    if trait is None:
        raise _refuse(_("Unknown trait: %(key)s.") % {"key": spec.key}, "unknown_trait")
    system = get_system(character.campaign.system)
    trait_spec = system.trait_spec(character.campaign, spec.key)
    name = trait.name or (trait_spec.name if trait_spec else spec.key)
    maximum = trait_spec.maximum if trait_spec else HITOS_SKILL_MAX
    current = ratings.get(spec.key, trait.rating) if ratings is not None else trait.rating
    try:
        cost = hitos_advancement.drama_sacrifice_cost(trait.kind, current, maximum=maximum)
    except RuleError as error:
        raise _rule_error(error) from None
    return Quote(Kind.DRAMA, spec.key, name, current, current + 1, cost)


# What the purchase form offers ----------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One choice in a purchase list: its value, label and cost (None: cannot be bought)."""

    value: str
    label: str
    cost: int | None
    note: str = ""


def trait_options(
    character: Character, ratings: Mapping[str, int]
) -> list[tuple[str, list[Option]]]:
    """Every trait of a Mundo de Tinieblas sheet with its next step's price, grouped."""
    system = get_system(character.campaign.system)
    groups: list[tuple[str, list[Option]]] = []
    for label, specs in system.trait_groups(character.campaign):
        options = []
        for trait in specs:
            kind = trait_kind(character, trait.key)
            if kind is None:
                continue
            current = ratings.get(trait.key, trait.minimum)
            try:
                cost = advancement.xp_cost(_ENGINE_TRAIT[kind], current)
            except RuleError:
                options.append(Option(trait.key, f"{trait.name} {current}", None, _("maximum")))
                continue
            note = _("new skill") if kind == Kind.SKILL and current == 0 else ""
            options.append(Option(trait.key, f"{trait.name} {current} → {current + 1}", cost, note))
        if options:
            groups.append((label, options))
    return groups


def merit_options(merits: Iterable[Merit]) -> list[tuple[str, list[Option]]]:
    """The sheet's merits that XP can raise, and the catalogue merits it can buy."""
    held = list(merits)
    raise_options = []
    for merit in held:
        try:
            cost = advancement.xp_cost("merit", merit.rating, merit_key=merit.key or None)
        except RuleError:
            continue
        raise_options.append(
            Option(
                f"{merit.key}|{merit.name}",
                f"{merit.name} {merit.rating} → {_next_merit_rating(merit)}",
                cost,
            )
        )
    held_keys = {merit.key for merit in held if merit.key}
    new_options = []
    for definition in catalogue.MERITS:
        if definition.creation_only:
            continue
        if definition.key in held_keys and not definition.repeatable:
            continue
        cost = advancement.xp_cost("merit", 0, merit_key=definition.key)
        new_options.append(
            Option(
                f"{definition.key}|",
                f"{definition.name} ({definition.ratings_text})",
                cost,
            )
        )
    groups = []
    if raise_options:
        groups.append((_("Raise a merit you have"), raise_options))
    groups.append((_("New merit"), new_options))
    return groups


def _next_merit_rating(merit: Merit) -> int:
    definition = catalogue.find_merit(merit.key) if merit.key else None
    ratings = definition.ratings if definition else catalogue.CUSTOM_MERIT_RATINGS
    return next(rating for rating in ratings if rating > merit.rating)


def drama_options(character: Character, traits: Iterable[Trait]) -> list[Option]:
    """Skills of a Hitos sheet that a drama point can raise."""
    system = get_system(character.campaign.system)
    options = []
    for trait in traits:
        if trait.kind != "skill":
            continue
        spec = system.trait_spec(character.campaign, trait.key)
        name = trait.name or (spec.name if spec else trait.key)
        maximum = spec.maximum if spec else HITOS_SKILL_MAX
        try:
            cost = hitos_advancement.drama_sacrifice_cost("skill", trait.rating, maximum=maximum)
        except RuleError:
            continue
        options.append(Option(trait.key, f"{name} {trait.rating} → {trait.rating + 1}", cost))
    return options


# How an award reads ----------------------------------------------------------------------

_RUBRIC_LABELS = {
    "interpretacion": XP_INTERPRETACION.name,
    "ideas": XP_IDEAS.name,
    "diario": XP_DIARIO.name,
    "universo": "Universo",
    "constancia": "Constancia",
    "sobornos": "Sobornos",
}


@dataclass(frozen=True)
class RubricLine:
    key: str
    label: str
    points: int
    caption: str  # the seed's caption for the level given, first sentence only

    @property
    def short(self) -> str:
        head, sep, _rest = self.caption.partition(". ")
        return head if sep else self.caption.rstrip(".")


def rubric_lines(rubric: Mapping | None) -> list[RubricLine]:
    """The rubric of an award as the engine itemises it; [] for a plain amount or bad data."""
    if not rubric:
        return []
    try:
        award = advancement.SceneAward.from_dict(dict(rubric))
    except (RuleError, KeyError, TypeError):
        return []
    return [
        RubricLine(key, _RUBRIC_LABELS[key], points, caption)
        for key, caption, points in advancement.award_breakdown(award)
    ]
