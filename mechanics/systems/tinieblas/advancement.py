"""Mundo de Tinieblas purchases with XP: attributes, skills, specialties, merits,
Moralidad and Fuerza de Voluntad, priced by the engine
(`mechanics/rules/tinieblas/advancement.py`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.advancement import Kind, Option, PurchaseSpec, Quote, refuse, rule_error
from characters.models import Merit
from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas import advancement, catalogue
from mechanics.systems.base import Advancement

# Kinds that raise one rated trait (Trait rows), and the engine's name for each.
_ENGINE_TRAIT = {
    Kind.ATTRIBUTE: "attribute",
    Kind.SKILL: "skill",
    Kind.MORALITY: "morality",
    Kind.WILLPOWER: "willpower",
}
SPECIALTY_MAX_LENGTH = 80
MERIT_NAME_MAX_LENGTH = 80


class XpPurchases(Advancement):
    kinds = frozenset(
        {Kind.ATTRIBUTE, Kind.SKILL, Kind.SPECIALTY, Kind.MERIT, Kind.MORALITY, Kind.WILLPOWER}
    )
    title = gettext_lazy("Spend XP")
    template = "systems/tinieblas/xp_purchase.html"

    def __init__(self, *, willpower: str, morality: str) -> None:
        self.by_key = {willpower: Kind.WILLPOWER, morality: Kind.MORALITY}

    def trait_kind(self, character, key: str) -> str | None:
        if key in self.by_key:
            return self.by_key[key]
        spec = character.campaign.game_system.trait_spec(character.campaign, key)
        if spec is None:
            return None
        return {"attribute": Kind.ATTRIBUTE, "skill": Kind.SKILL}.get(spec.kind)

    def quote(self, character, spec: PurchaseSpec, *, ratings=None) -> Quote:
        if ratings is None:
            ratings = {t.key: t.rating for t in character.traits.all()}
        if spec.kind == Kind.SPECIALTY:
            return self._quote_specialty(character, spec, ratings)
        if spec.kind == Kind.MERIT:
            return self._quote_merit(character, spec)
        return self._quote_trait(character, spec, ratings)

    def _quote_trait(self, character, spec: PurchaseSpec, ratings: Mapping[str, int]) -> Quote:
        campaign = character.campaign
        trait = campaign.game_system.trait_spec(campaign, spec.key)
        if trait is None or self.trait_kind(character, spec.key) != spec.kind:
            raise refuse(_("Unknown trait: %(key)s.") % {"key": spec.key}, "unknown_trait")
        current = ratings.get(spec.key, trait.minimum)
        try:
            cost = advancement.xp_cost(_ENGINE_TRAIT[spec.kind], current)
        except RuleError as error:
            raise rule_error(error) from None
        return Quote(spec.kind, spec.key, trait.name, current, current + 1, cost)

    def _quote_specialty(self, character, spec: PurchaseSpec, ratings: Mapping[str, int]) -> Quote:
        name = " ".join(spec.name.split())
        try:
            skill = catalogue.skill(spec.key)
        except RuleError:
            raise refuse(_("Choose a skill for the specialty."), "unknown_skill") from None
        if ratings.get(skill.key, 0) < 1:
            raise refuse(
                _("A specialty needs a skill with at least one dot."), "skill_without_dots"
            )
        if not name:
            raise refuse(_("Write the specialty."), "empty_specialty")
        if len(name) > SPECIALTY_MAX_LENGTH:
            raise refuse(
                _("A specialty has at most %(count)s characters.")
                % {"count": SPECIALTY_MAX_LENGTH},
                "specialty_too_long",
            )
        held = character.specialties.all()
        if any(s.skill_key == skill.key and s.name.casefold() == name.casefold() for s in held):
            raise refuse(
                _("%(skill)s already has the specialty %(name)s.")
                % {"skill": skill.name, "name": name},
                "duplicate_specialty",
            )
        try:
            cost = advancement.xp_cost("specialty", 0)
        except RuleError as error:  # pragma: no cover - the engine accepts 0
            raise rule_error(error) from None
        return Quote(Kind.SPECIALTY, skill.key, name, 0, 1, cost, skill_name=skill.name)

    def _quote_merit(self, character, spec: PurchaseSpec) -> Quote:
        merits = list(character.merits.all())
        name = " ".join(spec.name.split())
        definition = None
        if spec.key:
            definition = catalogue.find_merit(spec.key)
            if definition is None:
                raise refuse(_("Unknown merit: %(key)s.") % {"key": spec.key}, "unknown_merit")
            if not name and definition.repeatable and spec.detail:
                # One per language, group of allies…: "Idioma (francés)".
                name = f"{definition.name} ({spec.detail})"
            name = name or definition.name
        elif not name:
            raise refuse(_("Write the name of the merit."), "empty_merit")
        if len(name) > MERIT_NAME_MAX_LENGTH:
            raise refuse(
                _("A merit's name has at most %(count)s characters.")
                % {"count": MERIT_NAME_MAX_LENGTH},
                "merit_name_too_long",
            )
        key = definition.key if definition else ""
        held = next(
            (m for m in merits if m.key == key and m.name.casefold() == name.casefold()), None
        )
        if held is None and definition is not None and not definition.repeatable:
            # A merit taken once per sheet: buying it again raises the one the sheet has.
            held = next((m for m in merits if m.key == key), None)
        if held is not None:
            name = held.name
        current = held.rating if held else 0
        try:
            cost = advancement.xp_cost("merit", current, merit_key=key or None)
        except RuleError as error:
            raise rule_error(error) from None
        ratings = definition.ratings if definition else catalogue.CUSTOM_MERIT_RATINGS
        target = next(rating for rating in ratings if rating > current)
        return Quote(Kind.MERIT, key, name, current, target, cost, held.pk if held else None)

    # What the purchase form offers --------------------------------------------------------

    def purchase_context(self, character, traits) -> dict:
        # The quote reads the same rows: one query each for the whole page.
        prefetch_related_objects([character], "merits", "specialties")
        ratings = {trait.key: trait.rating for trait in traits}
        campaign = character.campaign
        names = {spec.key: spec.name for spec in campaign.game_system.trait_specs(campaign)}
        return {
            "trait_options": self._trait_options(character, ratings),
            "merit_options": _merit_options(character.merits.all()),
            "specialty_skills": [
                (trait.key, names.get(trait.key, trait.key), trait.rating)
                for trait in traits
                if trait.kind == "skill" and trait.rating >= 1
            ],
        }

    def _trait_options(self, character, ratings) -> list[tuple[str, list[Option]]]:
        """Every trait with its next step's price, grouped."""
        campaign = character.campaign
        groups: list[tuple[str, list[Option]]] = []
        for label, specs in campaign.game_system.trait_groups(campaign):
            options = []
            for trait in specs:
                kind = self.trait_kind(character, trait.key)
                if kind is None:
                    continue
                current = ratings.get(trait.key, trait.minimum)
                try:
                    cost = advancement.xp_cost(_ENGINE_TRAIT[kind], current)
                except RuleError:
                    options.append(Option(trait.key, f"{trait.name} {current}", None, _("maximum")))
                    continue
                note = _("new skill") if kind == Kind.SKILL and current == 0 else ""
                options.append(
                    Option(trait.key, f"{trait.name} {current} → {current + 1}", cost, note)
                )
            if options:
                groups.append((label, options))
        return groups


def _merit_options(merits: Iterable[Merit]) -> list[tuple[str, list[Option]]]:
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
            Option(f"{definition.key}|", f"{definition.name} ({definition.ratings_text})", cost)
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
