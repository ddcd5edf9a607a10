"""Derived traits of a Mundo de Tinieblas character, as pure functions of plain ints.

Keys of `derived()` are the slugs of the Spanish names, like the catalogue keys.
"""

from __future__ import annotations

from collections.abc import Mapping

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.tinieblas.catalogue import ATTRIBUTES, attribute
from mechanics.rules.tinieblas.health import DEFAULT_BOXES, track_size

TAMANO_DEFAULT = 5
MORALIDAD_START = 7
MORALIDAD_MAX = 10
WILLPOWER_MAX = 10
HEALTH_BOXES_DEFAULT = DEFAULT_BOXES


def defensa(astucia: int, destreza: int) -> int:
    return min(astucia, destreza)


def iniciativa(destreza: int, compostura: int) -> int:
    return destreza + compostura


def velocidad(fuerza: int, destreza: int) -> int:
    return fuerza + destreza + 5


def starting_willpower(aplomo: int, compostura: int) -> int:
    """Fuerza de Voluntad at creation: Aplomo + Compostura (2..10)."""
    return aplomo + compostura


def health_boxes(
    resistencia: int, tamano: int = TAMANO_DEFAULT, *, health_from_stamina: bool = False
) -> int:
    """7 boxes, or Resistencia + Tamaño with the `health_from_stamina` setting.

    Delegates to `health.track_size` so the sheet and the track always agree (that
    module bounds the track and right-aligns the seven names on it).
    """
    return track_size(resistencia, tamano, health_from_stamina=health_from_stamina)


def _rating(attributes: Mapping[str, int], key: str) -> int:
    value = attributes.get(key, 1)
    definition = attribute(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(gettext_noop("%(name)s must be a whole number"), name=definition.name)
    if not definition.minimum <= value <= definition.maximum:
        raise RuleError(
            gettext_noop("%(name)s must be between %(low)s and %(high)s"),
            name=definition.name,
            low=definition.minimum,
            high=definition.maximum,
        )
    return value


def derived(
    attributes: Mapping[str, int],
    tamano: int = TAMANO_DEFAULT,
    *,
    health_from_stamina: bool = False,
) -> dict[str, int]:
    """Every derived trait from the nine attributes (a missing attribute counts as 1).

    Returns defensa, iniciativa, velocidad, tamano, fuerza_de_voluntad (starting
    value), moralidad (starting value) and salud (health boxes). Unknown keys and
    ratings outside 1..5 raise RuleError.
    """
    for key in attributes:
        attribute(key)
    if isinstance(tamano, bool) or not isinstance(tamano, int) or tamano < 1:
        raise RuleError(gettext_noop("Tamaño must be a whole number of at least 1"))
    value = {item.key: _rating(attributes, item.key) for item in ATTRIBUTES}
    return {
        "defensa": defensa(value["astucia"], value["destreza"]),
        "iniciativa": iniciativa(value["destreza"], value["compostura"]),
        "velocidad": velocidad(value["fuerza"], value["destreza"]),
        "tamano": tamano,
        "fuerza_de_voluntad": starting_willpower(value["aplomo"], value["compostura"]),
        "moralidad": MORALIDAD_START,
        "salud": health_boxes(
            value["resistencia"], tamano, health_from_stamina=health_from_stamina
        ),
    }
