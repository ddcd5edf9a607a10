from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mechanics.rules.objetivo import catalogue, health, traits
from mechanics.rules.objetivo.settings import SETTINGS
from mechanics.systems.base import (
    GameSystem,
    HealthChange,
    HealthView,
    ResourceSpec,
    TraitRoll,
    TraitSpec,
    hours_in_words,
)
from mechanics.systems.objetivo import creation, demo, destiny, sheet
from mechanics.systems.objetivo import health as health_ui
from mechanics.systems.objetivo.combat import ObjetivoCombat
from mechanics.systems.objetivo.display import ObjetivoWords
from mechanics.systems.objetivo.forms import ObjetivoRollForm, ObjetivoSideForm
from mechanics.systems.objetivo.rolls import ObjetivoSetup

DESTINY_POINTS = "destiny_points"
ATTRIBUTE = "attribute"
SKILL = "skill"


class ObjetivoSystem(GameSystem):
    """Dado objetivo: attribute and skill lists belong to the campaign (starter list default)."""

    key = "objetivo"
    name = "Dado objetivo (1o3d10)"
    house_rules = SETTINGS
    demo_campaign = demo.DEMO_CAMPAIGN
    demo_characters = demo.DEMO_CHARACTERS
    demo_chronicle = demo.DEMO_CHRONICLE
    stylesheet = "css/systems/objetivo.css"
    editable_trait_lists = True

    # --- Combat ---
    combat = ObjetivoCombat()

    # --- Rolls ---
    roll_setup = ObjetivoSetup()
    roll_form = ObjetivoRollForm
    side_form = ObjetivoSideForm
    display = ObjetivoWords()

    # --- Sheet, creation and advancement ---
    sheet_sections = sheet.SECTIONS
    creation_form = creation.ObjetivoCreationForm
    detail_labels = sheet.DETAIL_LABELS
    detail_fields = sheet.detail_fields
    specialization_once_per_scene = True
    # The seed has no advancement (docs/rules.md#objetivo-advancement).
    xp_without_purchases = gettext_lazy(
        "In Dado objetivo XP is a record and buys nothing: the GM raises traits on the sheet."
    )

    def trait_roll(self, spec: TraitSpec) -> TraitRoll | None:
        """An attribute roll of the clicked attribute, or a skill roll of the clicked skill
        with the panel's attribute, which the player is asked for."""
        if spec.kind == ATTRIBUTE:
            return TraitRoll({"kind": "attribute", "attribute": spec.key})
        if spec.kind == SKILL:
            return TraitRoll({"kind": "skill", "skill": spec.key}, ask="attribute")
        return None

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        custom = list(campaign.trait_lists.all()) if campaign is not None else []
        if not custom:
            return _STARTER
        low = {ATTRIBUTE: catalogue.ATTRIBUTES[0].minimum, SKILL: catalogue.SKILLS[0].minimum}
        high = {ATTRIBUTE: catalogue.ATTRIBUTES[0].maximum, SKILL: catalogue.SKILLS[0].maximum}
        return tuple(
            TraitSpec(
                t.key,
                t.name,
                t.kind,
                _CATEGORY[t.kind],
                low[t.kind],
                high[t.kind],
                t.description,
                custom=True,
            )
            for t in custom
        )

    def resource_specs(self, ratings, details, rules) -> tuple[ResourceSpec, ...]:
        return (ResourceSpec(DESTINY_POINTS, "Puntos de destino", None, 0),)

    def max_pv(self, ratings) -> int:
        return traits.pv(max(ratings.get("resistencia", 1), 1))

    def derived(self, ratings, details, rules, items=(), wound_penalty=0) -> list[tuple[str, str]]:
        destreza = ratings.get("destreza", 1)
        base = int(rules.get("defense_base", traits.DEFAULT_DEFENSE_BASE))
        rows = [("PV", str(self.max_pv(ratings)))]
        for key, label in (("armas_cc", "Defensa (Armas CC)"), ("pelea", "Defensa (Pelea)")):
            if key in ratings:
                rows.append((label, str(traits.defensa(destreza, ratings[key], base))))
        rows.append(
            (
                "Iniciativa",
                "%d + 1o3d10" % traits.initiative_base(destreza, ratings.get("percepcion", 1)),
            )
        )
        return rows

    def state(self, stored, ratings) -> health.ObjetivoHealth:
        """Stored PV against today's maximum (a changed Resistencia resizes the track)."""
        max_pv = self.max_pv(ratings)
        if not stored:
            return health.ObjetivoHealth(max_pv, max_pv)
        return health.resize(health.ObjetivoHealth.from_dict(dict(stored)), max_pv)

    def new_health(self, ratings, details, rules) -> dict:
        max_pv = self.max_pv(ratings)
        return health.ObjetivoHealth(max_pv, max_pv).to_dict()

    def clean_details(self, details, campaign) -> dict:
        cleaned = dict(details)
        # The scene it was last used in belongs to the campaign the sheet came from.
        cleaned.pop("specialization_used_scene", None)
        if not isinstance(cleaned.get("destiny_returned", False), bool):
            raise ValidationError(_("“destiny_returned” must be true or false."))
        chosen = cleaned.get("specialization")
        skills = {spec.key for spec in self.trait_specs(campaign) if spec.kind == SKILL}
        if chosen not in (None, "") and chosen not in skills:
            raise ValidationError(
                _("The specialization %(key)s is not a skill of this campaign.") % {"key": chosen},
                code="unknown_specialization",
            )
        return cleaned

    def clean_health(self, stored, ratings, details, rules) -> dict:
        if not stored:
            return self.new_health(ratings, details, rules)
        return self.state(stored, ratings).to_dict()

    def health_view(self, stored, ratings, details, rules) -> HealthView:
        state = self.state(stored, ratings)
        threshold = int(rules.get("incapacitated_threshold", 10))
        status = health.status(state, threshold)
        hours = health.hours_to_heal(state)
        return HealthView(
            state=status.name,
            penalty=status.level_shift,
            unconscious=status.unconscious,
            dead=status.dead,
            cannot_act=not status.can_act,
            time_to_heal=hours_in_words(hours),
            lines=(("PV", f"{state.pv}/{state.max_pv}"),),
        )

    def apply_damage(self, stored, ratings, details, rules, damage, rng=None) -> HealthChange:
        new = health.apply_damage(self.state(stored, ratings), damage.amount)
        return HealthChange(new.to_dict(), f"−{damage.amount} PV")

    def advance_time(self, stored, ratings, details, rules, hours, rested=True) -> HealthChange:
        # Rest given in pieces adds up: the engine keeps the hours short of a day.
        new = health.rest(self.state(stored, ratings), hours)
        return HealthChange(new.to_dict(), f"{hours} h")

    pool_actions = (destiny.HAND_BACK,)

    # --- Health ---
    damage_label = health_ui.DAMAGE_LABEL
    penalty_words = health_ui.penalty_words
    state_penalty = health_ui.state_penalty


_CATEGORY = {ATTRIBUTE: catalogue.ATTRIBUTE_CATEGORY, SKILL: catalogue.SKILL_CATEGORY}
_STARTER = tuple(
    TraitSpec(t.key, t.name, ATTRIBUTE, t.category, t.minimum, t.maximum, t.description)
    for t in catalogue.ATTRIBUTES
) + tuple(
    TraitSpec(t.key, t.name, SKILL, t.category, t.minimum, t.maximum, t.description)
    for t in catalogue.SKILLS
)
