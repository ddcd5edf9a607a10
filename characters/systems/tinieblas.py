from __future__ import annotations

from collections.abc import Mapping

from characters.systems.base import (
    HealthView,
    ResourceSpec,
    SheetSystem,
    TraitSpec,
    duration_in_words,
)
from mechanics.rules.tinieblas import catalogue, health, traits

WILLPOWER = "fuerza_de_voluntad"
MORALITY = "moralidad"


class TinieblasSystem(SheetSystem):
    key = "tinieblas"
    name = "Mundo de Tinieblas"

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        return _SPECS

    def initial_ratings(self, campaign) -> dict[str, int]:
        ratings = super().initial_ratings(campaign)
        ratings[MORALITY] = traits.MORALIDAD_START
        ratings[WILLPOWER] = traits.starting_willpower(ratings["aplomo"], ratings["compostura"])
        return ratings

    def resource_specs(self, ratings, details, rules) -> tuple[ResourceSpec, ...]:
        permanent = ratings.get(WILLPOWER, 1)
        return (ResourceSpec("willpower", "Fuerza de Voluntad", permanent, permanent),)

    def derived(self, ratings, details, rules, items=()) -> list[tuple[str, str]]:
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

    def health_view(self, stored, ratings, details, rules) -> HealthView:
        track = self.track(stored, ratings, details, rules)
        marks = track.marks.ljust(track.boxes)
        time_left = health.heal_time(
            track, aggravated_as_lethal=bool(rules.get("aggravated_heals_as_lethal", True))
        )
        return HealthView(
            state=health.state_name(track),
            penalty=health.penalty(track),
            unconscious=health.unconscious(track),
            dead=health.dead(track),
            cannot_act=health.cannot_act(track),
            time_to_heal=duration_in_words(**time_left) if time_left else "",
            boxes=tuple(
                (mark.strip(), health.box_name(track.boxes, index))
                for index, mark in enumerate(marks)
            ),
        )


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
