from __future__ import annotations

from characters.systems.base import (
    HealthView,
    ResourceSpec,
    SheetSystem,
    TraitSpec,
    hours_in_words,
)
from mechanics.rules.ndp import catalogue, equipment, health

PRANA = "prana"


class NdpSystem(SheetSystem):
    key = "ndp"
    name = "3d6 + NdP"

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        return _SPECS

    def resource_specs(self, ratings, details, rules) -> tuple[ResourceSpec, ...]:
        prana = equipment.max_prana(ratings.get("vitalidad", 0))
        faith_max = equipment.max_faith_per_deity(ratings.get("voluntad", 0))
        specs = [ResourceSpec(PRANA, "Prana", prana, prana)]
        specs += [
            ResourceSpec(f"fe_{deity}", f"Fe · {name}", faith_max, 0)
            for deity, name in sorted(details.get("deities", {}).items())
        ]
        return tuple(specs)

    def derived(self, ratings, details, rules, items=()) -> list[tuple[str, str]]:
        fortitud = ratings.get("fortitud", 0)
        weight = float(sum(item.weight_kg for item in items))
        load = equipment.load_state(weight, fortitud)
        load_text = f"{weight:g} / {equipment.max_load(fortitud)} kg"
        if load.immobile:
            load_text += " · inmóvil"
        elif load.overloaded:
            load_text += f" · mitad de velocidad, {load.athletic_desgracias} Desgracia(s)"
        return [
            ("Carga", load_text),
            ("Prana máximo", str(equipment.max_prana(ratings.get("vitalidad", 0)))),
            ("Gestos conocidos (máx.)", str(equipment.max_gestures(ratings.get("arcano", 0)))),
            ("Divinidades (máx.)", str(equipment.max_deities(ratings.get("religion", 0)))),
        ]

    def new_health(self, ratings, details, rules) -> dict:
        return health.NdpHealth().to_dict()

    def health_view(self, stored, ratings, details, rules) -> HealthView:
        state = health.NdpHealth.from_dict(dict(stored)) if stored else health.NdpHealth()
        summary = state.summary()
        lines = tuple(
            (
                part["name"],
                f"leve {part['leve']} · grave {part['grave']} · letal {part['letal']}",
            )
            for part in summary["parts"].values()
            if part["leve"] or part["grave"] or part["letal"]
        )
        names = tuple(
            s["name"] + (f" ({catalogue.body_part(s['part']).name})" if s["part"] else "")
            for s in summary["states"]
        )
        return HealthView(
            state=names[0] if names else None,
            penalty=0,
            unconscious=summary["unconscious"],
            dead=summary["dead"],
            time_to_heal=hours_in_words(summary["hours_to_heal"]),
            lines=lines,
            states=names,
        )


_SPECS = tuple(
    TraitSpec(s.key, s.name, "skill", s.category, s.minimum, s.maximum, s.description)
    for s in catalogue.SKILLS
)
