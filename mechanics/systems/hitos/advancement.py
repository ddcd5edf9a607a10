"""Hitos: a drama point, given up for good, raises a skill by one, when the campaign
allows it (`Campaign.hitos_drama_sacrifice`); priced by the engine
(`mechanics/rules/hitos/advancement.py`)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.advancement import Kind, Option, PurchaseSpec, Quote, refuse, rule_error
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import advancement
from mechanics.rules.hitos.catalogue import SKILL_MAX
from mechanics.systems.base import Advancement

# The campaign setting that allows it, with its help text on the campaign form.
SETTING = "hitos_drama_sacrifice"
SETTING_HELP = gettext_lazy(
    "Hitos only: one drama point, given up for good, raises a skill by one."
)


class DramaSacrifice(Advancement):
    kinds = frozenset({Kind.DRAMA})
    title = gettext_lazy("Raise a skill with a drama point")
    template = "systems/hitos/xp_purchase.html"

    def __init__(self, *, pool: str) -> None:
        self.pool = pool

    def available(self, campaign) -> bool:
        return getattr(campaign, SETTING)

    def quote(self, character, spec: PurchaseSpec, *, ratings=None) -> Quote:
        trait = next((t for t in character.traits.all() if t.key == spec.key), None)
        if trait is None:
            raise refuse(_("Unknown trait: %(key)s.") % {"key": spec.key}, "unknown_trait")
        campaign = character.campaign
        trait_spec = campaign.game_system.trait_spec(campaign, spec.key)
        name = trait.name or (trait_spec.name if trait_spec else spec.key)
        maximum = trait_spec.maximum if trait_spec else SKILL_MAX
        current = ratings.get(spec.key, trait.rating) if ratings is not None else trait.rating
        try:
            cost = advancement.drama_sacrifice_cost(trait.kind, current, maximum=maximum)
        except RuleError as error:
            raise rule_error(error) from None
        return Quote(Kind.DRAMA, spec.key, name, current, current + 1, cost, pool=self.pool)

    def purchase_context(self, character, traits) -> dict:
        """The skills a drama point can raise, and the points left; {} when none can."""
        campaign = character.campaign
        system = campaign.game_system
        options = []
        for trait in traits:
            if trait.kind != "skill":
                continue
            spec = system.trait_spec(campaign, trait.key)
            name = trait.name or (spec.name if spec else trait.key)
            maximum = spec.maximum if spec else SKILL_MAX
            try:
                cost = advancement.drama_sacrifice_cost("skill", trait.rating, maximum=maximum)
            except RuleError:
                continue
            options.append(Option(trait.key, f"{name} {trait.rating} → {trait.rating + 1}", cost))
        if not options:
            return {}
        pool = next((r.current for r in character.resources.all() if r.key == self.pool), 0)
        return {"drama_options": options, "drama_pool": pool}
