"""Experience in Mundo de Tinieblas: what each purchase costs and what a scene awards.

Costs follow the seed's "Gastar Experiencia" literally ("valor actual" is the rating
before the purchase):

    Atributo: Valor Actual x5.          Mejorar Habilidad: Valor Actual x3.
    Nueva Habilidad: 3                  Nueva Especialidad: 3
    Mérito: Valor Actual x 2.*          Moralidad: Nivel que quieres alcanzar x 3
    Voluntad: Valor Actual x 2

A new merit's first dot costs 2 (docs/rules.md#tinieblas-new-merit-cost). A merit
whose allowed ratings skip values (Apariencia Llamativa: 2 or 4) or start above 1
(Sentido Común: 4) is paid as if it were bought one dot at a time through the skipped
ratings: 0→1 costs 2, then each step k→k+1 costs k×2. So Apariencia Llamativa 0→2
costs 2 + 2 = 4 and 2→4 costs 4 + 6 = 10; Sentido Común 0→4 costs 2 + 2 + 4 + 6 = 14.
Nobody can reach a rating by a cheaper route than the dots it contains, and a merit
with a normal 1–5 range costs exactly what the seed says.
"""

from __future__ import annotations

from dataclasses import dataclass

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.tinieblas.catalogue import (
    CUSTOM_MERIT_RATINGS,
    XP_DIARIO,
    XP_IDEAS,
    XP_INTERPRETACION,
    XP_OTHERS,
    merit,
)

TRAITS: tuple[str, ...] = ("attribute", "skill", "specialty", "merit", "morality", "willpower")

SPECIALTY_COST = 3
NEW_SKILL_COST = 3
NEW_MERIT_FIRST_DOT_COST = 2

# Name shown in messages, lowest and highest rating of each rated trait.
_RANGES: dict[str, tuple[str, int, int]] = {
    "attribute": ("Atributo", 1, 5),
    "skill": ("Habilidad", 0, 5),
    "morality": ("Moralidad", 0, 10),
    "willpower": ("Fuerza de Voluntad", 1, 10),
}


def _check_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(gettext_noop("%(name)s must be a whole number"), name=name)
    return value


def _merit_step_cost(current: int) -> int:
    """One dot from `current` to `current + 1`."""
    return NEW_MERIT_FIRST_DOT_COST if current == 0 else current * 2


def _merit_cost(current: int, merit_key: str | None) -> int:
    if merit_key is None:
        ratings, name = CUSTOM_MERIT_RATINGS, "Mérito"
    else:
        definition = merit(merit_key)
        if definition.creation_only:
            raise RuleError(
                gettext_noop("%(name)s can only be taken at character creation"),
                name=definition.name,
            )
        ratings, name = definition.ratings, definition.name
    if current != 0 and current not in ratings:
        raise RuleError(
            gettext_noop("%(name)s cannot have %(current)s dots"), name=name, current=current
        )
    target = next((rating for rating in ratings if rating > current), None)
    if target is None:
        raise RuleError(gettext_noop("%(name)s is already at its maximum"), name=name)
    return sum(_merit_step_cost(step) for step in range(current, target))


def xp_cost(trait: str, current: int, *, merit_key: str | None = None) -> int:
    """XP to raise `trait` one step from `current` (the rating before the purchase).

    trait is one of "attribute", "skill", "specialty", "merit", "morality", "willpower".
    For a skill, current 0 means a new skill (3 XP). For a specialty, `current` is
    ignored (a new specialty always costs 3) but must be a whole number ≥ 0. For a
    merit, current 0 means a new merit; the step goes to the merit's next allowed
    rating; `merit_key` names a catalogue merit, None means a custom merit (1–5 dots).
    Raises RuleError for an unknown trait, a rating that cannot be raised, or a
    creation-only merit.
    """
    if trait not in TRAITS:
        raise RuleError(gettext_noop("Unknown kind of purchase “%(trait)s”"), trait=trait)
    current = _check_int(current, gettext_noop("current rating"))
    if trait == "specialty":
        if current < 0:
            raise RuleError(gettext_noop("A rating cannot be negative"))
        return SPECIALTY_COST
    if trait == "merit":
        if current < 0:
            raise RuleError(gettext_noop("A rating cannot be negative"))
        return _merit_cost(current, merit_key)
    name, low, high = _RANGES[trait]
    if not low <= current <= high:
        raise RuleError(
            gettext_noop("%(name)s must be between %(low)s and %(high)s"),
            name=name,
            low=low,
            high=high,
        )
    if current == high:
        raise RuleError(gettext_noop("%(name)s is already at its maximum"), name=name)
    if trait == "attribute":
        return current * 5
    if trait == "skill":
        return NEW_SKILL_COST if current == 0 else current * 3
    if trait == "morality":
        return (current + 1) * 3
    return current * 2  # willpower


def xp_cost_to(trait: str, current: int, target: int, *, merit_key: str | None = None) -> int:
    """XP to raise `trait` from `current` to `target`, one purchase at a time.

    Not for specialties (each is its own purchase). For merits, `target` must be an
    allowed rating.
    """
    if trait == "specialty":
        raise RuleError(gettext_noop("Specialties are bought one at a time"))
    target = _check_int(target, gettext_noop("target rating"))
    if target <= current:
        raise RuleError(gettext_noop("The target rating must be above the current one"))
    total = 0
    rating = current
    while rating < target:
        total += xp_cost(trait, rating, merit_key=merit_key)
        if trait == "merit":
            ratings = CUSTOM_MERIT_RATINGS if merit_key is None else merit(merit_key).ratings
            rating = next(r for r in ratings if r > rating)
        else:
            rating += 1
    if rating != target:
        raise RuleError(
            gettext_noop("%(target)s is not an allowed rating for this merit"), target=target
        )
    return total


# Per-scene award ---------------------------------------------------------------------

UNIVERSE_POINTS = 1
_OTHERS = {other.key: other for other in XP_OTHERS}


@dataclass(frozen=True)
class SceneAward:
    """What the GM grades for one player at the end of a scene.

    Interpretación 1–4, Ideas 1–4, Diario 0–4, Constancia 0 or 1, Sobornos al máster
    0–5; the +1 "por estar en el universo" is always added by `award_total`.
    """

    interpretacion: int
    ideas: int
    diario: int = 0
    constancia: int = 0
    sobornos: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.constancia, bool):
            object.__setattr__(self, "constancia", int(self.constancia))
        checks = (
            (
                "interpretacion",
                XP_INTERPRETACION.name,
                XP_INTERPRETACION.minimum,
                XP_INTERPRETACION.maximum,
            ),
            ("ideas", XP_IDEAS.name, XP_IDEAS.minimum, XP_IDEAS.maximum),
            ("diario", XP_DIARIO.name, XP_DIARIO.minimum, XP_DIARIO.maximum),
            ("constancia", "Constancia", 0, _OTHERS["constancia"].maximum),
            ("sobornos", "Sobornos", 0, _OTHERS["sobornos"].maximum),
        )
        for field_name, label, low, high in checks:
            value = _check_int(getattr(self, field_name), label)
            if not low <= value <= high:
                raise RuleError(
                    gettext_noop("%(name)s must be between %(low)s and %(high)s"),
                    name=label,
                    low=low,
                    high=high,
                )

    @property
    def total(self) -> int:
        return award_total(self)

    def to_dict(self) -> dict[str, int]:
        return {
            "interpretacion": self.interpretacion,
            "ideas": self.ideas,
            "diario": self.diario,
            "constancia": self.constancia,
            "sobornos": self.sobornos,
        }

    @classmethod
    def from_dict(cls, data: dict) -> SceneAward:
        return cls(
            interpretacion=data["interpretacion"],
            ideas=data["ideas"],
            diario=data.get("diario", 0),
            constancia=data.get("constancia", 0),
            sobornos=data.get("sobornos", 0),
        )


def award_breakdown(award: SceneAward) -> list[tuple[str, str, int]]:
    """One row per line of the seed's rubric: (key, caption, points).

    Rows come in the seed's order and are always all present (0-point rows included)
    so a form or a diary can show the whole rubric. The Diario caption is empty (the
    seed gives none per level).
    """
    return [
        ("interpretacion", XP_INTERPRETACION.caption(award.interpretacion), award.interpretacion),
        ("ideas", XP_IDEAS.caption(award.ideas), award.ideas),
        ("diario", XP_DIARIO.caption(award.diario), award.diario),
        ("universo", _OTHERS["universo"].caption, UNIVERSE_POINTS),
        ("constancia", _OTHERS["constancia"].caption, award.constancia),
        ("sobornos", _OTHERS["sobornos"].caption, award.sobornos),
    ]


def award_total(award: SceneAward) -> int:
    """All the PX of one scene, the +1 for being in the universe included (2..19)."""
    return (
        award.interpretacion
        + award.ideas
        + award.diario
        + UNIVERSE_POINTS
        + award.constancia
        + award.sobornos
    )
