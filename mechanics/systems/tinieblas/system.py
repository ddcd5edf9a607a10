from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mechanics.rules.tinieblas import catalogue, creation, health, traits
from mechanics.rules.tinieblas.settings import SETTINGS
from mechanics.systems.base import (
    GameSystem,
    HealthChange,
    HealthView,
    ResourceSpec,
    TraitRoll,
    TraitSpec,
    duration_in_words,
)
from mechanics.systems.tinieblas import advancement as purchases
from mechanics.systems.tinieblas import creation as creation_forms
from mechanics.systems.tinieblas import demo, sheet
from mechanics.systems.tinieblas import health as health_ui
from mechanics.systems.tinieblas.combat import TinieblasCombat
from mechanics.systems.tinieblas.display import TinieblasWords
from mechanics.systems.tinieblas.forms import TinieblasRollForm, TinieblasSideForm
from mechanics.systems.tinieblas.rolls import TinieblasSetup, check_extended_roll
from mechanics.systems.tinieblas.xp import TinieblasRubric

WILLPOWER = "fuerza_de_voluntad"
MORALITY = "moralidad"


class TinieblasSystem(GameSystem):
    key = "tinieblas"
    name = "Mundo de Tinieblas"
    house_rules = SETTINGS
    demo_campaign = demo.DEMO_CAMPAIGN
    demo_characters = demo.DEMO_CHARACTERS
    demo_chronicle = demo.DEMO_CHRONICLE
    scene_rubric = TinieblasRubric()
    xp_rubric_default = True

    # --- Combat ---
    combat = TinieblasCombat()

    # --- Rolls ---
    roll_setup = TinieblasSetup()
    roll_form = TinieblasRollForm
    side_form = TinieblasSideForm
    display = TinieblasWords()
    free_roll_pools = True

    # --- Sheet, creation and advancement ---
    sheet_sections = sheet.SECTIONS
    creation_form = creation_forms.TinieblasCreationForm
    advancement = purchases.XpPurchases(willpower=WILLPOWER, morality=MORALITY)
    scene_end_pool = "willpower"
    stylesheet = "css/systems/tinieblas.css"
    detail_labels = sheet.DETAIL_LABELS
    detail_fields = sheet.detail_fields

    def after_roll(self, character, user, record) -> list[dict]:
        check_extended_roll(character, record)
        return []

    def trait_roll(self, spec: TraitSpec) -> TraitRoll | None:
        """A pool of the clicked attribute or skill; a skill keeps the panel's attribute and
        asks for it (no skill has a fixed attribute: docs/rules.md#tinieblas-rolls)."""
        if spec.kind == "attribute":
            return TraitRoll({"kind": "pool", "attribute": spec.key})
        if spec.kind == "skill":
            return TraitRoll({"kind": "pool", "skill": spec.key}, ask="attribute")
        return None

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        return _SPECS

    def initial_ratings(self, campaign, chosen=None) -> dict[str, int]:
        """Moralidad starts at 7 and Willpower at Aplomo + Compostura unless chosen."""
        chosen = chosen or {}
        ratings = super().initial_ratings(campaign, chosen)
        if MORALITY not in chosen:
            ratings[MORALITY] = traits.MORALIDAD_START
        if WILLPOWER not in chosen:
            ratings[WILLPOWER] = traits.starting_willpower(ratings["aplomo"], ratings["compostura"])
        return ratings

    def resource_specs(self, ratings, details, rules) -> tuple[ResourceSpec, ...]:
        permanent = ratings.get(WILLPOWER, 1)
        return (ResourceSpec("willpower", "Fuerza de Voluntad", permanent, permanent),)

    def derived(self, ratings, details, rules, items=(), wound_penalty=0) -> list[tuple[str, str]]:
        attributes = {a.key: ratings.get(a.key, 1) for a in catalogue.ATTRIBUTES}
        values = traits.derived(
            attributes,
            int(details.get("tamano", traits.TAMANO_DEFAULT)),
            health_from_stamina=bool(rules.get("health_from_stamina")),
        )
        return [
            ("Defensa", str(values["defensa"])),
            ("Iniciativa", str(values["iniciativa"])),
            ("Velocidad", str(values["velocidad"])),
            ("Tamaño", str(values["tamano"])),
            ("Salud", str(values["salud"])),
        ]

    def rating_label(self, spec: TraitSpec, rating: int) -> str:
        if spec.key == WILLPOWER and rating >= 1:
            return catalogue.willpower_label(rating)
        if spec.kind == "skill" and 0 <= rating <= spec.maximum:
            return catalogue.skill_label(rating)
        return ""

    def merit_ratings(self, key: str) -> tuple[int, ...]:
        if not key:
            return catalogue.CUSTOM_MERIT_RATINGS
        merit = catalogue.find_merit(key)
        return merit.ratings if merit else ()

    def boxes(self, ratings, details, rules) -> int:
        return health.track_size(
            ratings.get("resistencia", 1),
            int(details.get("tamano", traits.TAMANO_DEFAULT)),
            health_from_stamina=bool(rules.get("health_from_stamina")),
        )

    def track(self, stored: Mapping, ratings, details, rules) -> health.HealthTrack:
        """The stored track, resized when the number of boxes has changed since."""
        boxes = self.boxes(ratings, details, rules)
        if not stored:
            return health.HealthTrack(boxes=boxes)
        track = health.HealthTrack.from_dict(dict(stored))
        if track.boxes != boxes and len(track.marks) <= boxes:
            track = health.HealthTrack(boxes=boxes, marks=track.marks)
        return track

    def new_health(self, ratings, details, rules) -> dict:
        return health.HealthTrack(boxes=self.boxes(ratings, details, rules)).to_dict()

    def clean_details(self, details, campaign) -> dict:
        cleaned = dict(details)
        choices = (("virtue", catalogue.VIRTUES, "Virtud"), ("vice", catalogue.VICES, "Vicio"))
        for field, options, label in choices:
            value = cleaned.get(field)
            if value not in (None, "") and value not in {item.key for item in options}:
                raise ValidationError(
                    _("Unknown %(what)s: %(value)s.") % {"what": label, "value": value},
                    code="unknown_detail",
                )
        if "tamano" in cleaned:
            # The engine refuses what it cannot use (not a whole number, below 1).
            traits.derived({}, cleaned["tamano"])
        return cleaned

    def creation_problems(self, ratings, details, specialties, merits) -> list[str]:
        draft = creation.CreationDraft(
            attributes={a.key: ratings.get(a.key, 1) for a in catalogue.ATTRIBUTES},
            skills={s.key: ratings.get(s.key, 0) for s in catalogue.SKILLS},
            specialties=tuple(specialties),
            merits=tuple((key or name, rating) for key, name, rating in merits),
            virtue=details.get("virtue") or None,
            vice=details.get("vice") or None,
            willpower=ratings.get(WILLPOWER),
        )
        problems = [p.translated(_) for p in creation.check_creation(draft).problems]
        if ratings.get(MORALITY, traits.MORALIDAD_START) != traits.MORALIDAD_START:
            problems.append(_("Moralidad starts at %(value)s.") % {"value": traits.MORALIDAD_START})
        return problems

    def clean_health(self, stored, ratings, details, rules) -> dict:
        if not stored:
            return self.new_health(ratings, details, rules)
        track = health.HealthTrack.from_dict(dict(stored))
        boxes = self.boxes(ratings, details, rules)
        if track.boxes != boxes:
            # Re-validated at this sheet's size: too many marks are refused.
            track = dataclasses.replace(track, boxes=boxes)
        return track.to_dict()

    def health_view(self, stored, ratings, details, rules) -> HealthView:
        track = self.track(stored, ratings, details, rules)
        marks = track.marks.ljust(track.boxes)
        as_lethal = bool(rules.get("aggravated_heals_as_lethal", True))
        time_left = health.heal_time(track, aggravated_as_lethal=as_lethal)
        if health.heals_in_minutes(track, aggravated_as_lethal=as_lethal):
            time_to_heal = _("a few minutes")
        else:
            time_to_heal = duration_in_words(**time_left) if time_left else ""
        return HealthView(
            state=health.state_name(track),
            penalty=health.penalty(track, health.penalty_table(rules)),
            unconscious=health.unconscious(track),
            dead=health.dead(track),
            cannot_act=health.cannot_act(track),
            time_to_heal=time_to_heal,
            boxes=tuple(
                (mark.strip(), health.box_name(track.boxes, index))
                for index, mark in enumerate(marks)
            ),
        )

    def damage_types(self) -> tuple[tuple[str, str], ...]:
        return DAMAGE_TYPES

    def apply_damage(self, stored, ratings, details, rules, damage, rng=None) -> HealthChange:
        track = health.apply(
            self.track(stored, ratings, details, rules), damage.damage_type, damage.amount
        )
        return HealthChange(track.to_dict(), f"{damage.amount} {damage.damage_type}")

    def advance_time(self, stored, ratings, details, rules, hours, rested=True) -> HealthChange:
        track = health.heal(
            self.track(stored, ratings, details, rules),
            hours,
            aggravated_as_lethal=bool(rules.get("aggravated_heals_as_lethal", True)),
        )
        return HealthChange(track.to_dict(), f"{hours} h")

    # --- Health ---
    rest_question = health_ui.REST_QUESTION
    after_time_passes = health_ui.regain_willpower
    treatments = health_ui.TREATMENTS
    damage_label = health_ui.DAMAGE_LABEL
    damage_range = health_ui.DAMAGE_RANGE
    health_notes = health_ui.health_notes


DAMAGE_TYPES = (("B", "Contundente"), ("L", "Letal"), ("A", "Agravado"))


def _build_specs() -> tuple[TraitSpec, ...]:
    categories = dict(catalogue.CATEGORIES)
    specs = [
        TraitSpec(
            a.key,
            a.name,
            "attribute",
            f"Atributos · {categories[a.category]}",
            a.minimum,
            a.maximum,
            a.description,
        )
        for a in catalogue.ATTRIBUTES
    ]
    specs += [
        TraitSpec(
            s.key,
            s.name,
            "skill",
            f"Habilidades · {categories[s.category]}",
            s.minimum,
            s.maximum,
            s.description,
        )
        for s in catalogue.SKILLS
    ]
    specs += [
        TraitSpec(
            WILLPOWER, "Fuerza de Voluntad", "advantage", "Ventajas", 1, traits.WILLPOWER_MAX
        ),
        TraitSpec(MORALITY, "Moralidad", "advantage", "Ventajas", 0, traits.MORALIDAD_MAX),
    ]
    return tuple(specs)


_SPECS = _build_specs()
