from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import MappingProxyType

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mechanics.rules.hitos import catalogue, health, traits
from mechanics.rules.hitos.rolls import highest_rd
from mechanics.rules.hitos.settings import SETTINGS
from mechanics.systems.base import (
    GameSystem,
    HealthChange,
    HealthView,
    ResourceSpec,
    TraitRoll,
    TraitSpec,
    hours_in_words,
)
from mechanics.systems.hitos import advancement as purchases
from mechanics.systems.hitos import creation, demo, sessions, sheet, views
from mechanics.systems.hitos import health as health_ui
from mechanics.systems.hitos.combat import HitosCombat
from mechanics.systems.hitos.display import HitosWords
from mechanics.systems.hitos.forms import HitosRollForm
from mechanics.systems.hitos.rolls import HitosSetup, after_hitos_roll

DRAMA_POINTS = "drama_points"


class HitosSystem(GameSystem):
    key = "hitos"
    name = "Hitos"
    house_rules = SETTINGS
    demo_campaign = demo.DEMO_CAMPAIGN
    demo_characters = demo.DEMO_CHARACTERS
    demo_chronicle = demo.DEMO_CHRONICLE

    # --- Combat ---
    combat = HitosCombat()

    # --- Rolls ---
    roll_setup = HitosSetup()
    roll_form = HitosRollForm
    display = HitosWords()

    # --- Sheet, creation and advancement ---
    sheet_sections = sheet.SECTIONS
    creation_form = creation.HitosCreationForm
    concept_aspect = creation.CONCEPT_ASPECT
    advancement = purchases.DramaSacrifice(pool=DRAMA_POINTS)
    campaign_options = MappingProxyType({purchases.SETTING: purchases.SETTING_HELP})
    stylesheet = "css/systems/hitos.css"
    urlpatterns = views.urlpatterns
    scene_pages = (("hitos:scene", gettext_lazy("Situation aspects and narrative facts")),)

    def trait_roll(self, spec: TraitSpec) -> TraitRoll | None:
        """A check of the clicked characteristic or skill; a skill keeps the panel's
        characteristic and asks for it (the situation decides which one applies)."""
        if spec.kind == "characteristic":
            return TraitRoll({"kind": "check", "characteristic": spec.key})
        if spec.kind == "skill":
            return TraitRoll({"kind": "check", "skill": spec.key}, ask="characteristic")
        return None

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        return _SPECS

    def resource_specs(self, ratings, details, rules) -> tuple[ResourceSpec, ...]:
        start = int(rules.get("starting_drama_points", 3))
        return (ResourceSpec(DRAMA_POINTS, "Puntos dramáticos", None, start),)

    def aguante(self, ratings) -> int:
        return traits.aguante(ratings.get("fortaleza", 1), ratings.get("voluntad", 1))

    def derived(self, ratings, details, rules, items=(), wound_penalty=0) -> list[tuple[str, str]]:
        aguante = self.aguante(ratings)
        return [
            ("Aguante", str(aguante)),
            ("Resistencia", str(traits.resistencia_max(aguante))),
            (
                "Defensa",
                # With the wound penalty, as the combat panel uses it (RULES 6).
                str(
                    traits.defensa(
                        ratings.get("reflejos", 1),
                        ratings.get("combate", 0),
                        max(wound_penalty, -5),
                    )
                ),
            ),
            (
                "Iniciativa",
                "%d + C"
                % traits.initiative_base(ratings.get("reflejos", 1), ratings.get("intelecto", 1)),
            ),
            ("RD", str(highest_rd(sheet.armour_rds(items)))),
        ]

    def clean_item(self, kind, name, weight_kg, data) -> dict:
        """Plain items, and armours with their RD (what an attack on the character
        subtracts: docs/rules.md#hitos-damage)."""
        if kind == "item" and not data:
            return {}
        if kind == "armour" and set(data) == {"rd"}:
            return {"rd": highest_rd(data["rd"])}
        raise ValidationError(
            _("%(name)s: a Hitos sheet keeps plain items and armours with their RD.")
            % {"name": name},
            code="item_kind",
        )

    def state(self, stored, ratings) -> health.HitosHealth:
        """Stored health with today's Aguante (lost points stay, capped by the new maximum)."""
        aguante = self.aguante(ratings)
        if not stored:
            return health.HitosHealth(aguante=aguante)
        state = health.HitosHealth.from_dict(dict(stored))
        if state.aguante != aguante:
            state = dataclasses.replace(state, aguante=aguante, lost=min(state.lost, 3 * aguante))
        return state

    def new_health(self, ratings, details, rules) -> dict:
        return health.HitosHealth(aguante=self.aguante(ratings)).to_dict()

    def clean_health(self, stored, ratings, details, rules) -> dict:
        if not stored:
            return self.new_health(ratings, details, rules)
        state = health.HitosHealth.from_dict(dict(stored))
        # Lost Resistencia must fit this sheet's Aguante (the engine checks it again).
        return dataclasses.replace(state, aguante=self.aguante(ratings)).to_dict()

    def clean_details(self, details, campaign) -> dict:
        cleaned = dict(details)
        # Rolls whose temporary aspect was taken belong to the campaign the sheet came from.
        cleaned.pop("aspect_rolls", None)
        return cleaned

    def aspect_slots(self) -> dict[str, int | None]:
        return {kind.key: kind.slots for kind in catalogue.ASPECT_KINDS}

    def health_view(self, stored, ratings, details, rules) -> HealthView:
        state = self.state(stored, ratings)
        to_full = health.time_to_full(state, periods=health.period_table(rules))
        return HealthView(
            state=state.state.name,
            penalty=state.penalty,
            cannot_act=not state.can_act,
            time_to_heal=hours_in_words(int(to_full) if isinstance(to_full, Fraction) else None),
            lines=(
                ("Resistencia", f"{state.resistencia}/{state.resistencia_max}"),
                ("Aguante", str(state.aguante)),
                *health_ui.secuela_lines(state),
            ),
            states=state.temporary_aspects,
        )

    def apply_damage(self, stored, ratings, details, rules, damage, rng=None) -> HealthChange:
        net = max(0, damage.amount - damage.rd)
        new, test = health.apply_damage(
            self.state(stored, ratings),
            net,
            rng,
            critical=damage.critical or None,
            equal_succeeds=bool(rules.get("equal_succeeds")),
        )
        return HealthChange(new.to_dict(), f"{net} (RD {damage.rd})", test)

    def advance_time(self, stored, ratings, details, rules, hours, rested=True) -> HealthChange:
        # Resting less than 75 % of the time heals at the next worse state's pace.
        new = health.heal(
            self.state(stored, ratings),
            hours,
            rest_fraction=1 if rested else 0,
            periods=health.period_table(rules),
        )
        return HealthChange(new.to_dict(), f"{hours} h")

    after_roll = after_hitos_roll
    end_scene = sessions.end_scene
    end_session = sessions.end_session

    # --- Health ---
    treatments = health_ui.TREATMENTS
    rest_question = health_ui.REST_QUESTION
    damage_label = health_ui.DAMAGE_LABEL
    damage_fields = health_ui.damage_fields
    after_health_change = health_ui.sync_health_aspects


_SPECS = tuple(
    TraitSpec(t.key, t.name, "characteristic", "Características", t.minimum, t.maximum)
    for t in catalogue.CHARACTERISTICS
) + tuple(
    TraitSpec(t.key, t.name, "skill", "Habilidades", t.minimum, t.maximum) for t in catalogue.SKILLS
)
